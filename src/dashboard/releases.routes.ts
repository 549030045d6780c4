import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProjectRow } from '../db/schema.js';
import { RELEASE_ACTIONS, type ReleaseAction, type ReleaseSelection } from '../entries/entries.service.js';
import { parseReleaseFilter } from '../entries/release-filter.js';
import { AppError } from '../errors.js';
import { html } from '../html/html.js';
import type { Workspace } from './access.js';
import { filteredPage, pageLimit, type ListingInput, type Kit } from './kit.js';
import { projectPageHead } from './views/layout.js';
import { releasesPage, releasesUrl, type RawReleaseFilter } from './views/releases.js';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100 }) });
// Generous lengths: a wrong value is reported after the access check, so a caller who may not see
// the project never learns more than that.
const Text = (max = 250) => Type.Optional(Type.String({ maxLength: max }));
const FilterFields = { status: Text(), package: Text(), prerelease: Text() };
const ReleasesQuery = Type.Object({ ...FilterFields, after: Text(), limit: Text(), done: Text(), changed: Text(), unchanged: Text() });
const Ids = Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 5000 })]));
const BulkForm = Type.Object({
  _csrf: Type.Optional(Type.String()),
  action: Type.String({ maxLength: 100 }),
  ids: Ids,
  scope: Text(),
  expected: Text(),
  after: Text(),
  ...FilterFields,
});

const DONE: Record<string, string> = { publish: 'Published', unpublish: 'Unpublished' };

function rawFilter(input: Partial<Record<keyof RawReleaseFilter, string | undefined>>): RawReleaseFilter {
  const t = (v: string | undefined) => {
    const s = (v ?? '').trim();
    return s === 'all' || s === 'any' ? '' : s;
  };
  return { status: t(input.status), package: t(input.package), prerelease: t(input.prerelease) };
}

/**
 * A project's release notes: every note newest first, filtered by status, package and pre-release,
 * paged by keyset, with bulk publish and unpublish of ticked notes or of all a filter matches, and
 * one action that publishes the whole history of releases. Only people who may manage the project
 * (the editorial actions' rule) see it or act on it.
 */
export const releasesPages: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access } = kit;

  async function page(request: FastifyRequest, reply: FastifyReply, { project, ws }: { project: ProjectRow; ws: Workspace }, input: ListingInput<RawReleaseFilter>) {
    const { filter, listing, after, error } = await filteredPage(input, () => parseReleaseFilter(input.raw), (filter, page) =>
      services.entries.releases(project.id, filter, page),
    );
    const [counts, history, packages] = await Promise.all([
      services.entries.releaseCounts(project.id, filter),
      services.entries.releaseCounts(project.id, { tagged: true, status: 'draft' }),
      services.entries.releasePackages(project.id),
    ]);
    return kit.render(
      request,
      reply,
      `Releases · ${project.name}`,
      html`${projectPageHead(
        ws,
        project,
        'Releases',
        html`<a href="/dashboard/projects/${project.slug}/review">Review queue</a> · <a href="/dashboard/projects/${project.slug}/generation">Generation settings</a> · <a href="/c/${project.slug}?view=releases">Public page</a>`,
      )}
${releasesPage({
  slug: project.slug,
  csrf: kit.csrf(request),
  raw: input.raw,
  releases: listing.releases,
  counts,
  historyDrafts: history.total,
  packages,
  next: listing.next,
  after,
  limit: input.limit,
  error,
})}`,
      { status: error ? error.status : 200, ...(input.notice ? { notice: input.notice } : {}) },
    );
  }

  app.get('/dashboard/projects/:slug/releases', { schema: { hide: true, params: SlugParams, querystring: ReleasesQuery } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    const q = request.query;
    const changed = Number(q.changed) || 0;
    const notice =
      q.done && DONE[q.done]
        ? {
            kind: 'ok' as const,
            text: `${DONE[q.done]} ${changed} release ${changed === 1 ? 'note' : 'notes'}${Number(q.unchanged) ? `; ${Number(q.unchanged)} left as they were` : ''}.`,
          }
        : undefined;
    return page(request, reply, { project, ws }, { raw: rawFilter(q), after: q.after ?? '', limit: pageLimit(q.limit, 100, 50), ...(notice ? { notice } : {}) });
  });

  app.post('/dashboard/projects/:slug/releases/bulk', { schema: { hide: true, params: SlugParams, body: BulkForm } }, async (request, reply) => {
    // Access first, for every action: the ids are then checked against this project by the service.
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    const body = request.body;
    const raw = rawFilter(body);
    const back = { raw, after: body.after ?? '', limit: 50 };
    try {
      const action = (RELEASE_ACTIONS as readonly string[]).includes(body.action) ? (body.action as ReleaseAction) : undefined;
      if (!action) throw new AppError('invalid_request', `Unknown action; one of ${RELEASE_ACTIONS.join(', ')}`);
      // Up to BULK_LIMIT notes a time, each an event for every webhook endpoint: the tenant's bulk budget.
      await app.limitTenantAction(request, reply, 'bulk', project);
      const expected = Number(body.expected);
      const confirmed = body.expected !== undefined && Number.isInteger(expected) && expected >= 0 ? { expected } : {};
      let selection: ReleaseSelection;
      if (body.scope === 'history') {
        if (action !== 'publish') throw new AppError('invalid_request', 'The whole history can only be published');
        selection = { filter: { tagged: true, status: 'draft' }, ...confirmed };
      } else if (body.scope === 'matching') {
        selection = { filter: parseReleaseFilter(raw), ...confirmed };
      } else {
        const ids = body.ids === undefined ? [] : Array.isArray(body.ids) ? body.ids : [body.ids];
        if (!ids.length) throw new AppError('invalid_request', 'Select release notes first, or tick "all matching this filter"');
        selection = { ids };
      }
      const { changed, unchanged } = await services.entries.bulkReleaseStatus(project.id, action, selection);
      return reply.redirect(releasesUrl(project.slug, raw, { after: back.after, done: action, changed: String(changed), unchanged: String(unchanged) }), 303);
    } catch (error) {
      if (!(error instanceof AppError) || !['invalid_request', 'not_found', 'conflict'].includes(error.code)) throw error;
      return page(request, reply, { project, ws }, { ...back, error });
    }
  });
};
