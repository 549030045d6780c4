import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicPageCsp } from '../changelog/page/public-page.routes.js';
import { releasePage } from '../changelog/page/views.js';
import type { ProjectRow } from '../db/schema.js';
import { EDIT_ACTIONS, type ReleaseEdit } from '../entries/release-edits.js';
import { AppError } from '../errors.js';
import { html } from '../html/html.js';
import type { Workspace } from './access.js';
import type { Kit } from './kit.js';
import { releaseEditorPage, releaseEditorUrl } from './views/release-editor.js';

// Generous lengths: the service's limits (release-edits.ts EDIT_LIMITS) are reported after the access
// check, with the editor page, so a caller who may not see the project never learns more than that.
const Params = Type.Object({ slug: Type.String({ maxLength: 100 }), tag: Type.String({ minLength: 1, maxLength: 300 }) });
const Text = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const EditForm = Type.Object({
  _csrf: Type.Optional(Type.String()),
  action: Type.String({ maxLength: 40 }),
  key: Text(100),
  text: Text(100_000),
  section: Text(200),
  introduction: Text(200_000),
});
// `version`: the note as the editor saw it (entries.service.ts releaseVersion); a publish of anything else is refused.
const StatusForm = Type.Object({ _csrf: Type.Optional(Type.String()), action: Type.String({ maxLength: 40 }), version: Text(100) });
// The page of items (views/release-editor.ts EDITOR_PAGE_ITEMS a page), decimal; past the last one shows the last.
const PageParam = Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$' }));
const EditorQuery = Type.Object({ done: Text(40), page: PageParam });
const EditQuery = Type.Object({ page: PageParam });

const DONE: Record<string, string> = {
  edit: 'Saved. Readers see it once the note is published.',
  editPublished: 'Saved. Readers see the published version until you publish the changes.',
  publish: 'Published: readers see this note as shown.',
  unpublish: 'Unpublished: readers no longer see this note.',
  reset: 'Your edits were dropped; the generated content is back.',
  'summary-accept': 'The summary is in the note, marked machine-written. Readers see it once you publish.',
  'summary-dismiss': 'The summary was dismissed; nothing of it is used.',
};

/** The edit a form asks for, or a 400 naming what is missing. */
function editOf(body: {
  action: string;
  key?: string | undefined;
  text?: string | undefined;
  section?: string | undefined;
  introduction?: string | undefined;
}): ReleaseEdit {
  const action = (EDIT_ACTIONS as readonly string[]).includes(body.action) ? (body.action as (typeof EDIT_ACTIONS)[number]) : undefined;
  if (!action) throw new AppError('invalid_request', `Unknown action; one of ${EDIT_ACTIONS.join(', ')}`);
  if (action === 'introduction') return { action, text: body.introduction ?? '' };
  if (action === 'reviewed-all') return { action };
  const key = body.key ?? '';
  if (!key) throw new AppError('invalid_request', 'Name the item to edit', [{ parameter: 'key', message: 'is required' }]);
  if (action === 'text') return { action, key, text: body.text ?? '' };
  if (action === 'move') {
    if (!body.section) throw new AppError('invalid_request', 'Choose the section to move the item to', [{ parameter: 'section', message: 'is required' }]);
    return { action, key, section: body.section };
  }
  return { action, key };
}

/**
 * The release editor: one release note per page (`/dashboard/projects/SLUG/releases/TAG`, the tag
 * URL-encoded as on the public page, `unreleased` for the Unreleased note), its items edited, hidden,
 * moved, reordered and chosen as headlines, an introduction, a preview exactly as the public page will
 * show it, publish and unpublish. Only people who may manage the project (the Releases screen's rule).
 */
