import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { KeyView } from '../keys/keys.service.js';
import type { Workspace } from './access.js';
import type { Kit } from './kit.js';
import { html, type Html } from '../html/html.js';
import { csrfField, field, formErrors, when } from './views/layout.js';

const Form = Type.Object({ _csrf: Type.Optional(Type.String()) });
const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });
const KeyParams = Type.Object({ id: Type.String({ maxLength: 40 }) });
const Notice = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });
const CreateForm = Type.Composite([
  Form,
  Type.Object({
    name: Type.String({ maxLength: 300 }),
    scope: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('selected')])),
    // One checkbox per project; a single ticked box arrives as a string.
    projects: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 1000 })])),
    // A checkbox: present ("on") when ticked.
    publish: Type.Optional(Type.Literal('on')),
  }),
]);

/** Grace periods offered when rotating: the old secret keeps working this long (at most 24 h). */
const GRACE_CHOICES: [number, string][] = [
  [0, 'None: the old secret stops working now'],
  [300, '5 minutes'],
  [3600, '1 hour'],
  [6 * 3600, '6 hours'],
  [86_400, '24 hours'],
];

export function keyStatus(key: KeyView): 'active' | 'revoked' | 'expired' {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && key.expires_at.getTime() <= Date.now()) return 'expired';
  return 'active';
}

/** What the key may do: read, or publish too (the automation API's scope). */
const accessText = (key: KeyView) => (key.can_publish ? html`<span class="badge publish">read and publish</span>` : 'read');

const scopeText = (key: KeyView) =>
  key.scope === 'all' ? 'All projects' : key.projects.length ? key.projects.join(', ') : html`<span class="muted">Selected projects (none left)</span>`;

