import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntryRow, ProjectRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { Workspace } from './access.js';
import type { Kit } from './kit.js';
import { html } from '../html/html.js';
import { csrfField, field, formErrors, when } from './views/layout.js';
import { reposPanel, type ReposPanel } from './views/repos.js';
import { revisionDiff } from './views/review.js';
import { AVAILABLE_VIEWS, VIEW_LABELS } from '../projects/public-view.js';
import { entryVersion } from '../entries/entries.service.js';

const Form = Type.Object({ _csrf: Type.Optional(Type.String()) });
const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100 }) });
const EntryParams = Type.Object({ id: Type.String({ maxLength: 40 }) });
const LinkParams = Type.Object({ slug: Type.String({ maxLength: 100 }), id: Type.String({ maxLength: 40 }) });
/** Errors of the repository forms that are the user's to fix (shown on the page with their status). */
const REPO_FORM_ERRORS = new Set(['invalid_request', 'unprocessable', 'conflict']);
const Notice = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });

/** Entries a page of the project page shows, newest first by date: a few screens (200 rows were 18,667 px). */
const PROJECT_PAGE_ENTRIES = 50;
/** Far beyond any project's history; keeps absurd offsets out of SQL. */
const MAX_ENTRIES_PAGE = 10_000;
const ProjectQuery = Type.Object({
  ...Notice.properties,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ENTRIES_PAGE })),
});

const STATUS_ACTIONS = { published: 'Publish', draft: 'Unpublish', archived: 'Archive' } as const;


/** A form's comma-separated release-branch patterns (the service checks each). */
const patternList = (value: string) => value.split(',').map((p) => p.trim()).filter(Boolean);

