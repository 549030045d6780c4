/** GitHub account names: letters, digits and single hyphens, not at either end, at most 39 characters. */
export const OWNER_PATTERN = '^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$';
/** GitHub repository names: letters, digits, `.`, `_` and `-`, at most 100 characters, not `.` or `..`. */
export const REPO_NAME_PATTERN = '^(?!\\.{1,2}$)[A-Za-z0-9._-]{1,100}$';

/**
 * What makes `name` an invalid git branch name (the rules of `git check-ref-format --branch`),
 * or null when it is valid.
 */
export function branchNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > 255) return 'must be at most 255 characters';
  if (name.startsWith('-')) return 'must not start with "-"';
  if (name === '@') return 'must not be "@"';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'must not contain spaces, control characters or any of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'must not contain ".."';
  if (name.includes('@{')) return 'must not contain "@{"';
  if (name.includes('//') || name.startsWith('/') || name.endsWith('/')) return 'must not start or end with "/" or contain "//"';
  if (name.endsWith('.')) return 'must not end with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'no part may start with "."';
    if (part.endsWith('.lock')) return 'no part may end with ".lock"';
  }
  return null;
}
