import { AppError } from '../errors.js';

/** The stored key of a release note (src/generation/engine/releases.ts): `release:<tag>`, or `release:unreleased`. */
export const UNRELEASED_TAG = 'unreleased';

/**
 * The key a tag addresses. `unreleased` names the Unreleased note: it is no release tag, since a
 * release tag ends in a semantic version (src/generation/engine/versions.ts).
 */
export function releaseKey(tag: string): string {
  // No git tag holds a control character, and the database refuses NUL in text: not found, never a query.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u001F\u007F]/.test(tag)) throw new AppError('not_found', 'No such release');
  return tag === UNRELEASED_TAG ? 'release:unreleased' : `release:${tag}`;
}
