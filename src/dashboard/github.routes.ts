import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { SessionUser } from '../auth/auth.repository.js';
import type { ScmInstallationRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { ContextOwner } from '../github/github.repository.js';
import { SETUP_ACTIONS } from '../github/github.service.js';
import { contextTenant } from '../http/plugins/rate-limit.js';
import type { Workspace } from './access.js';
import type { Kit } from './kit.js';
import { html, type Html } from '../html/html.js';
import { csrfField, when } from './views/layout.js';

export const GITHUB_SETTINGS = '/dashboard/settings/github';

const PageQuery = Type.Object({
  notice: Type.Optional(Type.String({ maxLength: 40 })),
  installation: Type.Optional(Type.String({ maxLength: 40 })),
});
const ConnectForm = Type.Object({ _csrf: Type.Optional(Type.String()), org: Type.Optional(Type.String({ maxLength: 64 })) });
// What GitHub appends to the app's Setup URL. `installation_id` is absent when an org owner must first approve.
const SetupQuery = Type.Object({
  installation_id: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,14}$' })),
  setup_action: Type.Optional(Type.Union(SETUP_ACTIONS.map((a) => Type.Literal(a)))),
  state: Type.String({ minLength: 1, maxLength: 200 }),
  // User authorization (OAuth): during installation when the app asks for it, or from "Verify GitHub account".
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
});

const ownerOf = (ws: Workspace): ContextOwner =>
  ws.resolved.type === 'user' ? { type: 'user', userId: ws.resolved.userId } : { type: 'org', orgId: ws.resolved.orgId };

/**
 * GitHub settings: the installations of each context the user manages, the "Connect GitHub" round
 * trip through GitHub's install page (a signed, single-use state), and the Setup URL it returns to.
 */
