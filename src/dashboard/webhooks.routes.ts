import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kit } from './kit.js';
import { html } from '../html/html.js';
import { csrfField, formErrors, when } from './views/layout.js';
import type { ProjectRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { Workspace } from './access.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhooks.service.js';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100 }) });
const EndpointParams = Type.Object({ slug: Type.String({ maxLength: 100 }), id: Type.String({ maxLength: 40 }) });
const Notice = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });
const CsrfOnly = Type.Object({ _csrf: Type.Optional(Type.String()) });
const CreateForm = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    url: Type.String({ maxLength: 4096 }),
    event_types: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })])),
  },
  { additionalProperties: false },
);

const NOTICES: Record<string, { kind: 'ok' | 'warn' | 'error'; text: string }> = {
  'webhook-deleted': { kind: 'ok', text: 'Webhook endpoint deleted.' },
  'webhook-test-sent': { kind: 'ok', text: 'Test event queued; its delivery appears below in a moment.' },
};

const EVENT_HELP: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  'entry.published': 'an entry becomes public',
  'entry.unpublished': 'a public entry is unpublished, archived or deleted',
  'entry.updated': 'a public entry changes',
};

const noticeOf = (request: FastifyRequest) => {
  const notice = (request.query as { notice?: string } | undefined)?.notice;
  return notice ? NOTICES[notice] : undefined;
};

/** The dashboard's webhook pages of a project: endpoints, add, delete, test event, delivery log. */
export const webhookPages: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access } = kit;
  const base = (project: ProjectRow) => `/dashboard/projects/${project.slug}/webhooks`;
  const crumbs = (project: ProjectRow, ws: Workspace, withList = false) =>
    html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="${ws.base}">${ws.label}</a> / <a href="/dashboard/projects/${project.slug}">${project.name}</a> /${
      withList ? html` <a href="${base(project)}">Webhooks</a> /` : ''
    }</div>`;

  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    project: ProjectRow,
    ws: Workspace,
    form?: { error: AppError; url: string; eventTypes: string[] },
  ) {
    const csrf = kit.csrf(request);
    const endpoints = await services.webhooks.list(project.id);
    const checked = form?.eventTypes ?? [...WEBHOOK_EVENT_TYPES];
    return kit.render(
      request,
      reply,
      `Webhooks · ${project.name}`,
      html`${crumbs(project, ws)}
