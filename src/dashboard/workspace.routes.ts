import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../auth/auth.repository.js';
import { AppError } from '../errors.js';
import { INVITE_TTL_HOURS } from '../orgs/orgs.service.js';
import type { Workspace } from './access.js';
import type { Kit } from './kit.js';
import { html, type Html } from '../html/html.js';
import { csrfField, field, formErrors, when } from './views/layout.js';

const Form = Type.Object({ _csrf: Type.Optional(Type.String()) });
const Text = (maxLength = 1000) => Type.String({ maxLength });
const OrgParams = Type.Object({ org: Type.String({ maxLength: 64 }) });
const Notice = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });
const MemberParams = Type.Object({ org: Type.String({ maxLength: 64 }), userId: Type.String({ format: 'uuid' }) });

export const workspaceRoutes: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access } = kit;

  app.get('/dashboard', { schema: { hide: true, querystring: Notice } }, async (request, reply) => {
    const user = kit.user(request);
    const orgs = await services.orgs.listForUser(user.id);
    const personal = await services.projects.listForContext({ type: 'user', userId: user.id });
    const csrf = kit.csrf(request);
    const card = (href: string, title: string, sub: Html | string, badge?: string) => html`
<li class="panel"><h2><a href="${href}">${title}</a> ${badge ? html`<span class="badge ${badge}">${badge}</span>` : ''}</h2><p class="muted">${sub}</p>
<div class="actions"><a class="button secondary" href="${href}">Projects</a>${badge !== 'member' ? html`<a class="button secondary" href="${href}/keys">API keys</a>` : ''}</div></li>`;
    return kit.render(
      request,
      reply,
      'Overview',
      html`<h1>Hello, ${user.name}</h1><p class="subtitle">Your workspaces: personal projects and the organizations you belong to.</p>
<ul class="grid plain">
  ${card('/dashboard/personal', 'Personal', `${personal.length} ${personal.length === 1 ? 'project' : 'projects'}`)}
  ${orgs.map((o) => card(`/dashboard/orgs/${o.slug}`, o.name, html`<code>${o.slug}</code>`, o.role))}
</ul>
<section class="panel" aria-labelledby="new-org-h"><h2 id="new-org-h">New organization</h2>
  <form class="stack" method="post" action="/dashboard/orgs">${csrfField({ csrf })}
    ${field({ name: 'name', label: 'Name', required: true })}
    ${field({ name: 'slug', label: 'Slug', required: true, hint: 'Lowercase letters, digits and single hyphens, 2–64 characters.' })}
    <div><button type="submit">Create organization</button></div>
  </form>
</section>`,
      { section: 'overview' },
    );
  });

  app.post('/dashboard/orgs', { schema: { hide: true, body: Type.Composite([Form, Type.Object({ name: Text(300), slug: Text(100) })]) } }, async (request, reply) => {
    const user = kit.user(request);
    const org = await services.orgs.create({ name: request.body.name, slug: request.body.slug.trim(), ownerEmail: user.email });
    return reply.redirect(`/dashboard/orgs/${org.slug}?notice=org-created`, 303);
  });

  async function workspacePage(request: FastifyRequest, reply: FastifyReply, user: SessionUser, ws: Workspace, projectError?: AppError, values: Record<string, string> = {}) {
    const csrf = kit.csrf(request);
    const projects = await services.projects.listForContext(ws.resolved);
    const sections: Html[] = [];
    sections.push(html`
<section class="panel" aria-labelledby="projects-h"><h2 id="projects-h">Projects</h2>
  ${
    projects.length
      ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Published entries</th><th scope="col" class="hide-sm">Created</th></tr></thead><tbody>
    ${projects.map((p) => html`<tr><td><a href="/dashboard/projects/${p.slug}">${p.name}</a></td><td><code>${p.slug}</code></td><td>${p.published_entry_count}</td><td class="hide-sm">${when(p.created_at)}</td></tr>`)}
  </tbody></table></div>`
      : html`<p class="empty">No projects yet.${ws.canManage ? ' Create one below, then link its repository on its page: its changelog is generated from the commits.' : ''}</p>`
  }
</section>`);
    if (ws.canManage) {
      sections.push(html`
<section class="panel" aria-labelledby="new-project-h"><h2 id="new-project-h">New project</h2>
  ${formErrors(projectError?.message, projectError?.details, ['name', 'slug'])}
  <form class="stack" method="post" action="${ws.base}/projects">${csrfField({ csrf })}
    ${field({ name: 'name', label: 'Name', value: values.name, errors: projectError?.details, required: true })}
    ${field({ name: 'slug', label: 'Slug', value: values.slug, errors: projectError?.details, required: true, hint: 'Used in the public URLs /c/<slug> and /v1/changelog/<slug>: lowercase letters, digits and single hyphens.' })}
    <div><button type="submit">Create project</button></div>
  </form>
</section>`);
    }
    if (ws.kind === 'org' && ws.membership) sections.push(await membersPanel(user, ws, csrf));
    return kit.render(
      request,
      reply,
      ws.label,
      html`<div class="crumbs"><a href="/dashboard">Overview</a> /</div>
<h1>${ws.label} ${ws.role ? html`<span class="badge ${ws.role}">${ws.role}</span>` : ''}</h1>
<p class="subtitle">${ws.kind === 'user' ? 'Your personal projects and keys.' : html`Organization <code>${ws.org!.slug}</code>.`}
${ws.canManage ? html` <a href="${ws.base}/keys">Manage API keys →</a>` : ''}</p>
${sections}`,
      { status: projectError ? projectError.status : 200 },
    );
  }

  async function membersPanel(user: SessionUser, ws: Workspace, csrf: string): Promise<Html> {
    const membership = ws.membership!;
    const isOwner = membership.role === 'owner';
    const members = await services.orgs.members(membership.org.id);
    const invites = isOwner ? await services.orgs.pendingInvites(membership.org.id) : [];
    const roleSelect = (current: string) =>
      html`<select name="role" aria-label="Role">${['owner', 'admin', 'member'].map((r) => html`<option value="${r}"${r === current ? html` selected` : ''}>${r}</option>`)}</select>`;
    return html`
<section class="panel" aria-labelledby="members-h"><h2 id="members-h">Members</h2>
  <div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col"><span class="hide-sm">Actions</span></th></tr></thead><tbody>
  ${members.map(
    (m) => html`<tr><td>${m.name}${m.id === user.id ? ' (you)' : ''}</td><td>${m.email}</td><td>${
      isOwner
        ? html`<form class="inline" method="post" action="${ws.base}/members/${m.id}/role">${csrfField({ csrf })}${roleSelect(m.role)}<button class="small secondary" type="submit">Change</button></form>`
        : html`<span class="badge ${m.role}">${m.role}</span>`
    }</td><td>${
      isOwner || m.id === user.id
        ? html`<form class="inline" method="post" action="${ws.base}/members/${m.id}/remove" data-confirm="${m.id === user.id ? 'Leave this organization?' : `Remove ${m.name}?`}">${csrfField({ csrf })}<button class="small danger" type="submit">${m.id === user.id ? 'Leave' : 'Remove'}</button></form>`
        : ''
    }</td></tr>`,
  )}
  </tbody></table></div>
</section>
${
  isOwner
    ? html`<section class="panel" aria-labelledby="invites-h"><h2 id="invites-h">Invite people</h2>
  <p class="hint">An invitation link works once and expires after ${INVITE_TTL_HOURS} hours. Send it to the person yourself.</p>
  <form class="inline" method="post" action="${ws.base}/invites">${csrfField({ csrf })}
    <label for="invite-role">Role</label>${html`<select id="invite-role" name="role">${['member', 'admin', 'owner'].map((r) => html`<option value="${r}">${r}</option>`)}</select>`}
    <button type="submit">Create invitation link</button></form>
  ${
    invites.length
      ? html`<h3>Pending invitations</h3><ul>${invites.map(
          (i) => html`<li><span class="badge ${i.role}">${i.role}</span> created ${when(i.created_at)}, expires ${when(i.expires_at)}
      <form class="inline" method="post" action="${ws.base}/invites/${i.id}/cancel">${csrfField({ csrf })}<button class="small danger" type="submit">Cancel</button></form></li>`,
        )}</ul>`
      : ''
  }
</section>`
    : ''
}`;
  }

  app.get('/dashboard/personal', { schema: { hide: true, querystring: Notice } }, async (request, reply) => {
    const user = kit.user(request);
    return workspacePage(request, reply, user, await access.workspace(user, undefined));
  });

  app.get('/dashboard/orgs/:org', { schema: { hide: true, params: OrgParams, querystring: Notice } }, async (request, reply) => {
    const user = kit.user(request);
    return workspacePage(request, reply, user, await access.workspace(user, request.params.org));
  });

  const ProjectForm = Type.Composite([Form, Type.Object({ name: Text(300), slug: Text(100) })]);
  const createProject = async (request: FastifyRequest, reply: FastifyReply, orgSlug: string | undefined, body: { name: string; slug: string }) => {
    const user = kit.user(request);
    const ws = await access.managedWorkspace(user, orgSlug);
    try {
      const project = await services.projects.create({ name: body.name, slug: body.slug.trim(), owner: ws.resolved });
      return reply.redirect(`/dashboard/projects/${project.slug}?notice=project-created`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || (error.code !== 'invalid_request' && error.code !== 'conflict')) throw error;
      return workspacePage(request, reply, user, ws, error, body);
    }
  };
  app.post('/dashboard/personal/projects', { schema: { hide: true, body: ProjectForm } }, async (request, reply) =>
    createProject(request, reply, undefined, request.body),
  );
  app.post('/dashboard/orgs/:org/projects', { schema: { hide: true, params: OrgParams, body: ProjectForm } }, async (request, reply) =>
    createProject(request, reply, request.params.org, request.body),
  );

  app.post(
    '/dashboard/orgs/:org/invites',
    { schema: { hide: true, params: OrgParams, body: Type.Composite([Form, Type.Object({ role: Text(20) })]) } },
    async (request, reply) => {
      const user = kit.user(request);
      const membership = await services.orgs.membership(request.params.org, user.id);
      const { token, invite } = await services.orgs.createInvite(membership, request.body.role, user.id);
      const link = `${kit.config.publicUrl}/dashboard/invites/${token}`;
      return kit.render(
        request,
        reply,
        'Invitation link',
        html`<div class="crumbs"><a href="/dashboard">Overview</a> / <a href="/dashboard/orgs/${membership.org.slug}">${membership.org.name}</a> /</div>
<section class="panel"><h1>Invitation link</h1>
<p>Send this link to the person you invite as <span class="badge ${invite.role}">${invite.role}</span>. It works once and expires ${when(invite.expires_at)}. It is shown only now.</p>
<div class="secret"><input id="invite-link" type="text" readonly value="${link}" aria-label="Invitation link"><button type="button" data-copy="invite-link">Copy</button></div>
<p><a href="/dashboard/orgs/${membership.org.slug}">Back to ${membership.org.name}</a></p></section>`,
      );
    },
  );

  app.post(
    '/dashboard/orgs/:org/invites/:inviteId/cancel',
    { schema: { hide: true, params: Type.Object({ org: Type.String({ maxLength: 64 }), inviteId: Type.String({ maxLength: 40 }) }), body: Form } },
    async (request, reply) => {
      const user = kit.user(request);
      const membership = await services.orgs.membership(request.params.org, user.id);
      await services.orgs.cancelInvite(membership, request.params.inviteId);
      return reply.redirect(`/dashboard/orgs/${membership.org.slug}?notice=invite-cancelled`, 303);
    },
  );

  app.post(
    '/dashboard/orgs/:org/members/:userId/role',
    { schema: { hide: true, params: MemberParams, body: Type.Composite([Form, Type.Object({ role: Text(20) })]) } },
    async (request, reply) => {
      const user = kit.user(request);
      const membership = await services.orgs.membership(request.params.org, user.id);
      await services.orgs.changeRole(membership, user.id, request.params.userId, request.body.role);
      return reply.redirect(`/dashboard/orgs/${membership.org.slug}?notice=role-changed`, 303);
    },
  );

  app.post('/dashboard/orgs/:org/members/:userId/remove', { schema: { hide: true, params: MemberParams, body: Form } }, async (request, reply) => {
    const user = kit.user(request);
    const membership = await services.orgs.membership(request.params.org, user.id);
    await services.orgs.removeMember(membership, user.id, request.params.userId);
    return request.params.userId === user.id
      ? reply.redirect('/dashboard?notice=left-org', 303)
      : reply.redirect(`/dashboard/orgs/${membership.org.slug}?notice=member-removed`, 303);
  });
};
