import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers/database.js';
import { loadMigrations, migrate } from '../db/migrate.js';
import { toCommitRecords } from '../generation/engine-wire.js';
import { generationRepository } from '../generation/generation.repository.js';
import type { CommitRecord } from '../git/commit-record.js';
import { commitsRepository } from './commits.repository.js';

// Paths and names as git gives them: quotes, backslashes, non-ASCII, spaces.
const changes: Array<[string, string]> = [['M', 'src/"quoted" name.ts'], ['A', 'docs\\windows\\path.md'], ['D', 'i18n/日本語.json']];
const coAuthors = [{ name: 'Zoë "Z" Ünal', email: 'zoe@example.com' }];

describe('migration 0028 (commit paths and co-authors as JSON text)', () => {
  it('keeps the stored commits as they were, and generation reads old and new ones alike', async () => {
    const database = await createTestDatabase({ migrations: loadMigrations().filter((m) => m.version < 28) });
    try {
      const db = database.db;
      const user = await sql<{ id: string }>`INSERT INTO users (email, name) VALUES ('old@example.com', 'Old') RETURNING id`.execute(db);
      const project = await sql<{ id: string }>`INSERT INTO projects (owner_type, owner_user_id, name, slug)
        VALUES ('user', ${user.rows[0]!.id}, 'Old', 'old-app') RETURNING id`.execute(db);
      const projectId = project.rows[0]!.id;
      await sql`INSERT INTO commits (project_id, sha, parent_shas, author_name, author_email, authored_at, committer_name, committer_email,
          committed_at, message, changes, co_authors, tags)
        VALUES (${projectId}, ${'a'.repeat(40)}, '{}', 'Ada', 'ada@example.com', '2026-01-01T10:00:00Z', 'Ada', 'ada@example.com',
          '2026-01-01T10:00:00Z', 'feat: old commit', ${JSON.stringify(changes)}::jsonb, ${JSON.stringify(coAuthors)}::jsonb, '{v1.0.0,pkg@1.0.0}'),
          (${projectId}, ${'b'.repeat(40)}, ${[`${'a'.repeat(40)}`]}, 'Ada', 'ada@example.com', '2026-01-02T10:00:00Z', 'Ada', 'ada@example.com',
          '2026-01-02T10:00:00Z', 'fix: no paths', DEFAULT, DEFAULT, '{}')`.execute(db);

      await migrate(database);
      const link = await sql<{ id: string }>`INSERT INTO repo_links (project_id, kind, source_url, source_key, tracked_branch)
        VALUES (${projectId}, 'local', '/src/old-app', 'local:/src/old-app', 'main') RETURNING id`.execute(db);
      const newer: CommitRecord = {
        sha: 'c'.repeat(40),
        parents: ['b'.repeat(40)],
        author: { name: 'Bo', email: 'bo@example.com', date: '2026-01-03T10:00:00+02:00' },
        committer: { name: 'Bo', email: 'bo@example.com', date: '2026-01-03T10:00:00+02:00' },
        message: 'feat: new commit',
        changes,
        tags: [],
        coAuthors,
        prNumber: 7,
      };
      expect(await commitsRepository.insertBatch(db, projectId, link.rows[0]!.id, [newer])).toBe(1);

      const read = toCommitRecords((await generationRepository.reachableCommits(db, projectId)).map((r) => r.record));
      expect(read.map((c) => [c.sha[0], c.parents, c.changes, c.coAuthors, c.tags])).toEqual([
        ['a', [], changes, coAuthors, ['v1.0.0', 'pkg@1.0.0']],
        ['b', ['a'.repeat(40)], [], [], []],
        ['c', ['b'.repeat(40)], changes, coAuthors, []],
      ]);
      expect(read[2]!.committer.date).toBe('2026-01-03T10:00:00+02:00');
    } finally {
      await database.close();
    }
  });
});