export const releaseEditorPages: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access, config } = kit;

  async function page(
    request: FastifyRequest,
    reply: FastifyReply,
    project: ProjectRow,
    ws: Workspace,
    tag: string,
    error?: AppError,
    done?: string,
    at?: string,
  ) {
    const view = await services.entries.releaseEditor(project.id, tag);
    const name = view.note.tag ?? 'Unreleased';
    const notice = done && DONE[done] ? { kind: 'ok' as const, text: DONE[done] } : undefined;
    return kit.render(
      request,
      reply,
      `${name} · Releases · ${project.name}`,
      html`<div class="crumbs">
          <a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> / <a href="/dashboard/projects/${project.slug}">${project.name}</a> /
          <a href="/dashboard/projects/${project.slug}/releases">Releases</a> /
        </div>
        <h1>${name}</h1>
        <p class="subtitle">
          ${view.note.version ? `Version ${view.note.version}` : 'Not released yet'}${view.note.previous_tag ? ` · changes since ${view.note.previous_tag}` : ''}${
            view.note.package ? ` · package ${view.note.package}` : ''
          }
        </p>
        ${releaseEditorPage({ slug: project.slug, csrf: kit.csrf(request), view, error, page: at ? Number(at) : 1 })}`,
      { status: error ? error.status : 200, ...(notice ? { notice } : {}) },
    );
  }

  app.get('/dashboard/projects/:slug/releases/:tag', { schema: { hide: true, params: Params, querystring: EditorQuery } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    return page(request, reply, project, ws, request.params.tag, undefined, request.query.done, request.query.page);
  });

  // The note as the public page will show it once published: the public page's own view and Markdown
  // rendering of a release note, under the public page's content policy (no script).
  app.get('/dashboard/projects/:slug/releases/:tag/preview', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const { project } = await access.project(kit.user(request), request.params.slug, true);
    const note = await services.entries.releasePreview(project.id, request.params.tag);
    const publicProject = await services.publicPage.requireProject(project.slug);
    const [content, title] = await Promise.all([services.markdown.render([note.content]), services.markdown.render([note.title], { inline: true })]);
    const body = releasePage(
      config.publicUrl,
      publicProject,
      { ...note, published_at: note.published_at ?? new Date(), sort_key: '' },
      content.html[0]!,
      title.html[0]!,
    );
    return reply.header('content-security-policy', publicPageCsp(publicProject, "'none'")).type('text/html; charset=utf-8').send(body);
  });

  app.post(
    '/dashboard/projects/:slug/releases/:tag/edit',
    { schema: { hide: true, params: Params, querystring: EditQuery, body: EditForm } },
    async (request, reply) => {
      // Access first: the item keys and sections are then checked against this note by the service.
      const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
      const { tag } = request.params;
      const note = await services.entries.release(project.id, tag);
      try {
        await services.entries.editRelease(project.id, tag, editOf(request.body), kit.user(request).id);
      } catch (error) {
        if (!(error instanceof AppError) || !['invalid_request', 'not_found', 'conflict'].includes(error.code)) throw error;
        return page(request, reply, project, ws, tag, error, undefined, request.query.page);
      }
      const anchor = request.body.key ? `#item-${request.body.key.replace(/[^\w-]/g, '_')}` : request.body.action === 'introduction' ? '#intro-h' : '';
      const at = request.query.page ? `&page=${request.query.page}` : '';
      return reply.redirect(`${releaseEditorUrl(project.slug, note.tag)}?done=${note.status === 'published' ? 'editPublished' : 'edit'}${at}${anchor}`, 303);
    },
  );

  app.post('/dashboard/projects/:slug/releases/:tag/status', { schema: { hide: true, params: Params, body: StatusForm } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    const { tag } = request.params;
    const note = await services.entries.release(project.id, tag);
    const { action } = request.body;
    // Through the transitions that own publication: a waiting revision (the edits) is published with the note.
    if (action === 'publish') {
      try {
        await services.entries.publishRelease(project.slug, tag, request.body.version);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'conflict') throw error;
        return page(request, reply, project, ws, tag, error);
      }
    } else if (action === 'unpublish') await services.entries.unpublishRelease(project.slug, tag);
    else if (action === 'reset') await services.entries.resetReleaseEdits(project.id, tag);
    else if (action === 'summary-accept' || action === 'summary-dismiss') {
      try {
        if (action === 'summary-accept') await services.entries.acceptReleaseSummary(project.id, tag, kit.user(request).id);
        else await services.entries.dismissReleaseSummary(project.id, tag, kit.user(request).id);
      } catch (error) {
        if (!(error instanceof AppError) || !['conflict', 'not_found'].includes(error.code)) throw error;
        return page(request, reply, project, ws, tag, error);
      }
    } else
      return page(
        request,
        reply,
        project,
        ws,
        tag,
        new AppError('invalid_request', 'Unknown action; one of publish, unpublish, reset, summary-accept, summary-dismiss'),
      );
    return reply.redirect(`${releaseEditorUrl(project.slug, note.tag)}?done=${action}`, 303);
  });
};
