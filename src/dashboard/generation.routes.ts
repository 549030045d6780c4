import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProjectRow } from '../db/schema.js';
import type { SettingsPatch } from '../generation/generation.service.js';
import { GENERATED_ENTRY_TYPES, SECTION_KEYS, type GenerationSettings } from '../generation/types.js';
import { AppError } from '../http/errors.js';
import type { Workspace } from './access.js';
import type { Kit } from './dashboard.plugin.js';
import { html } from './html.js';
import { csrfField, formErrors, when } from './views/layout.js';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100 }) });
const EntryParams = Type.Object({ id: Type.String({ maxLength: 40 }) });
const Notice = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });
/** A form field that a browser sends once, many times, or (unchecked boxes) not at all. */
const Many = Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 5000 })]));
const many = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const lines = (text: string) => text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);

const SettingsForm = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    entry_types: Many,
    time_zone: Type.String({ maxLength: 100 }),
    exclude_authors: Type.String({ maxLength: 20_000 }),
    exclude_bots: Type.Optional(Type.String({ maxLength: 10 })),
    path_rules: Type.String({ maxLength: 20_000 }),
    ...Object.fromEntries(GENERATED_ENTRY_TYPES.map((t) => [`publish_${t}`, Type.Optional(Type.String({ maxLength: 10 }))])),
    ...Object.fromEntries(
      SECTION_KEYS.flatMap((k) => [
        [`visible_${k}`, Type.Optional(Type.String({ maxLength: 10 }))],
        [`label_${k}`, Type.Optional(Type.String({ maxLength: 100 }))],
        [`order_${k}`, Type.Optional(Type.String({ maxLength: 5 }))],
      ]),
    ),
  },
  { additionalProperties: false },
);

