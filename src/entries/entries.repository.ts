import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { EntryRow, EntryStatus, NewEntry } from '../db/schema.js';
import { ENTRY_COLUMNS } from './entry.schemas.js';

export const entriesRepository = {
  async findById(db: Executor, id: string): Promise<EntryRow | undefined> {
    return db.selectFrom('changelog_entries').select(ENTRY_COLUMNS).where('id', '=', id).executeTakeFirst();
  },

  async insertMany(db: Executor, entries: NewEntry[]): Promise<string[]> {
    if (entries.length === 0) return [];
    const rows = await db.insertInto('changelog_entries').values(entries).returning('id').execute();
    return rows.map((row) => row.id);
  },

  async setStatus(db: Executor, id: string, status: EntryStatus): Promise<EntryRow | undefined> {
    return db
      .updateTable('changelog_entries')
      .set({
        status,
        // Publishing stamps the time once; leaving `published` clears it, so a re-publish is new again.
        published_at: status === 'published' ? sql<Date>`coalesce(published_at, now())` : null,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .returning(ENTRY_COLUMNS)
      .executeTakeFirst();
  },

  /** A project's entries in every status, newest first (for review). */
  async listForProject(db: Executor, projectId: string, limit: number): Promise<EntryRow[]> {
    return db
      .selectFrom('changelog_entries')
      .select(ENTRY_COLUMNS)
      .where('project_id', '=', projectId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  async updateText(db: Executor, id: string, text: { title: string | null; content: string | null }): Promise<EntryRow | undefined> {
    return db
      .updateTable('changelog_entries')
      // A person's text: generation keeps it from now on (see src/generation/generation.service.ts).
      .set({ title: text.title, content: text.content, edited_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returning(ENTRY_COLUMNS)
      .executeTakeFirst();
  },
};
