/**
 * What a CI job may do with a key of the `publish` scope (issue #25): list what waits for a publish,
 * publish or unpublish an entry or a release note, trigger a sync, preview the note a ref would produce.
 * Nothing here writes content: publication is the entries service's (docs/revisions.md), syncs the repos
 * service's, previews generation's. This module only decides which project a key may touch, so every
 * id a caller sends is checked against the key's context and selected projects first.
 */
import type { Principal } from '../context.js';
import type { EntryRow, ProjectRow, ReleaseNoteRow } from '../db/schema.js';
import type { ReleaseListRow, ReviewRow } from '../entries/entries.repository.js';
import { entryVersion, releaseVersion, type EntriesService } from '../entries/entries.service.js';
import type { GenerationService, ReleasePreview } from '../generation/generation.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { ReposService } from '../repos/repos.service.js';

export interface AutomationDeps {
  projects: Pick<ProjectsService, 'visibleBySlug'>;
  entries: Pick<EntriesService, 'review' | 'releases' | 'publishInProject' | 'unpublishInProject' | 'publishRelease' | 'unpublishRelease'>;
  repos: Pick<ReposService, 'linkOfProject' | 'syncNow'>;
  generation: Pick<GenerationService, 'previewRelease'>;
}

/** Counts an expensive action against the project's owner (the routes' tenant limit); throws past it. */
export type ChargeTenant = (project: ProjectRow) => Promise<void>;

export function createAutomationService(deps: AutomationDeps) {
  const project = (principal: Principal, slug: string) => deps.projects.visibleBySlug(slug, principal);

  return {
    /** Drafts and published entries whose new content waits (pending revisions), newest first by their own date. */
    async pendingEntries(
      principal: Principal,
      slug: string,
      page: { limit: number; after?: string },
    ): Promise<{ project: ProjectRow; entries: Array<ReviewRow & { contentVersion: string }>; next: string | null }> {
      const p = await project(principal, slug);
      const { entries, next } = await deps.entries.review(p.id, { status: 'draft' }, page);
      return { project: p, entries: entries.map((e) => ({ ...e, contentVersion: entryVersion(e.updated_at, e.revision_fingerprint) })), next };
    },

    /** Draft release notes and published ones whose new content waits, newest release first. */
    async pendingReleases(
      principal: Principal,
      slug: string,
      page: { limit: number; after?: string },
    ): Promise<{ project: ProjectRow; releases: Array<ReleaseListRow & { contentVersion: string }>; next: string | null }> {
      const p = await project(principal, slug);
      const { releases, next } = await deps.entries.releases(p.id, { awaiting: true }, page);
      return { project: p, releases: releases.map((r) => ({ ...r, contentVersion: releaseVersion(r, r.revision_at ?? undefined) })), next };
    },

    /**
     * Publishes a draft entry, or the pending revision of a published one; another project's id is not found.
     * With `contentVersion` (from the pending list), only what CI looked at: anything changed since is refused (409).
     */
    async publishEntry(principal: Principal, slug: string, id: string, contentVersion?: string): Promise<{ project: ProjectRow; entry: EntryRow }> {
      const p = await project(principal, slug);
      return { project: p, entry: await deps.entries.publishInProject(p.id, id, contentVersion) };
    },

    async unpublishEntry(principal: Principal, slug: string, id: string): Promise<{ project: ProjectRow; entry: EntryRow }> {
      const p = await project(principal, slug);
      return { project: p, entry: await deps.entries.unpublishInProject(p.id, id) };
    },

    /** Publishes a release note by tag (`unreleased`: the Unreleased note), with its pending revision. */
    async publishRelease(principal: Principal, slug: string, tag: string, contentVersion?: string): Promise<{ project: ProjectRow; release: ReleaseNoteRow }> {
      const p = await project(principal, slug);
      return { project: p, release: await deps.entries.publishRelease(p.slug, tag, contentVersion) };
    },

    async unpublishRelease(principal: Principal, slug: string, tag: string): Promise<{ project: ProjectRow; release: ReleaseNoteRow }> {
      const p = await project(principal, slug);
      return { project: p, release: await deps.entries.unpublishRelease(p.slug, tag) };
    },

    /** Queues the ingest of one of the project's links (one waits at most); charged after the checks, so a forged id costs nothing. */
    async syncLink(principal: Principal, slug: string, linkId: string, charge: ChargeTenant): Promise<{ project: ProjectRow; linkId: string }> {
      const p = await project(principal, slug);
      const link = await deps.repos.linkOfProject(p.id, linkId);
      await charge(p);
      await deps.repos.syncNow(link.id);
      return { project: p, linkId: link.id };
    },

    /** The note `ref` would produce (with `tag` put on it when given), stored nowhere. */
    async previewRelease(
      principal: Principal,
      slug: string,
      input: { ref: string; tag?: string },
      charge: ChargeTenant,
    ): Promise<{ project: ProjectRow; preview: ReleasePreview }> {
      const p = await project(principal, slug);
      await charge(p);
      return { project: p, preview: await deps.generation.previewRelease(p.id, input.ref, input.tag) };
    },
  };
}

export type AutomationService = ReturnType<typeof createAutomationService>;