/** Generation settings, the review queue of drafts with bulk publish, and regenerate. */
export const generationPages: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access } = kit;

  async function page(request: FastifyRequest, reply: FastifyReply, project: ProjectRow, ws: Workspace, error?: AppError) {
    const csrf = kit.csrf(request);
    const { resolved } = await services.generation.settings(project.slug);
    const queue = await services.generation.reviewQueue(project.id);
    const s: GenerationSettings = resolved;
    return kit.render(
      request,
      reply,
      `Changelog generation · ${project.name}`,
      html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> / <a href="/dashboard/projects/${project.slug}">${project.name}</a> /</div>
<h1>Changelog generation</h1>
<form class="inline" method="post" action="/dashboard/projects/${project.slug}/generate">${csrfField({ csrf })}<button type="submit">Generate now</button></form>
<section class="panel" aria-labelledby="queue-h"><h2 id="queue-h">Review queue</h2>
${
  queue.length
    ? html`<form method="post" action="/dashboard/projects/${project.slug}/publish">${csrfField({ csrf })}
<div class="table-wrap"><table><thead><tr><th scope="col">Publish</th><th scope="col">Title</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Updated</th></tr></thead><tbody>
${queue.map(
  (e) => html`<tr><td>${e.status === 'draft' ? html`<input type="checkbox" name="ids" value="${e.id}" aria-label="Publish ${e.title ?? 'entry'}">` : ''}</td>
<td><a href="/dashboard/entries/${e.id}">${e.title ?? '(untitled)'}</a>${
    e.pending_regeneration
      ? html` <span class="badge">newer commits</span></td>`
      : html`</td>`
  }<td>${e.entry_type}</td><td><span class="badge ${e.status}">${e.status}</span>${e.edited_at ? html` <span class="muted">edited</span>` : ''}</td><td>${when(e.updated_at)}</td></tr>`,
)}
</tbody></table></div>
<div class="actions"><button type="submit">Publish selected</button></div></form>
${queue
  .filter((e) => e.pending_regeneration)
  .map(
    (e) => html`<form class="inline" method="post" action="/dashboard/entries/${e.id}/regenerate">${csrfField({ csrf })}<button class="secondary small" type="submit">Regenerate “${e.title ?? 'entry'}” (drops the edit)</button></form>`,
  )}`
    : html`<p class="empty">Nothing to review.</p>`
}
</section>
<section class="panel" aria-labelledby="gen-settings-h"><h2 id="gen-settings-h">Settings</h2>
${formErrors(error?.message, error?.details)}
<form class="stack" method="post" action="/dashboard/projects/${project.slug}/generation">${csrfField({ csrf })}
<fieldset><legend>Entry types and publishing</legend>
${GENERATED_ENTRY_TYPES.map(
  (t) => html`<div><label><input type="checkbox" name="entry_types" value="${t}"${s.entryTypes.includes(t) ? html` checked` : ''}> ${t}</label>
  <label for="f-publish-${t}">publishing</label> <select id="f-publish-${t}" name="publish_${t}">${(['manual', 'auto'] as const).map(
    (p) => html`<option value="${p}"${s.publish[t] === p ? html` selected` : ''}>${p === 'manual' ? 'draft for review' : 'publish at once'}</option>`,
  )}</select></div>`,
)}
</fieldset>
<div><label for="f-time_zone">Time zone</label><input id="f-time_zone" name="time_zone" value="${s.timeZone}"></div>
<fieldset><legend>Sections (shown, label, order)</legend>
${s.sections.map(
  (sec, i) => html`<div><label><input type="checkbox" name="visible_${sec.key}" value="on"${sec.visible ? html` checked` : ''}> ${sec.key}</label>
  <input aria-label="Label of ${sec.key}" name="label_${sec.key}" value="${sec.label}"> <input aria-label="Order of ${sec.key}" name="order_${sec.key}" value="${String(i + 1)}" size="3"></div>`,
)}
</fieldset>
<div><label for="f-exclude_authors">Excluded authors (e-mail, name or * pattern; one per line)</label><textarea id="f-exclude_authors" name="exclude_authors">${s.excludeAuthors.join('\n')}</textarea></div>
<div><label><input type="checkbox" name="exclude_bots" value="on"${s.excludeBots ? html` checked` : ''}> Exclude bots</label></div>
<div><label for="f-path_rules">Path rules (GLOB=COMPONENT, one per line; empty: detected)</label><textarea id="f-path_rules" name="path_rules">${s.pathRules.map((r) => `${r.glob}=${r.component}`).join('\n')}</textarea></div>
<div><button type="submit">Save settings</button></div>
</form></section>`,
      { status: error ? error.status : 200 },
    );
  }

  app.get('/dashboard/projects/:slug/generation', { schema: { hide: true, params: SlugParams, querystring: Notice } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    return page(request, reply, project, ws);
  });

  app.post('/dashboard/projects/:slug/generation', { schema: { hide: true, params: SlugParams, body: SettingsForm } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    const body = request.body as Record<string, string | string[] | undefined>;
    const order = (k: string) => Number(body[`order_${k}`]) || 99;
    const patch: SettingsPatch = {
      entryTypes: many(body.entry_types),
      publish: Object.fromEntries(GENERATED_ENTRY_TYPES.map((t) => [t, (body[`publish_${t}`] as string | undefined) ?? 'manual'])),
      timeZone: (body.time_zone as string).trim(),
      sections: [...SECTION_KEYS]
        .sort((a, b) => order(a) - order(b))
        .map((key) => ({ key, label: ((body[`label_${key}`] as string | undefined) ?? '').trim(), visible: body[`visible_${key}`] === 'on' })),
      excludeAuthors: lines(body.exclude_authors as string),
      excludeBots: body.exclude_bots === 'on',
      pathRules: (body.path_rules as string).split('\n').map((s) => s.trim()).filter(Boolean),
    };
    try {
      await services.generation.configure(project.slug, patch);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
      return page(request, reply, project, ws, error);
    }
    return reply.redirect(`/dashboard/projects/${project.slug}/generation?notice=generation-saved`, 303);
  });

  app.post(
    '/dashboard/projects/:slug/generate',
    { schema: { hide: true, params: SlugParams, body: Type.Object({ _csrf: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const { project } = await access.project(kit.user(request), request.params.slug, true);
      await services.generation.generate(project.slug);
      return reply.redirect(`/dashboard/projects/${project.slug}/generation?notice=generated`, 303);
    },
  );

  app.post(
    '/dashboard/projects/:slug/publish',
    { schema: { hide: true, params: SlugParams, body: Type.Object({ _csrf: Type.Optional(Type.String()), ids: Many }) } },
    async (request, reply) => {
      const { project } = await access.project(kit.user(request), request.params.slug, true);
      await services.generation.publishDrafts(project.id, many(request.body.ids));
      return reply.redirect(`/dashboard/projects/${project.slug}/generation?notice=drafts-published`, 303);
    },
  );

  app.post(
    '/dashboard/entries/:id/regenerate',
    { schema: { hide: true, params: EntryParams, body: Type.Object({ _csrf: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const entry = await services.entries.get(request.params.id);
      const project = await services.projects.findById(entry.project_id);
      if (!project) throw new AppError('not_found', 'Entry not found');
      await access.project(kit.user(request), project.slug, true);
      await services.generation.regenerate(entry.id);
      return reply.redirect(`/dashboard/projects/${project.slug}/generation?notice=entry-regenerated`, 303);
    },
  );
};