<h1>Webhooks</h1>
<p class="subtitle">When entries of <code>${project.slug}</code> are published, unpublished or updated, a signed JSON event is POSTed to each endpoint (see the README, “Outbound webhooks”).</p>
<section class="panel" aria-labelledby="endpoints-h"><h2 id="endpoints-h">Endpoints</h2>
${
  endpoints.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col" class="hide-sm">Created</th><th scope="col">Last delivery</th><th scope="col">Actions</th></tr></thead><tbody>
${endpoints.map(
  (e) => html`<tr><td><a href="${base(project)}/${e.id}"><code>${e.url}</code></a></td><td>${e.eventTypes.join(', ')}</td><td class="hide-sm">${when(e.createdAt)}</td>
<td>${e.lastStatus ? html`<span class="badge ${e.lastStatus}">${e.lastStatus}</span> ${when(e.lastAt)}` : html`<span class="muted">none yet</span>`}</td>
<td><form class="inline" method="post" action="${base(project)}/${e.id}/test">${csrfField({ csrf })}<button class="secondary small" type="submit">Send test event</button></form>
<form class="inline" method="post" action="${base(project)}/${e.id}/delete" data-confirm="Delete this webhook endpoint?">${csrfField({ csrf })}<button class="danger small" type="submit">Delete</button></form></td></tr>`,
)}
</tbody></table></div>`
    : html`<p class="empty">No endpoints yet.</p>`
}
</section>
<section class="panel" aria-labelledby="add-h"><h2 id="add-h">Add an endpoint</h2>
${formErrors(form?.error.message, form?.error.details, ['url'])}
<form class="stack" method="post" action="${base(project)}">${csrfField({ csrf })}
<div><label for="f-url">Payload URL (https)</label><input id="f-url" name="url" type="url" required value="${form?.url ?? ''}" placeholder="https://example.com/hooks/changelog"${
        form?.error.details?.some((d) => d.parameter === 'url') ? html` aria-invalid="true" aria-describedby="f-url-error"` : ''
      }>
${form?.error.details?.filter((d) => d.parameter === 'url').map((d) => html`<p class="field-error" id="f-url-error">${d.message}</p>`)}</div>
<fieldset><legend>Events</legend>
${WEBHOOK_EVENT_TYPES.map(
  (t) => html`<div><label><input type="checkbox" name="event_types" value="${t}"${checked.includes(t) ? html` checked` : ''}> <code>${t}</code> — ${EVENT_HELP[t]}</label></div>`,
)}
</fieldset>
<div><button type="submit">Add endpoint</button></div>
</form></section>`,
      { status: form ? form.error.status : 200, notice: noticeOf(request) },
    );
  }

  app.get('/dashboard/projects/:slug/webhooks', { schema: { hide: true, params: SlugParams, querystring: Notice } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    return listPage(request, reply, project, ws);
  });

  app.post('/dashboard/projects/:slug/webhooks', { schema: { hide: true, params: SlugParams, body: CreateForm } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    const { url, event_types } = request.body;
    const eventTypes = event_types === undefined ? [] : Array.isArray(event_types) ? event_types : [event_types];
    let created;
    try {
      created = await services.webhooks.create(project.id, { url, eventTypes });
    } catch (error) {
      if (!(error instanceof AppError) || (error.code !== 'invalid_request' && error.code !== 'conflict')) throw error;
      return listPage(request, reply, project, ws, { error, url, eventTypes });
    }
    // The one response that carries the signing secret: never cached.
    reply.header('cache-control', 'no-store');
    return kit.render(
      request,
      reply,
      'Webhook endpoint added',
      html`${crumbs(project, ws)}
<section class="panel"><h1>Endpoint added</h1>
<p><code>${created.endpoint.url}</code> receives ${created.endpoint.eventTypes.join(', ')}.</p>
<div class="notice warn" role="status">Copy the signing secret now: it is shown only once. Your endpoint uses it to verify the <code>X-Changelog-Signature</code> header.</div>
<label for="new-secret">Signing secret</label>
<div class="secret"><input id="new-secret" type="text" readonly value="${created.secret}" autocomplete="off" spellcheck="false" data-secret><button type="button" data-copy="new-secret">Copy</button></div>
<div class="actions"><a class="button" href="${base(project)}">Done</a><a class="button secondary" href="${base(project)}/${created.endpoint.id}">Delivery log</a></div>
</section>`,
      { status: 201 },
    );
  });

  app.get('/dashboard/projects/:slug/webhooks/:id', { schema: { hide: true, params: EndpointParams, querystring: Notice } }, async (request, reply) => {
    const { project, ws } = await access.project(kit.user(request), request.params.slug, true);
    const endpoint = await services.webhooks.get(project.id, request.params.id);
    const deliveries = await services.webhooks.deliveries(project.id, endpoint.id);
    const csrf = kit.csrf(request);
    return kit.render(
      request,
      reply,
      `Webhook deliveries · ${project.name}`,
      html`${crumbs(project, ws, true)}
<h1>Deliveries to <code>${endpoint.url}</code></h1>
<p class="subtitle">Events: ${endpoint.eventTypes.join(', ')} · added ${when(endpoint.createdAt)}</p>
<form class="inline" method="post" action="${base(project)}/${endpoint.id}/test">${csrfField({ csrf })}<button type="submit">Send test event</button></form>
<section class="panel" aria-labelledby="log-h"><h2 id="log-h">Delivery log (newest first)</h2>
${
  deliveries.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempt</th><th scope="col">Answer</th><th scope="col">Duration</th><th scope="col">When</th><th scope="col">Error / response</th></tr></thead><tbody>
${deliveries.map((d) =>
  (d.attempts.length ? d.attempts : [null]).map(
    (a, i) => html`<tr class="delivery" data-delivery="${d.id}">${
      i === 0
        ? html`<td rowspan="${String(Math.max(1, d.attempts.length))}"><code>${d.eventType}</code><br><span class="muted">${d.eventId}</span></td><td rowspan="${String(Math.max(1, d.attempts.length))}"><span class="badge ${d.status}">${d.status}</span></td>`
        : ''
    }${
      a
        ? html`<td>${String(a.attempt)}</td><td>${a.status_code === null ? html`<span class="muted">none</span>` : String(a.status_code)}</td><td>${String(a.duration_ms)} ms</td><td>${when(a.attempted_at)}</td><td>${a.error ? html`<span class="field-error">${a.error}</span>` : ''}${a.response_excerpt ? html`<pre class="excerpt">${a.response_excerpt}</pre>` : ''}</td>`
        : html`<td colspan="5" class="muted">queued, not attempted yet</td>`
    }</tr>`,
  ),
)}
</tbody></table></div>`
    : html`<p class="empty">No deliveries yet.</p>`
}
</section>`,
      { notice: noticeOf(request) },
    );
  });

  app.post('/dashboard/projects/:slug/webhooks/:id/test', { schema: { hide: true, params: EndpointParams, body: CsrfOnly } }, async (request, reply) => {
    const { project } = await access.project(kit.user(request), request.params.slug, true);
    await app.limitTenantAction(request, reply, 'webhook-test', project);
    await services.webhooks.sendTest(project.id, request.params.id);
    return reply.redirect(`${base(project)}/${request.params.id}?notice=webhook-test-sent`, 303);
  });

  app.post('/dashboard/projects/:slug/webhooks/:id/delete', { schema: { hide: true, params: EndpointParams, body: CsrfOnly } }, async (request, reply) => {
    const { project } = await access.project(kit.user(request), request.params.slug, true);
    await services.webhooks.remove(project.id, request.params.id);
    return reply.redirect(`${base(project)}?notice=webhook-deleted`, 303);
  });
};
