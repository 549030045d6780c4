/** The stored key of a release note (src/generation/engine/releases.ts): `release:<tag>`, or `release:unreleased`. */
export const UNRELEASED_TAG = 'unreleased';

/**
 * The key a tag addresses. `unreleased` names the Unreleased note: it is no release tag, since a
 * release tag ends in a semantic version (src/generation/engine/versions.ts).
 */
export function releaseKey(tag: string): string {
  return tag === UNRELEASED_TAG ? 'release:unreleased' : `release:${tag}`;
}
