// Issue 14: over every commit of the three shared datasets, no title shows a raw type prefix and no
// title changes the case of an identifier, a package name or a version it starts with.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { datasetFile, type Dataset } from '../../../scripts/dataset-repo.js';
import { classifyCommit } from './classify.js';
import { TYPE_SECTIONS } from './rules.js';
import { coAuthorsOf, prNumberOf, type CommitRecord } from '../../git/commit-record.js';

const TYPES = Object.keys(TYPE_SECTIONS).join('|');
// `fix: …`, `Fix(scope): …`, `fix (x): …`, `fix - …`, `[fix] …`, and the same inside `Revert "…"`.
const RAW_PREFIX = new RegExp(`^(revert "|")?((${TYPES}) ?(\\([^)]*\\))? ?!? ?(: | - )|\\[(${TYPES})\\])`, 'i');

/** The dataset's commits with the co-authors and PR number ingestion would store. */
function load(name: Dataset): CommitRecord[] {
  return gunzipSync(readFileSync(datasetFile(name))).toString('utf8').trim().split('\n').map((l) => {
    const c = JSON.parse(l) as Omit<CommitRecord, 'coAuthors' | 'prNumber'>;
    return { ...c, coAuthors: coAuthorsOf(c.message), prNumber: prNumberOf(c.message) };
  });
}

describe.each<Dataset>(['git-cliff-history', 'vue-core-history', 'prettier-history'])('titles of %s', (name) => {
  const commits = load(name);

  it('never start with a raw type prefix', () => {
    const raw: string[] = [];
    for (const c of commits) {
      const k = classifyCommit(c, { mergedCommitsPresent: true });
      if (!k.skip && RAW_PREFIX.test(k.title)) raw.push(`${k.subject} → ${k.title}`);
    }
    expect(raw).toEqual([]);
  });

  it('never capitalise an identifier, a package name or a version', () => {
    const changed: string[] = [];
    for (const c of commits) {
      const k = classifyCommit(c, { mergedCommitsPresent: true });
      if (k.skip) continue;
      const first = k.title.split(' ')[0]!;
      const original = first.charAt(0).toLowerCase() + first.slice(1);
      if (first === original || !k.subject.includes(original) || k.subject.includes(first)) continue;
      // Capitalised: fine only for an ordinary lowercase word.
      if (!/^[a-z][a-z']*[,;!?]?$/.test(original)) changed.push(`${k.subject} → ${k.title}`);
    }
    expect(changed).toEqual([]);
  });
});
