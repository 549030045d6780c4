import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TagParam } from '../changelog/changelog.schemas.js';
import type { ProjectRow } from '../db/schema.js';
import { principalOf } from '../http/route-policy.js';
import { errorResponses, SlugParam, Uuid } from '../http/schemas.js';
import type { AutomationService } from './automation.service.js';
import {
  EntryState,
  PageQuery,
  PendingEntriesResponse,
  PendingReleasesResponse,
  PreviewBody,
  PreviewResponse,
  PublishQuery,
  ReleaseState,
  SyncQueued,
} from './automation.schemas.js';

/**
 * The automation routes take a key with the `publish` scope, as `Authorization: Bearer` only: the scope is
 * named in their security requirement, which the route policy enforces (403 for a read-only key) before
 * the body is read, and which /openapi.json publishes.
 */
const PUBLISH = [{ bearerAuth: ['publish'] }];
const TAGS = ['publishing'];
/** Nothing they take comes near it: a ref and a tag. */
const BODY_LIMIT = 4 * 1024;

const COMMON_ERRORS =
  ' Errors: 400 malformed parameters (each named in `details`); 401 missing or invalid key (revoked, expired, deleted: the same ' +
  'answer); 403 the key lacks the `publish` scope; 404 a project the key may not see (another context, or not among its selected ' +
  "projects), or an id or tag that is not the project's (the same answer as for one that does not exist).";

const contentVersionOf = (query: unknown) => (query as { content_version?: string } | undefined)?.content_version;
const projectRef = (p: ProjectRow) => ({ id: p.id, slug: p.slug });
const releaseUrl = (slug: string, tag: string | null) => `/v1/changelog/${slug}/releases/${tag === null ? 'unreleased' : encodeURIComponent(tag)}`;

const SlugParams = Type.Object({ slug: SlugParam });
const EntryParams = Type.Object({ slug: SlugParam, id: Uuid });
const ReleaseParams = Type.Object({ slug: SlugParam, tag: TagParam });
const LinkParams = Type.Object({ slug: SlugParam, id: Uuid });

