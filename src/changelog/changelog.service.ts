import type { Db } from '../db/database.js';
import type { EntryRow } from '../db/schema.js';
import { entriesRepository } from '../entries/entries.repository.js';
import { notFound } from '../http/errors.js';
import { projectsRepository } from '../projects/projects.repository.js';

export interface ChangelogPage {
  project: { id: string; name: string; slug: string };
  entries: EntryRow[];
  meta: { limit: number; offset: number; count: number; total: number; has_more: boolean };
}

/** The public read side: published entries only, addressed by project slug. */
export function createChangelogService(readDb: Db) {
  async function requireProject(slug: string) {
    const project = await projectsRepository.findPublicBySlug(readDb, slug);
    if (!project) throw notFound('Changelog');
    return project;
  }

  return {
    async page(slug: string, limit: number, offset: number): Promise<ChangelogPage> {
      const project = await requireProject(slug);
      const entries = await entriesRepository.listPublished(readDb, project.id, limit, offset);
      const total = project.published_entry_count;
      return {
        project: { id: project.id, name: project.name, slug: project.slug },
        entries,
        meta: { limit, offset, count: entries.length, total, has_more: offset + entries.length < total },
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
