import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProjectRow } from '../db/schema.js';
import { BULK_STATUS_ACTIONS, type BulkStatusAction, type Selection } from '../entries/entries.service.js';
import { parseReviewFilter } from '../entries/review-filter.js';
import { AppError } from '../errors.js';
import { html } from '../html/html.js';
import type { Workspace } from './access.js';
import { filteredPage, pageLimit, type ListingInput, type Kit } from './kit.js';
import { projectPageHead } from './views/layout.js';
import { reviewPage, reviewUrl, type RawFilter } from './views/review.js';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100 }) });
// Lengths generous enough that only absurd input fails here: a value that is wrong is reported
// after the access check, so a caller who may not see the project never learns more than that.
const Text = (max = 100) => Type.Optional(Type.String({ maxLength: max }));
const FilterFields = { status: Text(), type: Text(), section: Text(), since: Text(), until: Text(), pending: Text() };
const ReviewQuery = Type.Object({
  ...FilterFields,
  after: Text(),
  limit: Text(),
  notice: Text(),
  // A bulk action's outcome, shown after its redirect.
  done: Text(),
  changed: Text(),
  unchanged: Text(),
  stale: Text(),
});
const Ids = Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 5000 })]));
const BulkForm = Type.Object({
  _csrf: Type.Optional(Type.String()),
  action: Type.String({ maxLength: 100 }),
  ids: Ids,
  // `id@version` of every row the page showed (entryVersion): a publish leaves rows changed since.
  seen: Ids,
  scope: Text(),
  expected: Text(),
  after: Text(),
  ...FilterFields,
});

const ACTIONS = [...BULK_STATUS_ACTIONS, 'regenerate'] as const;
const DONE: Record<string, string> = { publish: 'Published', archive: 'Archived', unpublish: 'Unpublished', regenerate: 'Regenerated' };

/** The filter as typed: "all"/"any" and absent are the same (no filter), but an absent status means drafts. */
function rawFilter(input: Partial<Record<keyof RawFilter, string | undefined>>): RawFilter {
  const t = (v: string | undefined) => {
    const s = (v ?? '').trim();
    return s === 'all' || s === 'any' ? '' : s;
  };
  const status = (input.status ?? '').trim();
  return {
    status: status === 'any' ? 'all' : status || 'draft',
    type: t(input.type),
    section: t(input.section),
    since: t(input.since),
    until: t(input.until),
    pending: t(input.pending) ? '1' : '',
  };
}

/** Rows a page of the queue shows: at most a few screens. */
const MAX_PAGE_ROWS = 50;

/**
 * The review queue: a project's entries newest first by their own date, filtered, counted and
 * paged by keyset, with bulk publish, archive and regenerate of ticked entries or of everything a
 * filter matches. Only people who may manage the project see it or act on it.
 */
export const reviewPages: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access } = kit;

  async function page(request: FastifyRequest, reply: FastifyReply, { project, ws }: { project: ProjectRow; ws: Workspace }, input: ListingInput<RawFilter>) {
    const { filter, listing, after, error } = await filteredPage(input, () => parseReviewFilter(input.raw), (filter, page) =>
      services.entries.review(project.id, filter, page),
    );
    const counts = await services.entries.reviewCounts(project.id, filter);
    const waiting = listing.entries.filter((e) => e.revision).map((e) => e.id);
    const revisions = new Map((await services.entries.revisions(project.id, waiting)).map((r) => [r.id, r]));
    const titles = (await services.markdown.render(listing.entries.map((e) => e.title ?? '(untitled)'), { inline: true })).html;
    return kit.render(
      request,
      reply,
      `Review queue · ${project.name}`,
      html`${projectPageHead(
        ws,
        project,
        'Review queue',
        html`<a href="/dashboard/projects/${project.slug}/releases">Releases</a> · <a href="/dashboard/projects/${project.slug}/generation">Generation settings</a>`,
      )}
${reviewPage({ slug: project.slug, csrf: kit.csrf(request), raw: input.raw, entries: listing.entries, revisions, titles, counts, next: listing.next, after, limit: input.limit, error })}`,
      { status: error ? error.status : 200, ...(input.notice ? { notice: input.notice } : {}) },
    );
  }

  app.get('/dashboard/projects/:slug/review', { schema: { hide: true, params: SlugParams, querystring: ReviewQuery } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    const q = request.query;
    const notice =
      q.done && DONE[q.done]
        ? {
            kind: Number(q.stale) ? ('warn' as const) : ('ok' as const),
            text: `${DONE[q.done]} ${Number(q.changed) || 0} ${Number(q.changed) === 1 ? 'entry' : 'entries'}${
              Number(q.unchanged) ? `; ${Number(q.unchanged)} left as they were` : ''
            }${Number(q.stale) ? `, ${Number(q.stale)} of them because ${Number(q.stale) === 1 ? 'it' : 'they'} changed since this page showed ${Number(q.stale) === 1 ? 'it' : 'them'}: review again` : ''}.`,
          }
        : undefined;
    return page(request, reply, { project, ws }, { raw: rawFilter(q), after: q.after ?? '', limit: pageLimit(q.limit, MAX_PAGE_ROWS), ...(notice ? { notice } : {}) });
  });

  app.post('/dashboard/projects/:slug/review/bulk', { schema: { hide: true, params: SlugParams, body: BulkForm } }, async (request, reply) => {
    // Access first, for every action: the ids are then checked against this project by the service.
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    const body = request.body;
    const raw = rawFilter(body);
    const back = { raw, after: body.after ?? '', limit: 50 };
    try {
      const action = (ACTIONS as readonly string[]).includes(body.action) ? (body.action as (typeof ACTIONS)[number]) : undefined;
      if (!action) throw new AppError('invalid_request', `Unknown action; one of ${ACTIONS.join(', ')}`);
      // Up to BULK_LIMIT entries a time: a generation, or an event per entry for every webhook endpoint.
      await app.limitTenantAction(request, reply, action === 'regenerate' ? 'regenerate' : 'bulk', project);
      let selection: Selection;
      if (body.scope === 'matching') {
        const expected = Number(body.expected);
        selection = { filter: parseReviewFilter(raw), ...(Number.isInteger(expected) && expected >= 0 ? { expected } : {}) };
      } else {
        const ids = body.ids === undefined ? [] : Array.isArray(body.ids) ? body.ids : [body.ids];
        if (!ids.length) throw new AppError('invalid_request', 'Select entries first, or tick "all matching this filter"');
        const shown = body.seen === undefined ? [] : Array.isArray(body.seen) ? body.seen : [body.seen];
        const seen = new Map(shown.map((pair) => pair.split('@')).filter((p): p is [string, string] => p.length === 2).map(([id, version]) => [id.toLowerCase(), version]));
        selection = { ids, seen };
      }
      let changed: number;
      let unchanged: number;
      let stale = 0;
      if (action === 'regenerate') {
        const result = await services.generation.regenerateMany(project.id, selection);
        changed = result.selected - result.skipped;
        unchanged = result.skipped;
      } else {
        ({ changed, unchanged, stale } = await services.entries.bulkStatus(project.id, action as BulkStatusAction, selection));
      }
      return reply.redirect(
        reviewUrl(project.slug, raw, { after: back.after, done: action, changed: String(changed), unchanged: String(unchanged), ...(stale ? { stale: String(stale) } : {}) }),
        303,
      );
    } catch (error) {
      if (!(error instanceof AppError) || !['invalid_request', 'not_found', 'conflict'].includes(error.code)) throw error;
      return page(request, reply, { project, ws }, { ...back, error });
    }
  });
};