export const projectsPages: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access } = kit;

  /** `seen`: on the entry's own page, what it shows (entryVersion), so that a publish publishes only that. */
  const statusButtons = (entry: EntryRow, csrf: string, small = true, seen?: string) =>
    (Object.keys(STATUS_ACTIONS) as (keyof typeof STATUS_ACTIONS)[])
      .filter((s) => s !== entry.status)
      .map(
        (s) => html`<form class="inline" method="post" action="/dashboard/entries/${entry.id}/status">${csrfField({ csrf })}<input type="hidden" name="status" value="${s}">${
          small ? '' : html`<input type="hidden" name="back" value="entry">`
        }${s === 'published' && seen ? html`<input type="hidden" name="seen" value="${seen}">` : ''}<button class="${small ? 'small ' : ''}${s === 'published' ? '' : 'secondary'}" type="submit">${STATUS_ACTIONS[s]}</button></form>`,
      );

  async function projectPage(
    request: FastifyRequest,
    reply: FastifyReply,
    project: ProjectRow,
    ws: Workspace,
    error?: AppError,
    values?: { name: string; slug: string },
    theme?: { error?: AppError; color: string; logoUrl: string; publicView?: string },
    repoError?: ReposPanel['error'],
  ) {
    const csrf = kit.csrf(request);
    // The page of entries comes from the address (a form's answer re-renders the first).
    const entriesPage = request.method === 'GET' ? ((request.query as { page?: number }).page ?? 1) : 1;
    const listed = await services.entries.listForProject(project.id, PROJECT_PAGE_ENTRIES + 1, (entriesPage - 1) * PROJECT_PAGE_ENTRIES);
    const entries = listed.slice(0, PROJECT_PAGE_ENTRIES);
    const moreEntries = listed.length > PROJECT_PAGE_ENTRIES;
    const titles = (await services.markdown.render(entries.map((e) => e.title ?? '(untitled)'), { inline: true })).html;
    const entriesAt = (n: number) => `/dashboard/projects/${project.slug}${n > 1 ? `?page=${n}` : ''}#entries-h`;
    const links = await services.repos.listLinksOfProject(project.id);
    const commits = await services.repos.commitCountsByLink(project.id);
    const generating = links.length > 0 && (await services.repos.generationPending(project.id));
    const publishing = new Map(await Promise.all(links.filter((l) => l.kind === 'github').map(async (l) => [l.id, await services.publishing.linkPublishing(l.id)] as const)));
    return kit.render(
      request,
      reply,
      project.name,
      html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> /</div>
<h1>${project.name}</h1>
<p class="subtitle"><code>${project.slug}</code> · public page <a href="/c/${project.slug}">/c/${project.slug}</a> · API <a href="/v1/changelog/${project.slug}">/v1/changelog/${project.slug}</a> · feed <a href="/v1/changelog/${project.slug}/feed.atom">Atom</a>${
  ws.canManage
    ? html` · <a href="/dashboard/projects/${project.slug}/review">Review queue</a> · <a href="/dashboard/projects/${project.slug}/releases">Releases</a> · <a href="/dashboard/projects/${project.slug}/generation">Generation settings</a> · <a href="/dashboard/projects/${project.slug}/webhooks">Webhooks</a>`
    : ''
}</p>
${reposPanel({ slug: project.slug, links, commits, generating, canManage: ws.canManage, csrf, pathsAllowed: kit.config.repoLinks.pathsAllowed, localPaths: access.linkGrant(kit.user(request), ws).localPaths, publishing, ...(repoError ? { error: repoError } : {}) })}
<section class="panel" aria-labelledby="entries-h"><h2 id="entries-h">Entries</h2>
${
  entries.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Title</th><th scope="col" class="hide-sm">Type</th><th scope="col">Status</th><th scope="col" class="hide-sm">Date</th><th scope="col">Published</th>${ws.canManage ? html`<th scope="col">Review</th>` : ''}</tr></thead><tbody>
  ${entries.map(
    (e, i) => html`<tr><td>${ws.canManage ? html`<a href="/dashboard/entries/${e.id}">${titles[i]!}</a>` : titles[i]!}</td><td class="hide-sm">${e.entry_type}</td><td><span class="badge ${e.status}">${e.status}</span></td><td class="hide-sm">${when(e.occurred_at)}</td><td>${when(e.published_at)}</td>${
      ws.canManage ? html`<td><div class="actions">${statusButtons(e, csrf)}</div></td>` : ''
    }</tr>`,
  )}
</tbody></table></div>${
  entriesPage > 1 || moreEntries
    ? html`<nav class="pager" aria-label="Pages of entries"><span class="muted">Page ${entriesPage}, ${PROJECT_PAGE_ENTRIES} a page, newest first by date.</span>${
        entriesPage > 1 ? html` <a rel="prev" href="${entriesAt(entriesPage - 1)}">← Newer entries</a>` : ''
      }${moreEntries ? html` <a rel="next" href="${entriesAt(entriesPage + 1)}">Older entries →</a>` : ''}${
        ws.canManage ? html` · The <a href="/dashboard/projects/${project.slug}/review">Review queue</a> filters every entry.` : ''
      }</nav>`
    : ''
}`
    : html`<p class="empty">${entriesPage > 1 ? html`No entries on this page. <a href="${entriesAt(1)}">Newest entries</a>` : 'No entries yet. Entries appear here when they are generated or imported.'}</p>`
}
</section>
${
  ws.canManage
    ? html`<div class="grid"><section class="panel" aria-labelledby="settings-h"><h2 id="settings-h">Settings</h2>
  ${formErrors(error?.message, error?.details, ['name', 'slug'])}
  <form class="stack" method="post" action="/dashboard/projects/${project.slug}">${csrfField({ csrf })}
    ${field({ name: 'name', label: 'Name', value: values?.name ?? project.name, errors: error?.details, required: true })}
    ${field({ name: 'slug', label: 'Slug', value: values?.slug ?? project.slug, errors: error?.details, required: true, hint: 'Changing it changes the public URL; old links stop working.' })}
    <div><button type="submit">Save</button></div>
  </form></section>
<section class="panel" aria-labelledby="theme-h"><h2 id="theme-h">Public page</h2>
  <p>How <a href="/c/${project.slug}">/c/${project.slug}</a> and its feeds look. Leave a field empty for the default.</p>
  ${formErrors(theme?.error?.message, theme?.error?.details, ['theme_color', 'logo_url', 'public_view'])}
  <form class="stack" method="post" action="/dashboard/projects/${project.slug}/theme">${csrfField({ csrf })}
    ${field({ name: 'theme_color', label: 'Accent colour', value: theme?.color ?? project.theme_color ?? '', errors: theme?.error?.details, hint: 'As #rrggbb, e.g. #1f6feb. Text on it is black or white, whichever reads better.', attrs: html` pattern="#[0-9a-fA-F]{6}" maxlength="7"` })}
    ${field({ name: 'logo_url', label: 'Logo URL', value: theme?.logoUrl ?? project.logo_url ?? '', type: 'url', errors: theme?.error?.details, hint: 'An https:// address of an image, shown at the top of the page.', attrs: html` maxlength="2000"` })}
    <div><label for="f-public_view">Shown by default</label><select id="f-public_view" name="public_view" aria-describedby="f-public_view-hint">${[
      ['', 'Automatic'],
      ...AVAILABLE_VIEWS.map((v) => [v, VIEW_LABELS[v]]),
    ].map(([v, label]) => html`<option value="${v!}"${(theme?.publicView ?? project.public_view ?? '') === v ? html` selected` : ''}>${label!}</option>`)}</select>
    <p class="hint" id="f-public_view-hint">One kind of entry at a time; readers can switch views on the page. Automatic: release notes once a tagged release is published, else weekly, monthly, daily or every change, whichever has published entries.</p></div>
    <div><button type="submit">Save public page</button></div>
  </form></section>
<section class="panel danger-zone" aria-labelledby="delete-h"><h2 id="delete-h">Delete project</h2>
  <p>Deletes the project and all its entries; API keys limited to it lose access to it.</p>
  <a class="button secondary" href="/dashboard/projects/${project.slug}/delete">Delete this project…</a>
</section></div>`
    : ''
}`,
      { status: (error ?? theme?.error ?? repoError?.error)?.status ?? 200 },
    );
  }

  /** Runs a repository form's action; an error the user can fix re-renders the page with it (and its status). */
  async function repoAction(
    request: FastifyRequest,
    reply: FastifyReply,
    slug: string,
    action: (project: ProjectRow, ws: Workspace) => Promise<string>,
    context: { linkId?: string; values?: { source?: string; branch?: string; releaseBranches?: string } } = {},
  ) {
    const { project, ws } = await access.project(kit.user(request), slug, true);
    try {
      const notice = await action(project, ws);
      return reply.redirect(`/dashboard/projects/${project.slug}?notice=${notice}`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || !REPO_FORM_ERRORS.has(error.code)) throw error;
      return projectPage(request, reply, project, ws, undefined, undefined, undefined, { error, ...context });
    }
  }

  app.post(
    '/dashboard/projects/:slug/repos',
    {
      schema: {
        hide: true,
        params: SlugParams,
        body: Type.Composite([
          Form,
          Type.Object({ source: Type.String({ maxLength: 4000 }), branch: Type.Optional(Type.String({ maxLength: 1000 })), releaseBranches: Type.Optional(Type.String({ maxLength: 2000 })) }),
        ]),
      },
    },
    async (request, reply) => {
      const source = request.body.source;
      const branch = request.body.branch?.trim() ?? '';
      const releaseBranches = request.body.releaseBranches?.trim() ?? '';
      return repoAction(
        request,
        reply,
        request.params.slug,
        async (project, ws) => {
          // Counted before the checks: refused sources cost a DNS lookup or a git ls-remote too.
          await app.limitTenantAction(request, reply, 'link', project);
          await services.repos.linkFromDashboard(
            project.id,
            { source, ...(branch ? { branch } : {}), ...(releaseBranches ? { releaseBranches: patternList(releaseBranches) } : {}) },
            access.linkGrant(kit.user(request), ws),
          );
          return 'repo-linked';
        },
        { values: { source, branch, releaseBranches } },
      );
    },
  );

  app.post(
    '/dashboard/projects/:slug/repos/:id/sync',
    { schema: { hide: true, params: LinkParams, body: Form } },
    async (request, reply) =>
      repoAction(request, reply, request.params.slug, async (project) => {
        const link = await services.repos.linkOfProject(project.id, request.params.id);
        await app.limitTenantAction(request, reply, 'sync', project);
        await services.repos.syncNow(link.id);
        return 'repo-sync-queued';
      }, { linkId: request.params.id }),
  );

  app.post(
    '/dashboard/projects/:slug/repos/:id/branch',
    { schema: { hide: true, params: LinkParams, body: Type.Composite([Form, Type.Object({ branch: Type.String({ maxLength: 1000 }) })]) } },
    async (request, reply) =>
      repoAction(request, reply, request.params.slug, async (project) => {
        const link = await services.repos.linkOfProject(project.id, request.params.id);
        await app.limitTenantAction(request, reply, 'link', project);
        await services.repos.setBranch(link.id, request.body.branch.trim());
        return 'repo-branch-changed';
      }, { linkId: request.params.id }),
  );

  app.post(
    '/dashboard/projects/:slug/repos/:id/release-branches',
    { schema: { hide: true, params: LinkParams, body: Type.Composite([Form, Type.Object({ releaseBranches: Type.String({ maxLength: 2000 }) })]) } },
    async (request, reply) =>
      repoAction(request, reply, request.params.slug, async (project) => {
        const link = await services.repos.linkOfProject(project.id, request.params.id);
        await app.limitTenantAction(request, reply, 'link', project);
        await services.repos.setReleaseBranches(link.id, patternList(request.body.releaseBranches));
        return 'repo-release-branches-changed';
      }, { linkId: request.params.id }),
  );

  app.post(
    '/dashboard/projects/:slug/repos/:id/github',
    {
      schema: {
        hide: true,
        params: LinkParams,
        body: Type.Composite([
          Form,
          Type.Object({ releases: Type.Optional(Type.Literal('on')), changelogPr: Type.Optional(Type.Literal('on')), prChecks: Type.String({ maxLength: 20 }) }),
        ]),
      },
    },
    async (request, reply) =>
      repoAction(request, reply, request.params.slug, async (project) => {
        await services.publishing.configure(project.id, request.params.id, {
          releases: request.body.releases === 'on',
          prChecks: request.body.prChecks,
          changelogPr: request.body.changelogPr === 'on',
        });
        return 'github-publishing-saved';
      }, { linkId: request.params.id }),
  );

  app.post(
    '/dashboard/projects/:slug/repos/:id/github/retry',
    { schema: { hide: true, params: LinkParams, body: Form } },
    async (request, reply) =>
      repoAction(request, reply, request.params.slug, async (project) => {
        await services.publishing.retryReleases(project.id, request.params.id);
        return 'github-releases-retried';
      }, { linkId: request.params.id }),
  );

  app.post(
    '/dashboard/projects/:slug/repos/:id/unlink',
    { schema: { hide: true, params: LinkParams, body: Type.Composite([Form, Type.Object({ purge: Type.Optional(Type.Literal('on')) })]) } },
    async (request, reply) =>
      repoAction(request, reply, request.params.slug, async (project) => {
        const link = await services.repos.linkOfProject(project.id, request.params.id);
        await services.repos.unlink(link.id, { purge: request.body.purge === 'on' });
        return request.body.purge === 'on' ? 'repo-purged' : 'repo-unlinked';
      }, { linkId: request.params.id }),
  );

  app.get('/dashboard/projects/:slug', { schema: { hide: true, params: SlugParams, querystring: ProjectQuery } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug);
    return projectPage(request, reply, project, ws);
  });

  app.post(
    '/dashboard/projects/:slug',
    { schema: { hide: true, params: SlugParams, body: Type.Composite([Form, Type.Object({ name: Type.String({ maxLength: 300 }), slug: Type.String({ maxLength: 100 }) })]) } },
    async (request, reply) => {
      const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
      const values = { name: request.body.name, slug: request.body.slug.trim() };
      try {
        const updated = await services.projects.update(project.id, values);
        return reply.redirect(`/dashboard/projects/${updated.slug}?notice=project-saved`, 303);
      } catch (error) {
        if (!(error instanceof AppError) || (error.code !== 'invalid_request' && error.code !== 'conflict')) throw error;
        return projectPage(request, reply, project, ws, error, values);
      }
    },
  );

  app.post(
    '/dashboard/projects/:slug/theme',
    {
      schema: {
        hide: true,
        params: SlugParams,
        body: Type.Composite([
          Form,
          Type.Object({ theme_color: Type.String({ maxLength: 100 }), logo_url: Type.String({ maxLength: 4000 }), public_view: Type.Optional(Type.String({ maxLength: 20 })) }),
        ]),
      },
    },
    async (request, reply) => {
      const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
      const values = {
        color: request.body.theme_color,
        logoUrl: request.body.logo_url,
        ...(request.body.public_view !== undefined ? { publicView: request.body.public_view } : {}),
      };
      try {
        await services.projects.updateTheme(project.id, values);
        return reply.redirect(`/dashboard/projects/${project.slug}?notice=theme-saved`, 303);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
        return projectPage(request, reply, project, ws, undefined, undefined, { error, ...values });
      }
    },
  );

  const deletePage = (request: FastifyRequest, reply: FastifyReply, project: ProjectRow, ws: Workspace, wrong = false) =>
    kit.render(
      request,
      reply,
      `Delete ${project.name}`,
      html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> / <a href="/dashboard/projects/${project.slug}">${project.name}</a> /</div>
<section class="panel danger-zone"><h1>Delete ${project.name}?</h1>
<p>This deletes the project, its commits and all its entries, and cannot be undone. API keys limited to selected projects lose access to it.</p>
${wrong ? html`<div class="notice error" role="alert">The slug you typed does not match.</div>` : ''}
<form class="stack" method="post" action="/dashboard/projects/${project.slug}/delete">${csrfField({ csrf: kit.csrf(request) })}
  ${field({ name: 'confirm', label: `Type the slug “${project.slug}” to confirm`, required: true, autocomplete: 'off' })}
  <div class="actions"><button class="danger" type="submit">Delete project</button><a href="/dashboard/projects/${project.slug}">Cancel</a></div>
</form></section>`,
      { status: wrong ? 400 : 200 },
    );

  app.get('/dashboard/projects/:slug/delete', { schema: { hide: true, params: SlugParams } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    return deletePage(request, reply, project, ws);
  });

  app.post(
    '/dashboard/projects/:slug/delete',
    { schema: { hide: true, params: SlugParams, body: Type.Composite([Form, Type.Object({ confirm: Type.String({ maxLength: 100 }) })]) } },
    async (request, reply) => {
      const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
      if (request.body.confirm.trim() !== project.slug) return deletePage(request, reply, project, ws, true);
      await services.projects.delete(project.id);
      return reply.redirect(`${ws.base}?notice=project-deleted`, 303);
    },
  );

  /** The entry and its project, if the user may review it (its project's managers). */
  async function reviewable(request: FastifyRequest, id: string) {
    const { entry, project, ws } = await access.entry(kit.user(request), id, true);
    return { entry, ws, projectSlug: project.slug, projectId: project.id };
  }

  const entryPage = async (request: FastifyRequest, reply: FastifyReply, id: string, draft?: { title: string; content: string }, error?: AppError) => {
    const { entry, ws, projectSlug, projectId } = await reviewable(request, id);
    const csrf = kit.csrf(request);
    const [revision] = await services.entries.revisions(projectId, [entry.id]);
    const seen = entryVersion(entry.updated_at, revision?.fingerprint ?? null);
    const title = draft?.title ?? entry.title ?? '';
    const content = draft?.content ?? entry.content ?? '';
    const [preview] = (await services.markdown.render([content])).html;
    return kit.render(
      request,
      reply,
      `Edit ${entry.title ?? 'entry'}`,
      html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> / <a href="/dashboard/projects/${projectSlug}">${projectSlug}</a> /</div>
<h1>${entry.title ?? '(untitled)'} <span class="badge ${entry.status}">${entry.status}</span></h1>
<p class="subtitle">${entry.entry_type} entry · created ${when(entry.created_at)}${entry.published_at ? html` · published ${when(entry.published_at)}` : ''}</p>
<div class="actions page-actions">${statusButtons(entry, csrf, false, seen)}</div>
${
  revision
    ? html`<section class="panel" aria-labelledby="revision-h"><h2 id="revision-h">New content waiting for review</h2>
  <p class="muted">Generated ${when(revision.proposed_at)} from newer commits. Readers still see the published text below until you publish this revision.</p>
  ${revisionDiff(revision)}
  <div class="actions"><form class="inline" method="post" action="/dashboard/entries/${entry.id}/status">${csrfField({ csrf })}<input type="hidden" name="status" value="published"><input type="hidden" name="back" value="entry"><input type="hidden" name="seen" value="${seen}"><button type="submit">Publish this revision</button></form>
  <form class="inline" method="post" action="/dashboard/entries/${entry.id}/revision/discard">${csrfField({ csrf })}<button class="secondary" type="submit">Discard it, keep what is public</button></form></div>
</section>`
    : ''
}
<div class="grid">
<section class="panel" aria-labelledby="edit-h"><h2 id="edit-h">Edit</h2>
  ${formErrors(error?.message, error?.details, ['title'])}
  <form class="stack" method="post" action="/dashboard/entries/${entry.id}">${csrfField({ csrf })}
    ${field({ name: 'title', label: 'Title', value: title, errors: error?.details })}
    <div><label for="f-content">Content (Markdown)</label><textarea id="f-content" name="content">${content}</textarea></div>
    <div class="actions"><button type="submit" name="intent" value="save">Save</button><button class="secondary" type="submit" name="intent" value="preview">Preview</button></div>
  </form>
</section>
<section class="panel" aria-labelledby="preview-h"><h2 id="preview-h">Preview${draft ? ' (not saved yet)' : ''}</h2>
  <div class="preview">${content.trim() ? preview : html`<p class="empty">No content.</p>`}</div>
</section>
</div>`,
      { status: error ? error.status : 200 },
    );
  };

  app.get('/dashboard/entries/:id', { schema: { hide: true, params: EntryParams, querystring: Notice } }, (request, reply) => entryPage(request, reply, request.params.id));

  app.post(
    '/dashboard/entries/:id',
    {
      schema: {
        hide: true,
        params: EntryParams,
        body: Type.Composite([
          Form,
          Type.Object({
            title: Type.String({ maxLength: 2000 }),
            content: Type.String({ maxLength: 1_000_000 }),
            intent: Type.Optional(Type.Union([Type.Literal('save'), Type.Literal('preview')])),
          }),
        ]),
      },
    },
    async (request, reply) => {
      const draft = { title: request.body.title, content: request.body.content.replace(/\r\n/g, '\n') };
      if (request.body.intent === 'preview') return entryPage(request, reply, request.params.id, draft);
      const { entry } = await reviewable(request, request.params.id);
      try {
        await services.entries.editText(entry.id, draft);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
        return entryPage(request, reply, entry.id, draft, error);
      }
      return reply.redirect(`/dashboard/entries/${entry.id}?notice=entry-saved`, 303);
    },
  );

  app.post(
    '/dashboard/entries/:id/status',
    {
      schema: {
        hide: true,
        params: EntryParams,
        body: Type.Composite([Form, Type.Object({
            status: Type.Union([Type.Literal('published'), Type.Literal('draft'), Type.Literal('archived')]),
            back: Type.Optional(Type.Literal('entry')),
            seen: Type.Optional(Type.String({ maxLength: 100 })),
          })]),
      },
    },
    async (request, reply) => {
      const { entry, projectSlug, projectId } = await reviewable(request, request.params.id);
      const status = request.body.status;
      // Publishing a published entry publishes its pending revision, if one waits.
      if (status === 'published') {
        try {
          await services.entries.publishInProject(projectId, entry.id, request.body.seen);
        } catch (error) {
          if (error instanceof AppError && error.code === 'conflict') return reply.redirect(`/dashboard/entries/${entry.id}?notice=entry-changed`, 303);
          throw error;
        }
      }
      else if (status === 'draft') await services.entries.unpublish(entry.id);
      else await services.entries.archive(entry.id);
      const back = request.body.back === 'entry' ? `/dashboard/entries/${entry.id}` : `/dashboard/projects/${projectSlug}`;
      return reply.redirect(`${back}?notice=entry-${status}`, 303);
    },
  );

  app.post('/dashboard/entries/:id/revision/discard', { schema: { hide: true, params: EntryParams, body: Form } }, async (request, reply) => {
    // Access first: another tenant's entry (or a made-up id) is not found, whatever it holds.
    const { entry, projectId } = await reviewable(request, request.params.id);
    await services.entries.discardRevision(projectId, entry.id);
    return reply.redirect(`/dashboard/entries/${entry.id}?notice=revision-discarded`, 303);
  });
};
