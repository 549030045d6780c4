import type { Services } from '../../src/services.js';
import type { CommitRecord } from '../../src/git/commit-record.js';
import { buildCommit } from './commits.js';

/** Stores commit records as ingestion would (reachable, with tags), for generation to read. */
export async function storeCommits(services: Services, projectId: string, commits: readonly CommitRecord[]): Promise<void> {
  if (!commits.length) return;
  await services.database.db
    .insertInto('commits')
    .values(
      commits.map((c) => ({
        project_id: projectId,
        sha: c.sha,
        parent_shas: c.parents,
        author_name: c.author.name,
        author_email: c.author.email,
        authored_at: c.author.date,
        committer_name: c.committer.name,
        committer_email: c.committer.email,
        committed_at: c.committer.date,
        message: c.message,
        changes: JSON.stringify(c.changes),
        tags: c.tags,
      })),
    )
    .execute();
}

/**
 * A history with two tag series and pre-releases:
 *   a ← b [v1.0.0] ← c (pkg) [pkg@2.0.0] ← d [v1.1.0-beta.1] ← e [v1.1.0] ← f (unreleased)
 * `c` touches packages/pkg only, so it is pkg's and not the root's.
 */
export function releaseHistory() {
  const a = buildCommit({ message: 'feat: first feature', changes: [['M', 'src/a.ts']], date: '2024-03-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'fix: first fix', changes: [['M', 'src/b.ts']], tags: ['v1.0.0'], date: '2024-03-02T10:00:00Z' });
  const c = buildCommit({ parents: [b.sha], message: 'feat(pkg): package feature', changes: [['M', 'packages/pkg/c.ts']], tags: ['pkg@2.0.0'], date: '2024-03-03T10:00:00Z' });
  const d = buildCommit({ parents: [c.sha], message: 'feat: beta feature', changes: [['M', 'src/d.ts']], tags: ['v1.1.0-beta.1'], date: '2024-03-04T10:00:00Z' });
  const e = buildCommit({ parents: [d.sha], message: 'fix: final fix', changes: [['M', 'src/e.ts']], tags: ['v1.1.0'], date: '2024-03-05T10:00:00Z' });
  const f = buildCommit({ parents: [e.sha], message: 'feat: not released yet', changes: [['M', 'src/f.ts']], date: '2024-03-06T10:00:00Z' });
  return { a, b, c, d, e, f, commits: [a, b, c, d, e, f] };
}
