// Issue 14: commits chosen from the three shared histories (a seeded random sample plus odd cases),
// each labelled with the section a careful maintainer would pick from its subject and paths (`also`:
// a second section an equally careful maintainer could pick). Agreement must stay at 95% or more.
import { describe, expect, it } from 'vitest';
import { classifyCommit } from './classify.js';
import { coAuthorsOf, prNumberOf, type CommitRecord } from '../../git/commit-record.js';
import type { Change } from './types.js';
import labelled from './fixtures/hand-labelled.json' with { type: 'json' };

interface Labelled {
  dataset: string;
  sha: string;
  author: { name: string; email: string };
  subject: string;
  changes: Change[];
  section: string;
  also?: string[];
}

const DATE = '2024-01-01T00:00:00Z';

describe('hand-labelled commits', () => {
  const rows = labelled as Labelled[];

  it('are 150 or more, from all three histories', () => {
    expect(rows.length).toBeGreaterThanOrEqual(150);
    for (const dataset of ['git-cliff', 'vue-core', 'prettier']) expect(rows.filter((r) => r.dataset === dataset).length).toBeGreaterThanOrEqual(30);
  });

  it('agree with the classifier on at least 95%', () => {
    const misses: string[] = [];
    for (const row of rows) {
      const commit: CommitRecord = {
        sha: row.sha,
        parents: ['0'.repeat(40)],
        author: { ...row.author, date: DATE },
        committer: { ...row.author, date: DATE },
        message: row.subject,
        changes: row.changes,
        tags: [],
        coAuthors: coAuthorsOf(row.subject),
        prNumber: prNumberOf(row.subject),
      };
      const got = classifyCommit(commit, { mergedCommitsPresent: true }).section;
      // Labelled before development dependencies, the website and governance had sections of their own:
      // `dependencies` names both kinds, `documentation` (or `other`) the website's and governance documents.
      const same =
        got === row.section ||
        // …nor typed refactorings (`refactor:`) one, hidden, beside Refactoring.
        (got === 'internal' && row.section === 'refactor') ||
        (got === 'dev-dependencies' && row.section === 'dependencies') ||
        ((got === 'website' || got === 'governance') && ['documentation', 'other', 'chore'].includes(row.section));
      if (!same && !row.also?.includes(got)) misses.push(`[${row.dataset}] ${row.subject} → ${got}, labelled ${row.section}`);
    }
    const agreement = (rows.length - misses.length) / rows.length;
    console.log(
      `hand-labelled agreement: ${rows.length - misses.length}/${rows.length} = ${(agreement * 100).toFixed(1)}%${misses.length ? `\n  ${misses.join('\n  ')}` : ''}`,
    );
    expect(agreement).toBeGreaterThanOrEqual(0.95);
  });
});
