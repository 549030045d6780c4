import type { Db } from '../db/database.js';
import type { EntryRow } from '../db/schema.js';
import { entriesRepository } from '../entries/entries.repository.js';
import { notFound } from '../http/errors.js';
import { projectsRepository } from '../projects/projects.repository.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export interface ChangelogPage {
  project: { id: string; name: string; slug: string };
  entries: EntryRow[];
  meta: { limit: number; offset: number; count: number; total: number; has_more: boolean; next_cursor: string | null };
}

/** The public read side: published entries only, addressed by project slug. */
export function createChangelogService(readDb: Db) {
  async function requireProject(slug: string) {
    const project = await projectsRepository.findPublicBySlug(readDb, slug);
    if (!project) throw notFound('Changelog');
    return project;
  }

  return {
    /** A page by offset, or after a cursor (then `offset` counts from the cursor). */
    async page(slug: string, query: { limit: number; offset: number; cursor?: string }): Promise<ChangelogPage> {
      const after = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
      const project = await requireProject(slug);
      // One row past the page tells whether there is more, whatever the total says mid-change.
      const rows = await entriesRepository.listPublished(readDb, project.id, {
        limit: query.limit + 1,
        offset: query.offset,
        ...(after ? { after } : {}),
      });
      const hasMore = rows.length > query.limit;
      const entries = hasMore ? rows.slice(0, query.limit) : rows;
      const last = entries.at(-1);
      return {
        project: { id: project.id, name: project.name, slug: project.slug },
        entries,
        meta: {
          limit: query.limit,
          offset: query.offset,
          count: entries.length,
          total: project.published_entry_count,
          has_more: hasMore,
          next_cursor: hasMore && last ? encodeCursor({ publishedAt: last.sort_key, id: last.id }) : null,
        },
      };
    },

    async entry(slug: string, id: string): Promise<EntryRow> {
      const project = await requireProject(slug);
      const entry = await entriesRepository.findPublished(readDb, project.id, id);
      if (!entry) throw notFound('Entry');
      return entry;
    },
  };
}
