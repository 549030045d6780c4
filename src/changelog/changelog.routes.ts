import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { projectTag, type ResponseCache } from '../cache/response-cache.js';
import type { Config } from '../config.js';
import { replyCached } from '../cache/cached-reply.js';
import { replyCachedText } from '../cache/cached-text.js';
import { errorResponses, NotModified, SlugParam, StringEnum, Uuid } from '../http/schemas.js';
import { ENTRY_VIEWS } from '../projects/public-view.js';
import type { ChangelogService, ListView } from './changelog.service.js';
import { EntryResponse, ListResponse, Project, ReleaseListResponse, ReleaseNote, ReleaseResponse, TagParam } from './changelog.schemas.js';
import { CHANGELOG_MD_RELEASES, type ReleasesService } from './releases.service.js';

/** Far beyond any real changelog; keeps absurd offsets out of SQL. */
const MAX_OFFSET = 10_000_000;

const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, in decimal digits (`1e1` or `0x10` is a 400).' })),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_OFFSET,
      default: 0,
      description: 'Number of entries to skip (counted from `cursor` when one is given), in decimal digits.',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Addition: continue after the page that returned this `meta.next_cursor`. Stays fast at any depth, and ' +
        'does not skip or repeat entries when new ones are published between pages.',
    }),
  ),
});

/**
 * The views a listing of entries may be asked for: the public page's entry views (`/c/{slug}?view=`;
 * `releases` lists release notes, at `/v1/changelog/{slug}/releases`), and the project's default.
 */
const LIST_VIEWS = ['default', ...ENTRY_VIEWS] as const satisfies readonly ListView[];

const EntryListQuery = Type.Object({
  ...ListQuery.properties,
  view: Type.Optional(
    // A plain enum: anything else is a 400 naming the allowed values, before any work or cache lookup.
    StringEnum(LIST_VIEWS, {
      description:
        'Addition: one view of the changelog, as on the public page, instead of every entry type interleaved (where one change ' +
        'shows as its commit entry, in its week and in its month). `weekly`, `monthly`, `daily` or `commit` lists the entries ' +
        'of that `entry_type` only; `all` lists every type; `default` lists the entry view the project shows by default (its ' +
        "managers' choice, else the first of weekly, monthly, daily and commit it has published entries of), named in " +
        '`meta.view`, and names the view the public page opens on in `meta.default_view` (`releases` when the project has ' +
        'published release notes and its managers chose nothing else). `releases` is not an entry view: release notes are ' +
        'listed by `GET /v1/changelog/{slug}/releases`. With a view, `meta.total` counts that view. Without this parameter ' +
        'the response is as it always was.',
    }),
  ),
});

const EXTENSION_NOTE =
  " **Extension outside the API contract** (marked `x-extension`): release notes are not entries, and the contract's " + '`entry_type` enum is unchanged.';

