import type { Db } from '../db/database.js';
import { notFound } from '../errors.js';
import { changelogRepository, type PublicProject, type PublishedRelease } from './changelog.repository.js';
import { decodeReleaseCursor, encodeReleaseCursor } from './cursor.js';

export interface ReleasePage {
  project: PublicProject;
  releases: PublishedRelease[];
  meta: { limit: number; offset: number; count: number; total: number; has_more: boolean; next_cursor: string | null };
}

/**
 * Published release notes, addressed by project slug and tag: the API's extension routes, the public
 * page and the feeds. Drafts and archived notes are never returned; an unknown project is the same
 * 404 as the listing's. Release notes are few per project (one per tag), so these are plain reads.
 */
export function createReleasesService(readDb: Db) {
  async function requireProject(slug: string): Promise<PublicProject> {
    const project = await changelogRepository.findProject(readDb, slug);
    if (!project) throw notFound('Changelog');
    return project;
  }

  return {
    /** A page by offset, or after a cursor (the listing's conventions), newest release first. */
    async page(slug: string, query: { limit: number; offset: number; cursor?: string | undefined }): Promise<ReleasePage> {
      const after = query.cursor !== undefined ? decodeReleaseCursor(query.cursor) : undefined;
      const project = await requireProject(slug);
      const rows = await changelogRepository.publishedReleases(readDb, project.id, { limit: query.limit + 1, offset: query.offset, after });
      // Kept by a trigger (migrations/0029), read with the project: no count of the notes per request.
      const total = project.published_release_count;
      const releases = rows.slice(0, query.limit);
      const hasMore = rows.length > query.limit;
      const last = releases.at(-1);
      return {
        project,
        releases,
        meta: {
          limit: query.limit,
          offset: query.offset,
          count: releases.length,
          total,
          has_more: hasMore,
          next_cursor: hasMore && last ? encodeReleaseCursor({ sortAt: last.sort_key, id: last.id }) : null,
        },
      };
    },

    /** The newest published notes of tagged releases (Unreleased left out: it changes with every commit), for feeds. */
    async latest(slug: string, limit: number): Promise<{ project: PublicProject; releases: PublishedRelease[] }> {
      const project = await requireProject(slug);
      return { project, releases: await changelogRepository.latestReleased(readDb, project.id, limit) };
    },

    /** One published note by tag (`unreleased`: the Unreleased note). */
    async release(slug: string, tag: string): Promise<{ project: PublicProject; release: PublishedRelease }> {
      const project = await requireProject(slug);
      const release = await changelogRepository.findPublishedRelease(readDb, project.id, tag);
      if (!release) throw notFound('Release');
      return { project, release };
    },
  };
}

export type ReleasesService = ReturnType<typeof createReleasesService>;
