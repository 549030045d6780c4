// What a slug may be, for projects and organizations alike, and for the HTTP parameters that name them.

/** Lowercase letters and digits in groups joined by single hyphens, 2 to 64 characters. */
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
const SLUG_REGEX = new RegExp(SLUG_PATTERN);

/** Returns what is wrong with a slug, or null when it is valid. */
export function slugProblem(slug: string): string | null {
  if (slug.length < 2 || slug.length > 64) return 'must be 2 to 64 characters long';
  if (!SLUG_REGEX.test(slug)) {
    return 'may contain only lowercase letters, digits and single hyphens, and must not start or end with a hyphen';
  }
  return null;
}