export const keysRoutes: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access } = kit;

  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    ws: Workspace,
    error?: AppError,
    values: { name?: string; scope?: string; projects?: string[]; publish?: boolean } = {},
  ) {
    const csrf = kit.csrf(request);
    const keys = await services.keys.listIn(ws.resolved);
    const projects = await services.projects.listForContext(ws.resolved);
    const selected = new Set(values.projects ?? []);
    const contextLabel = ws.kind === 'user' ? 'Personal' : `Organization ${ws.org!.slug}`;
    return kit.render(
      request,
      reply,
      `API keys · ${ws.label}`,
      html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> /</div>
<h1>API keys</h1><p class="subtitle">Keys of ${ws.kind === 'user' ? 'your personal context' : html`<strong>${ws.label}</strong>`}: integrations send them to <code>GET /v1/projects</code>; keys with the publish scope let CI publish through the API.</p>
<section class="panel" aria-labelledby="keys-h"><h2 id="keys-h">Keys</h2>
${
  keys.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col" class="hide-sm">Context</th><th scope="col">Scope</th><th scope="col">Access</th><th scope="col" class="hide-sm">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead><tbody>
  ${keys.map((k) => {
    const status = keyStatus(k);
    return html`<tr><td><a href="/dashboard/keys/${k.id}">${k.name}</a></td><td><code>${k.display_prefix}…</code></td><td class="hide-sm">${contextLabel}</td><td>${scopeText(k)}</td><td>${accessText(k)}</td><td class="hide-sm">${when(k.created_at)}</td><td>${when(k.last_used_at, 'never')}</td><td><span class="badge ${status}">${status}</span></td></tr>`;
  })}
</tbody></table></div>`
    : html`<p class="empty">No keys yet.</p>`
}
</section>
<section class="panel" aria-labelledby="new-key-h"><h2 id="new-key-h">Create a key</h2>
  ${formErrors(error?.message, error?.details, ['name'])}
  <form class="stack" method="post" action="${ws.base}/keys">${csrfField({ csrf })}
    ${field({ name: 'name', label: 'Name', value: values.name, errors: error?.details, required: true, hint: 'Say where it is used, e.g. "website build".' })}
    <fieldset><legend>Projects this key may read</legend>
      <label class="check"><input type="radio" name="scope" value="all"${values.scope !== 'selected' ? html` checked` : ''}> All projects of ${ws.label}, including future ones</label>
      <label class="check"><input type="radio" name="scope" value="selected"${values.scope === 'selected' ? html` checked` : ''}> Only the projects ticked below</label>
      ${
        projects.length
          ? html`<div class="checks" role="group" aria-label="Projects">${projects.map(
              (p) => html`<label><input type="checkbox" name="projects" value="${p.slug}"${selected.has(p.slug) ? html` checked` : ''}> ${p.name} <code>${p.slug}</code></label>`,
            )}</div>`
          : html`<p class="hint">This context has no projects yet.</p>`
      }
    </fieldset>
    <fieldset><legend>What this key may do</legend>
      <label class="check"><input type="checkbox" name="publish" value="on"${values.publish ? html` checked` : ''}> Publish: CI may publish and unpublish entries and release notes, sync repositories and preview release notes of these projects through the API</label>
      <p class="hint">Without it the key only reads. A publishing key changes what readers see: keep it in your CI's secrets.</p>
    </fieldset>
    <div><button type="submit">Create key</button></div>
  </form>
</section>`,
      { status: error ? error.status : 200 },
    );
  }

  function secretPage(request: FastifyRequest, reply: FastifyReply, key: KeyView, secret: string, ws: Workspace, rotated: boolean) {
    // The one response that carries the secret: never cached, never logged.
    reply.header('cache-control', 'no-store');
    return kit.render(
      request,
      reply,
      rotated ? 'Key rotated' : 'Key created',
      html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> / <a href="${ws.base}/keys">API keys</a> /</div>
<section class="panel"><h1>${rotated ? 'New secret for' : 'Your new key'} “${key.name}”</h1>
<div class="notice warn" role="status">Copy the secret now: it is shown only once and cannot be shown again.${
        rotated && key.previous_expires_at ? html` The old secret keeps working until ${when(key.previous_expires_at)}.` : rotated ? ' The old secret has stopped working.' : ''
      }</div>
<label for="new-secret">Secret</label>
<div class="secret"><input id="new-secret" type="text" readonly value="${secret}" autocomplete="off" spellcheck="false" data-secret><button type="button" data-copy="new-secret">Copy</button></div>
<p class="hint">Use it as <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-API-KEY: &lt;key&gt;</code>.</p>
<div class="actions"><a class="button" href="/dashboard/keys/${key.id}">Done</a><a class="button secondary" href="${ws.base}/keys">All keys</a></div>
</section>`,
    );
  }

  const list = async (request: FastifyRequest, reply: FastifyReply, orgSlug: string | undefined) =>
    listPage(request, reply, await access.managedWorkspace(kit.user(request), orgSlug));

  async function create(
    request: FastifyRequest,
    reply: FastifyReply,
    orgSlug: string | undefined,
    body: { name: string; scope?: string; projects?: string | string[]; publish?: string },
  ) {
    const ws = await access.managedWorkspace(kit.user(request), orgSlug);
    const picked = body.projects === undefined ? [] : Array.isArray(body.projects) ? body.projects : [body.projects];
    const values = { name: body.name, scope: body.scope ?? 'all', projects: picked, publish: body.publish === 'on' };
    try {
      if (values.scope === 'selected' && picked.length === 0) {
        throw new AppError('invalid_request', 'Tick at least one project, or choose all projects', [{ parameter: 'projects', message: 'none ticked' }]);
      }
      const created = await services.keys.create({
        name: body.name,
        context: ws.resolved,
        projectSlugs: values.scope === 'selected' ? picked : [],
        createdBy: kit.user(request).id,
        publish: values.publish,
      });
      return secretPage(request, reply, created.key, created.secret, ws, false);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
      return listPage(request, reply, ws, error, values);
    }
  }

  app.get('/dashboard/personal/keys', { schema: { hide: true, querystring: Notice } }, (request, reply) => list(request, reply, undefined));
  app.get('/dashboard/orgs/:org/keys', { schema: { hide: true, params: OrgParams, querystring: Notice } }, (request, reply) =>
    list(request, reply, request.params.org),
  );
  app.post('/dashboard/personal/keys', { schema: { hide: true, body: CreateForm } }, (request, reply) => create(request, reply, undefined, request.body));
  app.post('/dashboard/orgs/:org/keys', { schema: { hide: true, params: OrgParams, body: CreateForm } }, (request, reply) =>
    create(request, reply, request.params.org, request.body),
  );

  app.get('/dashboard/keys/:id', { schema: { hide: true, params: KeyParams, querystring: Notice } }, async (request, reply) => {
    const { key, ws } = await access.key(kit.user(request), request.params.id);
    const csrf = kit.csrf(request);
    const status = keyStatus(key);
    const rows: [string, Html | string][] = [
      ['Key', html`<code>${key.display_prefix}…</code>`],
      ['Context', ws.kind === 'user' ? 'Personal' : `Organization ${ws.org!.slug}`],
      ['Scope', html`${scopeText(key)}`],
      ['Access', html`${accessText(key)}`],
      ['Status', html`<span class="badge ${status}">${status}</span>`],
      ['Created', when(key.created_at)],
      ['Last used', when(key.last_used_at, 'never')],
    ];
    if (key.previous_expires_at && key.previous_expires_at.getTime() > Date.now()) rows.push(['Previous secret valid until', when(key.previous_expires_at)]);
    if (key.expires_at) rows.push(['Expires', when(key.expires_at)]);
    if (key.revoked_at) rows.push(['Revoked', when(key.revoked_at)]);
    return kit.render(
      request,
      reply,
      `Key ${key.name}`,
      html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> / <a href="${ws.base}/keys">API keys</a> /</div>
<h1>${key.name}</h1><p class="subtitle">The secret is never shown again; rotate the key to get a new one.</p>
<div class="grid">
<section class="panel" aria-labelledby="details-h"><h2 id="details-h">Details</h2>
  <table><tbody>${rows.map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table>
</section>
<section class="panel" aria-labelledby="rename-h"><h2 id="rename-h">Rename</h2>
  <form class="stack" method="post" action="/dashboard/keys/${key.id}/rename">${csrfField({ csrf })}
    ${field({ name: 'name', label: 'Name', value: key.name, required: true })}
    <div><button type="submit">Rename</button></div>
  </form>
</section>
${
  status === 'revoked'
    ? ''
    : html`<section class="panel" aria-labelledby="rotate-h"><h2 id="rotate-h">Rotate</h2>
  <form class="stack" method="post" action="/dashboard/keys/${key.id}/rotate">${csrfField({ csrf })}
    <div><label for="f-grace">Keep the old secret working for</label>
    <select id="f-grace" name="grace">${GRACE_CHOICES.map(([s, label]) => html`<option value="${s}">${label}</option>`)}</select></div>
    <div><button type="submit">Rotate key</button></div>
  </form>
</section>`
}
<section class="panel danger-zone" aria-labelledby="danger-h"><h2 id="danger-h">Revoke or delete</h2>
  <p class="hint">Both take effect on the very next request. A revoked key stays listed; a deleted key disappears.</p>
  <div class="actions">
  ${
    status === 'revoked'
      ? ''
      : html`<form class="inline" method="post" action="/dashboard/keys/${key.id}/revoke" data-confirm="Revoke this key? Integrations using it stop working at once.">${csrfField({ csrf })}<button class="danger" type="submit">Revoke key</button></form>`
  }
  <form class="inline" method="post" action="/dashboard/keys/${key.id}/delete" data-confirm="Delete this key for good?">${csrfField({ csrf })}<button class="danger" type="submit">Delete key</button></form>
  </div>
</section>
</div>`,
    );
  });

  app.post(
    '/dashboard/keys/:id/rename',
    { schema: { hide: true, params: KeyParams, body: Type.Composite([Form, Type.Object({ name: Type.String({ maxLength: 300 }) })]) } },
    async (request, reply) => {
      const { key } = await access.key(kit.user(request), request.params.id);
      await services.keys.rename(key.id, request.body.name);
      return reply.redirect(`/dashboard/keys/${key.id}?notice=key-renamed`, 303);
    },
  );

  app.post(
    '/dashboard/keys/:id/rotate',
    { schema: { hide: true, params: KeyParams, body: Type.Composite([Form, Type.Object({ grace: Type.Optional(Type.String({ pattern: '^\\d{1,6}$' })) })]) } },
    async (request, reply) => {
      const { key, ws } = await access.key(kit.user(request), request.params.id);
      const rotated = await services.keys.rotate(key.id, Number(request.body.grace ?? 0));
      return secretPage(request, reply, rotated.key, rotated.secret, ws, true);
    },
  );

  app.post('/dashboard/keys/:id/revoke', { schema: { hide: true, params: KeyParams, body: Form } }, async (request, reply) => {
    const { key } = await access.key(kit.user(request), request.params.id);
    await services.keys.revoke(key.id);
    return reply.redirect(`/dashboard/keys/${key.id}?notice=key-revoked`, 303);
  });

  app.post('/dashboard/keys/:id/delete', { schema: { hide: true, params: KeyParams, body: Form } }, async (request, reply) => {
    const { key, ws } = await access.key(kit.user(request), request.params.id);
    await services.keys.delete(key.id);
    return reply.redirect(`${ws.base}/keys?notice=key-deleted`, 303);
  });
};