/** Public, cacheable reads. Only published entries (and published release notes) are ever returned. */
export const changelogRoutes: FastifyPluginAsyncTypebox<{
  services: { changelog: ChangelogService; releases: ReleasesService };
  config: Config;
  cache: ResponseCache;
}> = async (app, { services, config, cache }) => {
  app.addSchema(Project);
  app.addSchema(ReleaseNote);
  const cacheControl = `public, max-age=${config.publicCacheMaxAge}`;

  app.get(
    '/v1/changelog/:slug',
    {
      schema: {
        summary: 'A page of the published changelog of a project',
        description:
          'Public. Sends `ETag` and `Cache-Control`; answers `If-None-Match` with 304. Unknown query parameters are ignored. ' +
          "Addition: `view` lists one kind of entry (`view=default`: what the project's public page shows first), as the " +
          '`<changelog-feed>` widget does.',
        tags: ['changelog'],
        params: Type.Object({ slug: SlugParam }),
        querystring: EntryListQuery,
        response: { 200: ListResponse, 304: NotModified, ...errorResponses(400, 404, 500) },
      },
      config: { publicCache: true },
    },
    async (request, reply) => {
      const { slug } = request.params;
      const { limit = 20, offset = 0, cursor, view } = request.query;
      reply.header('cache-control', cacheControl);
      // The view as asked is in the key (`default`, not what it stands for): a change of the project's
      // default or of what it has published drops the project's cached answers (projects_notify, 0022).
      return replyCached(reply, cache, `list:${slug}:${limit}:${offset}:${cursor ?? ''}:${view ?? ''}`, async () => {
        const page = await services.changelog.pageJson(slug, {
          limit,
          offset,
          ...(cursor !== undefined ? { cursor } : {}),
          ...(view !== undefined ? { view } : {}),
        });
        return { serialized: page.body, etag: page.etag, tags: [projectTag(page.projectId)] };
      });
    },
  );

  app.get(
    '/v1/changelog/:slug/entries/:id',
    {
      schema: {
        summary: 'One published entry of a project',
        description: 'Public. Drafts, archived entries and entries of other projects are 404.',
        tags: ['changelog'],
        params: Type.Object({ slug: SlugParam, id: Uuid }),
        response: { 200: EntryResponse, 304: NotModified, ...errorResponses(400, 404, 500) },
      },
      config: { publicCache: true },
    },
    async (request, reply) => {
      const { slug } = request.params;
      const id = request.params.id.toLowerCase();
      reply.header('cache-control', cacheControl);
      return replyCached(reply, cache, `entry:${slug}:${id}`, async () => {
        const entry = await services.changelog.entryJson(slug, id);
        return { serialized: entry.body, etag: entry.etag, tags: [projectTag(entry.projectId)] };
      });
    },
  );
  app.get(
    '/v1/changelog/:slug/releases',
    {
      schema: {
        summary: 'A page of the published release notes of a project',
        description:
          'Public. One note per release tag (per package: `v1.2.0`, `pkg@2.0.0` are separate series) with what changed since the ' +
          'previous tag of its series, and an Unreleased note (`tag: null`) for what no root release contains yet. Newest ' +
          '`released_at` first, Unreleased on top; paginated like `GET /v1/changelog/{slug}` (`limit`, `offset`, `cursor`). ' +
          'Sends `ETag` and `Cache-Control`; answers `If-None-Match` with 304.' +
          EXTENSION_NOTE,
        tags: ['releases'],
        params: Type.Object({ slug: SlugParam }),
        querystring: ListQuery,
        response: { 200: ReleaseListResponse, 304: NotModified, ...errorResponses(400, 404, 500) },
      },
      config: { publicCache: true },
    },
    async (request, reply) => {
      const { slug } = request.params;
      const { limit = 20, offset = 0, cursor } = request.query;
      reply.header('cache-control', cacheControl);
      return replyCached(reply, cache, `releases:${slug}:${limit}:${offset}:${cursor ?? ''}`, async () => {
        const page = await services.releases.page(slug, { limit, offset, cursor });
        return { payload: { project: page.project, releases: page.releases, meta: page.meta }, tags: [projectTag(page.project.id)] };
      });
    },
  );

  app.get(
    '/v1/changelog/:slug/releases/:tag',
    {
      schema: {
        summary: 'One published release note of a project, by tag',
        description:
          'Public. The tag is URL-encoded; `unreleased` is the Unreleased note. Drafts, archived notes, unknown tags and tags of ' +
          'other projects are 404.' +
          EXTENSION_NOTE,
        tags: ['releases'],
        params: Type.Object({ slug: SlugParam, tag: TagParam }),
        response: { 200: ReleaseResponse, 304: NotModified, ...errorResponses(400, 404, 500) },
      },
      config: { publicCache: true },
    },
    async (request, reply) => {
      const { slug, tag } = request.params;
      reply.header('cache-control', cacheControl);
      return replyCached(reply, cache, `release:${slug}:${tag}`, async () => {
        const { project, release } = await services.releases.release(slug, tag);
        return { payload: { release }, tags: [projectTag(project.id)] };
      });
    },
  );

  app.get(
    '/v1/changelog/:slug/changelog.md',
    {
      schema: {
        summary: "A project's published release notes as a CHANGELOG.md (Keep a Changelog)",
        description:
          'Public. The published release notes in the Keep a Changelog 1.1.0 layout: `# Changelog`, `## [Unreleased]` when the ' +
          "project published its Unreleased note, then `## [1.2.3] - YYYY-MM-DD` per release, newest first (a package's " +
          "series by tag: `## [pkg@2.0.0]`), an editor's introduction under its heading, and the sections as `### Added` " +
          '(features), `### Changed` (performance, refactoring, dependencies), `### Deprecated`, `### Fixed`, `### Security`; ' +
          'breaking changes lead under their own label and sections with no Keep a Changelog equivalent keep theirs. ' +
          `At most the ${CHANGELOG_MD_RELEASES} newest releases; a closing line counts the older ones and links the public ` +
          "release page. Link references (GitHub compare views) close the document when the project's pull-request URL names a " +
          'GitHub repository. Only published notes, as published: drafts and pending revisions never appear. Sends `ETag`, ' +
          '`Last-Modified` and `Cache-Control`; answers `If-None-Match` or `If-Modified-Since` with 304.' +
          EXTENSION_NOTE,
        tags: ['releases'],
        params: Type.Object({ slug: SlugParam }),
        response: {
          200: { description: 'The CHANGELOG.md document.', content: { 'text/markdown': { schema: { type: 'string' } } } },
          304: NotModified,
          ...errorResponses(400, 404, 500),
        },
      },
      config: { publicCache: true },
    },
    async (request, reply) => {
      const { slug } = request.params;
      reply.header('cache-control', cacheControl);
      return replyCachedText(request, reply, cache, `changelog-md:${slug}`, 'text/markdown; charset=utf-8', async () => {
        const doc = await services.releases.document(slug, 'keep-a-changelog', {
          limit: CHANGELOG_MD_RELEASES,
          olderUrl: `${config.publicUrl}/c/${slug}/releases`,
        });
        return { body: doc.body, tags: [projectTag(doc.project.id)], lastModified: doc.project.published_changed_at };
      });
    },
  );
};
