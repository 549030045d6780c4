import type { Db } from '../db/database.js';
import { notFound } from '../errors.js';
import { changelogRepository, type PublicProject, type PublishedRelease } from './changelog.repository.js';
import { documentOrder, githubRepoUrl, renderKeepAChangelog, renderPublishedMarkdown } from './changelog-md.js';
import { decodeReleaseCursor, encodeReleaseCursor } from './cursor.js';

/** How many of the newest published notes `changelog.md` carries; older ones are named in a closing line. */
export const CHANGELOG_MD_RELEASES = 100;
/** Notes read per statement while collecting them. */
const READ_PAGE = 100;

export type ExportFormat = 'keep-a-changelog' | 'markdown' | 'json';

export interface PublishedNotes {
  project: PublicProject;
  /** Newest first, Unreleased on top when published. */
  releases: PublishedRelease[];
  /** Published notes older than the last one returned that were left out (a limit), not counting `since`'s cut. */
  omitted: number;
  /** `https://github.com/OWNER/REPO` when the project's pull-request URL names one. */
  repoUrl: string | null;
}

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

  const service = {
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

    /**
     * Every published note newest first (Unreleased on top), at most `limit`, stopping before `since`
     * (a published tag: the notes released after it, by the listing's order). Drafts, archived notes and
     * pending revisions are never read: the rows are the published revisions.
     */
    async published(slug: string, options: { limit?: number; since?: string } = {}): Promise<PublishedNotes> {
      const project = await requireProject(slug);
      const limit = options.limit ?? Number.POSITIVE_INFINITY;
      if (options.since !== undefined) {
        const since = await changelogRepository.findPublishedRelease(readDb, project.id, options.since);
        if (!since || since.tag === null) throw notFound(`Published release ${options.since}`);
      }
      const releases: PublishedRelease[] = [];
      let after: { sortAt: string; id: string } | undefined;
      let reachedSince = false;
      for (;;) {
        const page = await changelogRepository.publishedReleases(readDb, project.id, { limit: READ_PAGE, offset: 0, after });
        for (const note of page) {
          if (options.since !== undefined && note.tag === options.since) {
            reachedSince = true;
            break;
          }
          if (releases.length < limit) releases.push(note);
        }
        const last = page.at(-1);
        if (reachedSince || page.length < READ_PAGE || !last || releases.length >= limit) break;
        after = { sortAt: last.sort_key, id: last.id };
      }
      const omitted = options.since === undefined ? Math.max(0, project.published_release_count - releases.length) : 0;
      const repoUrl = githubRepoUrl(await changelogRepository.pullRequestUrl(readDb, project.id));
      return { project, releases, omitted, repoUrl };
    },

    /** The published notes as one document: Keep a Changelog (the route's), as published, or JSON. */
    async document(slug: string, format: ExportFormat, options: { limit?: number; since?: string; olderUrl?: string } = {}) {
      const published = await service.published(slug, options);
      const notes = { ...published, releases: documentOrder(published.releases) };
      const omitted = notes.omitted && options.olderUrl ? { count: notes.omitted, url: options.olderUrl } : null;
      const body =
        format === 'json'
          ? `${JSON.stringify({ project: { name: notes.project.name, slug: notes.project.slug }, releases: notes.releases.map(presentNote) }, null, 2)}\n`
          : format === 'markdown'
            ? renderPublishedMarkdown({ title: `${notes.project.name} changelog`, releases: notes.releases, omitted })
            : renderKeepAChangelog({ releases: notes.releases, repoUrl: notes.repoUrl, omitted });
      return { ...notes, body };
    },

    /** A project's published note of a tag, or undefined (a draft, an archived note and a pending revision are none). */
    async publishedNote(projectId: string, tag: string): Promise<PublishedRelease | undefined> {
      return changelogRepository.findPublishedRelease(readDb, projectId, tag);
    },

    /** One published note by tag (`unreleased`: the Unreleased note). */
    async release(slug: string, tag: string): Promise<{ project: PublicProject; release: PublishedRelease }> {
      const project = await requireProject(slug);
      const release = await changelogRepository.findPublishedRelease(readDb, project.id, tag);
      if (!release) throw notFound('Release');
      return { project, release };
    },
  };
  return service;
}

/** The API's ReleaseNote fields a reader of a changelog needs, in the order the export's JSON lists them. */
const EXPORTED_FIELDS = ['tag', 'package', 'version', 'prerelease', 'previous_tag', 'released_at', 'title', 'introduction', 'content', 'generated_json', 'published_at'] as const;

/** A note in the export's JSON (its dates become ISO 8601 strings there, as in the API). */
const presentNote = (n: PublishedRelease) => Object.fromEntries(EXPORTED_FIELDS.map((field) => [field, n[field]]));

export type ReleasesService = ReturnType<typeof createReleasesService>;