export const githubRoutes: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services, access } = kit;

  /** Personal first, then every organization the user administers. */
  async function managedWorkspaces(user: SessionUser): Promise<Workspace[]> {
    const orgs = await services.orgs.listForUser(user.id);
    const list = [await access.workspace(user, undefined)];
    for (const org of orgs) if (org.role !== 'member') list.push(await access.workspace(user, org.slug));
    return list;
  }

  app.get(GITHUB_SETTINGS, { schema: { hide: true, querystring: PageQuery } }, async (request, reply) => {
    const user = kit.user(request);
    const csrf = kit.csrf(request);
    const problem = services.github.connectProblem();
    const identityProblem = services.github.identityProblem();
    const workspaces = await managedWorkspaces(user);
    const identities = new Map<Workspace, { githubLogin: string } | undefined>();
    for (const ws of workspaces) identities.set(ws, await services.github.identity(ownerOf(ws)));
    const installations = new Map<Workspace, ScmInstallationRow[]>();
    for (const ws of workspaces) installations.set(ws, await services.github.listInstallations(ownerOf(ws)));
    const links = await services.repos.linksOfInstallations([...installations.values()].flat().map((i) => i.id));
    const highlighted = request.query.installation;

    const section = (ws: Workspace): Html => {
      const rows = installations.get(ws)!;
      return html`<section class="panel" aria-labelledby="gh-${ws.kind}-${ws.org?.slug ?? 'me'}">
<h2 id="gh-${ws.kind}-${ws.org?.slug ?? 'me'}">${ws.kind === 'user' ? 'Personal' : ws.label}</h2>
<p class="muted">${
  identities.get(ws)
    ? html`Verified GitHub account: <strong>${identities.get(ws)!.githubLogin}</strong> (its installations and those of organizations it administers can be connected with the API callback alone).`
    : html`No verified GitHub account: connecting an installation needs proof of access to it.`
}</p>
${
  rows.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Account</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Linked repositories</th><th scope="col" class="hide-sm">Connected</th></tr></thead><tbody>
${rows.map((i) => {
  const repos = links.filter((l) => l.installation_id === i.id);
  return html`<tr data-installation="${i.id}"${i.id === highlighted ? html` class="highlight" aria-current="true"` : ''}><td><strong>${i.account_login}</strong></td><td>${i.account_type}</td><td><span class="badge ${i.status}">${i.status}</span></td><td>${
    repos.length
      ? html`<ul class="plain">${repos.map(
          (l) => html`<li><code>${l.repo_owner}/${l.repo_name}</code> (${l.tracked_branch}) → <a href="/dashboard/projects/${l.project_slug}">${l.project_slug}</a> <span class="badge">${l.status}</span></li>`,
        )}</ul>`
      : html`<span class="muted">none yet</span>`
  }</td><td class="hide-sm">${when(i.created_at)}</td></tr>`;
})}
</tbody></table></div>`
    : html`<p class="empty">No GitHub installation connected yet.</p>`
}
${
  problem
    ? ''
    : html`<form class="inline" method="post" action="${GITHUB_SETTINGS}/connect">${csrfField({ csrf })}${
        ws.org ? html`<input type="hidden" name="org" value="${ws.org.slug}">` : ''
      }<button type="submit">Connect GitHub${ws.org ? html` for ${ws.label}` : ''}</button></form>`
}
${
  identityProblem
    ? ''
    : html`<form class="inline" method="post" action="${GITHUB_SETTINGS}/identity">${csrfField({ csrf })}${
        ws.org ? html`<input type="hidden" name="org" value="${ws.org.slug}">` : ''
      }<button type="submit" class="secondary">Verify GitHub account${ws.org ? html` for ${ws.label}` : ''}</button></form>`
}
</section>`;
    };

    return kit.render(
      request,
      reply,
      'GitHub',
      html`<div class="crumbs"><a href="/dashboard">Overview</a> /</div>
<h1>GitHub</h1><p class="subtitle">Installations of the GitHub App in your personal context and in the organizations you administer. Link their repositories to projects with <code>POST /v1/projects/{projectId}/repos</code>.</p>
${problem ? html`<div class="notice warn" role="status">“Connect GitHub” is not available: ${problem}. See the README’s configuration table.</div>` : ''}
${workspaces.map(section)}`,
      { section: 'github' },
    );
  });

  app.post(`${GITHUB_SETTINGS}/connect`, { schema: { hide: true, body: ConnectForm } }, async (request, reply) => {
    const ws = await access.managedWorkspace(kit.user(request), request.body.org || undefined);
    const problem = services.github.connectProblem();
    if (problem) throw new AppError('unavailable', problem);
    return reply.redirect(await services.github.installUrl(ownerOf(ws)), 303);
  });

  // Sends the user to GitHub's authorization page; GitHub returns to the Setup URL below with a code.
  app.post(`${GITHUB_SETTINGS}/identity`, { schema: { hide: true, body: ConnectForm } }, async (request, reply) => {
    const ws = await access.managedWorkspace(kit.user(request), request.body.org || undefined);
    return reply.redirect(await services.github.authorizeUrl(ownerOf(ws)), 303);
  });

  // GitHub's Setup URL (and the app's OAuth callback URL). A GET with an effect, which is safe because the signed state is single-use
  // and bound to the context it was issued for: a forged or replayed link records nothing.
  app.get(`${GITHUB_SETTINGS}/setup`, { schema: { hide: true, querystring: SetupQuery } }, async (request, reply) => {
    const user = kit.user(request);
    const { installation_id: rawId, setup_action: setupAction = 'install', state, code } = request.query;
    if (rawId === undefined && setupAction !== 'request' && code === undefined) {
      throw new AppError('invalid_request', 'GitHub did not say which installation was made', [{ in: 'query', parameter: 'installation_id', message: 'is required' }]);
    }
    const owner = await services.github.installStateOwner(state);
    if (owner.type === 'user' && owner.userId !== user.id) {
      // Someone else's link: say no more than for a stale one.
      throw new AppError('invalid_request', 'The GitHub connection link expired or was already used; start again from "Connect GitHub"');
    }
    if (owner.type === 'org') {
      const org = (await services.orgs.listForUser(user.id)).find((o) => o.id === owner.orgId);
      if (!org || org.role === 'member') throw new AppError('forbidden', 'Only admins and owners of the organization may connect GitHub for it');
    }
    // GitHub is asked with the app's credentials (and the OAuth client's), whose rate limits every tenant shares.
    await app.limitTenantAction(request, reply, 'github', contextTenant(owner));
    if (rawId === undefined && setupAction !== 'request') {
      // Back from "Verify GitHub account": no installation, only who the user is on GitHub.
      await services.github.verifyIdentity(owner, { state, code: code! });
      return reply.redirect(`${GITHUB_SETTINGS}?notice=github-verified`, 303);
    }
    const result = await services.github.completeInstall(owner, { installationId: rawId === undefined ? 0 : Number(rawId), setupAction, state, code });
    if (!result.recorded) return reply.redirect(`${GITHUB_SETTINGS}?notice=github-requested`, 303);
    return reply.redirect(`${GITHUB_SETTINGS}?installation=${result.installation!.id}&notice=github-connected`, 303);
  });
};