export const automationRoutes: FastifyPluginAsyncTypebox<{ services: { automation: AutomationService } }> = async (app, { services }) => {
  const { automation } = services;

  app.get(
    '/v1/projects/:slug/drafts/entries',
    {
      schema: {
        summary: 'Entries waiting for a publish: drafts, and published entries with a pending revision',
        description: "What the review queue shows as `draft`, newest first by each entry's own date; page with `after`." + COMMON_ERRORS,
        tags: TAGS,
        security: PUBLISH,
        params: SlugParams,
        querystring: PageQuery,
        response: { 200: PendingEntriesResponse, ...errorResponses(400, 401, 403, 404, 500) },
      },
    },
    async (request) => {
      const { limit = 50, after } = request.query;
      const { project, entries, next } = await automation.pendingEntries(principalOf(request), request.params.slug, { limit, ...(after ? { after } : {}) });
      return {
        project: projectRef(project),
        entries: entries.map((e) => ({
          id: e.id,
          entry_type: e.entry_type,
          status: e.status,
          title: e.title,
          version_label: e.version_label,
          date: e.occurred_at,
          published_at: e.published_at,
          updated_at: e.updated_at,
          edited: e.edited_at !== null,
          pending_revision: e.revision,
          content_version: e.contentVersion,
        })),
        next,
      };
    },
  );

  app.get(
    '/v1/projects/:slug/drafts/releases',
    {
      schema: {
        summary: 'Release notes waiting for a publish: drafts, and published notes with a pending revision',
        description: 'Newest release first, the Unreleased note on top; page with `after`.' + COMMON_ERRORS,
        tags: TAGS,
        security: PUBLISH,
        params: SlugParams,
        querystring: PageQuery,
        response: { 200: PendingReleasesResponse, ...errorResponses(400, 401, 403, 404, 500) },
      },
    },
    async (request) => {
      const { limit = 50, after } = request.query;
      const { project, releases, next } = await automation.pendingReleases(principalOf(request), request.params.slug, { limit, ...(after ? { after } : {}) });
      return {
        project: projectRef(project),
        releases: releases.map((r) => ({
          tag: r.tag,
          version: r.version,
          prerelease: r.prerelease,
          previous_tag: r.previous_tag,
          released_at: r.released_at,
          title: r.title,
          status: r.status,
          published_at: r.published_at,
          items: r.items,
          pending_revision: r.revision,
          edited: r.edited,
          content_version: r.contentVersion,
        })),
        next,
      };
    },
  );

  for (const action of ['publish', 'unpublish'] as const) {
    app.post(
      `/v1/projects/:slug/entries/:id/${action}`,
      {
        schema: {
          summary: action === 'publish' ? 'Publish an entry (a draft, or the pending revision of a published one)' : 'Unpublish an entry (back to draft)',
          description:
            (action === 'publish'
              ? 'Publishing what is already published, with nothing waiting, changes nothing and answers the same.'
              : "Readers stop seeing it at once; a pending revision becomes the draft's content.") +
            ' The same publication as the dashboard and `changelog entries ' +
            action +
            '`.' +
            COMMON_ERRORS,
          tags: TAGS,
          security: PUBLISH,
          params: EntryParams,
          ...(action === 'publish' ? { querystring: PublishQuery } : {}),
          response: { 200: EntryState, ...errorResponses(400, 401, 403, 404, ...(action === 'publish' ? [409] : []), 500) },
        },
        bodyLimit: BODY_LIMIT,
      },
      async (request) => {
        const id = request.params.id.toLowerCase();
        const principal = principalOf(request);
        const { project, entry } =
          action === 'publish'
            ? await automation.publishEntry(principal, request.params.slug, id, contentVersionOf(request.query))
            : await automation.unpublishEntry(principal, request.params.slug, id);
        return { project: projectRef(project), entry: { id: entry.id, status: entry.status, published_at: entry.published_at, updated_at: entry.updated_at } };
      },
    );

    app.post(
      `/v1/projects/:slug/releases/:tag/${action}`,
      {
        schema: {
          summary: action === 'publish' ? 'Publish a release note by tag, with its pending revision' : 'Unpublish a release note by tag (back to draft)',
          description:
            'The tag is URL-encoded (`pkg%402.0.0`); `unreleased` is the Unreleased note. The same publication as the dashboard and ' +
            '`changelog entries ' +
            action +
            '-release`.' +
            COMMON_ERRORS,
          tags: TAGS,
          security: PUBLISH,
          params: ReleaseParams,
          ...(action === 'publish' ? { querystring: PublishQuery } : {}),
          response: { 200: ReleaseState, ...errorResponses(400, 401, 403, 404, ...(action === 'publish' ? [409] : []), 500) },
        },
        bodyLimit: BODY_LIMIT,
      },
      async (request) => {
        const principal = principalOf(request);
        const { slug, tag } = request.params;
        const { project, release } =
          action === 'publish'
            ? await automation.publishRelease(principal, slug, tag, contentVersionOf(request.query))
            : await automation.unpublishRelease(principal, slug, tag);
        return {
          project: projectRef(project),
          release: { tag: release.tag, status: release.status, published_at: release.published_at, url: releaseUrl(project.slug, release.tag) },
        };
      },
    );
  }

  app.post(
    '/v1/projects/:slug/repos/:id/sync',
    {
      schema: {
        summary: 'Sync a repository link now (queue its ingest; generation follows)',
        description:
          'Answers 202 once the ingest is queued; one waits at most, whatever the calls. 422: the link is suspended (its GitHub ' +
          "installation is). 429: too many syncs for the project's owner (`RATE_LIMIT_TENANT_ACTIONS_MAX` per " +
          '`RATE_LIMIT_TENANT_ACTIONS_WINDOW_MS`, all its keys and members together, "Sync now" included; `Retry-After`).' +
          COMMON_ERRORS,
        tags: TAGS,
        security: PUBLISH,
        params: LinkParams,
        response: { 202: SyncQueued, ...errorResponses(400, 401, 403, 404, 422, 429, 500) },
      },
      bodyLimit: BODY_LIMIT,
    },
    async (request, reply) => {
      const { project, linkId } = await automation.syncLink(principalOf(request), request.params.slug, request.params.id.toLowerCase(), (p) =>
        app.limitTenantAction(request, reply, 'sync', p),
      );
      return reply.status(202).send({ project: projectRef(project), link: { id: linkId }, queued: true as const });
    },
  );

  app.post(
    '/v1/projects/:slug/releases/preview',
    {
      schema: {
        summary: 'Preview the release note a ref would produce (stored nowhere)',
        description:
          "From the synced history up to `ref`, with the project's settings and the generator of a real run, in a worker thread under " +
          '`GENERATION_TIME_BUDGET_MS` (503 past it). 409: `tag` already names another commit. 422: `ref` is not a tag or commit of the ' +
          "synced history (push and sync first), or there is no note to show. 429: too many previews for the project's owner " +
          "(`RATE_LIMIT_TENANT_ACTIONS_MAX`, with the dashboard's settings previews; `Retry-After`)." +
          COMMON_ERRORS,
        tags: TAGS,
        security: PUBLISH,
        params: SlugParams,
        body: PreviewBody,
        response: { 200: PreviewResponse, ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429, 500, 503) },
      },
      bodyLimit: BODY_LIMIT,
    },
    async (request, reply) => {
      const { project, preview } = await automation.previewRelease(principalOf(request), request.params.slug, request.body, (p) =>
        app.limitTenantAction(request, reply, 'preview', p),
      );
      return { project: projectRef(project), preview };
    },
  );
};
