import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyError } from 'fastify';
import type { SessionUser } from '../auth/auth.repository.js';
import type { Config } from '../config.js';
import { AppError, capDetails } from '../errors.js';
import { isPublicCache } from '../http/plugins/route-kind.js';
import { createAccess } from './access.js';
import { html } from '../html/html.js';
import type { DashboardServices, Kit } from './kit.js';
import { layout, type PageContext } from './views/layout.js';
import { authRoutes } from './auth.routes.js';
import { workspaceRoutes } from './workspace.routes.js';
import { keysRoutes } from './keys.routes.js';
import { projectsPages } from './projects.routes.js';
import { githubRoutes } from './github.routes.js';
import { generationPages } from './generation.routes.js';
import { releasesPages } from './releases.routes.js';
import { releaseEditorPages } from './release-editor.routes.js';
import { reviewPages } from './review.routes.js';
import { webhookPages } from './webhooks.routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardUser: SessionUser | null;
    /** The secret the CSRF token is derived from: the session token, or the pre-session cookie. */
    csrfKey: string | null;
  }
  interface FastifyContextConfig {
    /** Dashboard route reachable without signing in. */
    public?: boolean;
  }
}

export const SESSION_COOKIE = 'cl_session';
export const PRESESSION_COOKIE = 'cl_csrf';

const ASSETS_DIR = new URL('../../public/dashboard/', import.meta.url);

/**
 * Invitation and setup tokens travel in URLs; they must not reach a log line, also when the URL is
 * itself percent-encoded in a query (`/login?next=%2Fdashboard%2Finvites%2F<token>`).
 */
export function redactInviteTokens(url: string): string {
  return url.replace(/((?:\/|%2f)dashboard(?:\/|%2f)(?:invites|setup)(?:\/|%2f))(?:(?!%2f)[^/?#&])+/gi, '$1[redacted]');
}

export const NOTICES: Record<string, { kind: 'ok' | 'warn' | 'error'; text: string }> = {
  welcome: { kind: 'ok', text: 'Welcome! Your account is ready.' },
  'signed-out-everywhere': { kind: 'ok', text: 'Every other session of yours has been signed out.' },
  'password-changed': { kind: 'ok', text: 'Your password has been changed, and every other session of yours signed out.' },
  'signup-done': { kind: 'ok', text: 'Sign in with the e-mail and password you chose. (An e-mail that already had an account keeps its own password.)' },
  'org-created': { kind: 'ok', text: 'Organization created. You are its owner.' },
  'project-created': { kind: 'ok', text: 'Project created.' },
  'project-saved': { kind: 'ok', text: 'Project settings saved.' },
  'theme-saved': { kind: 'ok', text: 'Public page theme saved.' },
  'repo-linked': { kind: 'ok', text: 'Repository linked: its first sync is queued.' },
  'repo-sync-queued': { kind: 'ok', text: 'Sync queued.' },
  'repo-branch-changed': { kind: 'ok', text: 'Tracked branch changed: the repository is synced again.' },
  'github-publishing-saved': { kind: 'ok', text: 'GitHub publishing saved: it applies from the next publish, edit or pull request.' },
  'github-releases-retried': { kind: 'ok', text: 'GitHub Releases queued again: the waiting release notes are sent shortly.' },
  'repo-release-branches-changed': { kind: 'ok', text: 'Release branches saved: the repository is synced again when they changed.' },
  'repo-unlinked': { kind: 'ok', text: 'Repository unlinked. Its commits and entries stay.' },
  'repo-purged': { kind: 'ok', text: 'Repository unlinked and its commits deleted; entries made only from them are archived at the next generation.' },
  'project-deleted': { kind: 'ok', text: 'Project deleted, with its entries.' },
  'key-renamed': { kind: 'ok', text: 'Key renamed.' },
  'key-revoked': { kind: 'ok', text: 'Key revoked: it is refused from now on.' },
  'key-deleted': { kind: 'ok', text: 'Key deleted.' },
  'entry-saved': { kind: 'ok', text: 'Entry saved.' },
  'entry-published': { kind: 'ok', text: 'Entry published.' },
  'entry-draft': { kind: 'ok', text: 'Entry unpublished: it is a draft again.' },
  'entry-archived': { kind: 'ok', text: 'Entry archived.' },
  'revision-discarded': { kind: 'ok', text: 'New content discarded: readers keep seeing the published text.' },
  'entry-changed': { kind: 'error', text: 'Nothing was published: the entry changed since you opened it (new commits or another editor). Review what it holds now.' },
  'role-changed': { kind: 'ok', text: 'Role changed.' },
  'member-removed': { kind: 'ok', text: 'Member removed.' },
  'left-org': { kind: 'ok', text: 'You have left the organization.' },
  'invite-cancelled': { kind: 'ok', text: 'Invitation cancelled.' },
  joined: { kind: 'ok', text: 'You have joined the organization.' },
  'github-connected': { kind: 'ok', text: 'GitHub connected: the installation is listed below.' },
  'github-verified': { kind: 'ok', text: 'GitHub account verified: installations it can access can now be connected.' },
  'github-requested': { kind: 'warn', text: 'GitHub asked an organization owner to approve the installation; it appears here once approved.' },
  'generation-saved': { kind: 'ok', text: 'Generation settings saved; they apply from the next generation.' },
  'generation-saved-published': {
    kind: 'ok',
    text: 'Generation settings saved. The drafts a policy now set to auto held back are published (not those a person unpublished or edited).',
  },
  generated: { kind: 'ok', text: 'Changelog generated.' },
  'entry-regenerated': { kind: 'ok', text: 'Entry regenerated from its commits; the edit was dropped.' },
};

export interface DashboardOptions {
  services: DashboardServices;
  config: Config;
}

function csrfToken(key: string): string {
  return createHmac('sha256', key).update('changelog-dashboard-csrf').digest('base64url');
}

function sameToken(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

/**
 * The dashboard: server-rendered pages under /dashboard (and /login, /logout), in their own
 * encapsulated scope (cookies, form bodies, HTML errors) and hidden from /openapi.json.
 */
export const dashboardPlugin: FastifyPluginAsyncTypebox<DashboardOptions> = async (app, { services, config }) => {
  // Every dashboard answer depends on the session cookie (even public pages carry a CSRF token): none
  // may reach the response cache or its fast path, which answer anyone asking for the same URL.
  app.addHook('onRoute', (route) => {
    if (isPublicCache(route.config)) throw new Error(`${String(route.method)} ${route.url}: dashboard routes cannot declare config.publicCache`);
  });

  const secure = config.publicUrl.startsWith('https:');
  const cookieBase = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure };

  await app.register(cookie, { hook: 'onRequest' });
  await app.register(formbody, { bodyLimit: 2 * 1024 * 1024 });

  const assets = new Map<string, { body: Buffer; type: string }>();
  for (const [name, type] of [
    ['dashboard.css', 'text/css; charset=utf-8'],
    ['dashboard.js', 'text/javascript; charset=utf-8'],
  ] as const) {
    assets.set(name, { body: readFileSync(new URL(name, ASSETS_DIR)), type });
  }
  const version = (name: string) => createHash('sha256').update(assets.get(name)!.body).digest('hex').slice(0, 10);
  const assetUrls = { css: `/dashboard/assets/dashboard.css?v=${version('dashboard.css')}`, js: `/dashboard/assets/dashboard.js?v=${version('dashboard.js')}` };

  app.decorateRequest('dashboardUser', null);
  app.decorateRequest('csrfKey', null);

  app.addHook('onRequest', async (request, reply) => {
    // Stylesheets and scripts need no session lookup.
    if (request.routeOptions.url === '/dashboard/assets/:name') return;
    const token = request.cookies[SESSION_COOKIE];
    const user = token ? await services.accounts.resolveSession(token) : undefined;
    if (user && token) {
      request.dashboardUser = user;
      request.csrfKey = token;
    } else {
      if (token) reply.clearCookie(SESSION_COOKIE, cookieBase);
      let pre = request.cookies[PRESESSION_COOKIE];
      if (!pre || !/^[\w-]{32}$/.test(pre)) {
        pre = randomBytes(24).toString('base64url');
        reply.setCookie(PRESESSION_COOKIE, pre, cookieBase);
      }
      request.csrfKey = pre;
    }
    if (!request.dashboardUser && !request.routeOptions.config.public) {
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.redirect(`/login${next}`, 303);
    }
  });

  // Before body validation, so a forged request is refused whatever else is wrong with it.
  app.addHook('preValidation', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const sent = (request.body as Record<string, unknown> | undefined)?._csrf;
    if (typeof sent !== 'string' || !request.csrfKey || !sameToken(sent, csrfToken(request.csrfKey))) {
      throw new AppError('forbidden', 'This form has expired or did not come from this site. Reload the page and try again.');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // Signed-in pages (and the sign-in forms, with their CSRF token) are for this browser alone; only
    // the versioned static assets are shared.
    const asset = request.routeOptions.url === '/dashboard/assets/:name' && reply.statusCode === 200;
    if (!asset) reply.header('cache-control', 'private, no-store');
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // A page that shows the public page (the release preview) keeps that page's stricter policy: no script.
    if (!reply.hasHeader('content-security-policy') || reply.statusCode !== 200) {
      reply.header(
        'content-security-policy',
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
    }
    return payload;
  });

  const access = createAccess(services, config.repoLinks);
  const kit: Kit = {
    services,
    config,
    access,
    user(request) {
      if (!request.dashboardUser) throw new AppError('unauthorized', 'Please sign in');
      return request.dashboardUser;
    },
    csrf: (request) => csrfToken(request.csrfKey ?? ''),
    render(request, reply, title, body, options = {}) {
      const query = request.query as { notice?: unknown } | undefined;
      const notice = options.notice ?? (typeof query?.notice === 'string' ? NOTICES[query.notice] : undefined);
      const ctx: PageContext = {
        viewer: request.dashboardUser,
        csrf: kit.csrf(request),
        assets: assetUrls,
        section: options.section,
        notice,
      };
      if (options.retryAfterSeconds !== undefined) reply.header('retry-after', options.retryAfterSeconds);
      return reply
        .status(options.status ?? 200)
        .type('text/html; charset=utf-8')
        .send(layout(ctx, title, body).value);
    },
    startSession(reply, session) {
      reply.setCookie(SESSION_COOKIE, session.token, { ...cookieBase, expires: session.expiresAt });
      reply.clearCookie(PRESESSION_COOKIE, cookieBase);
    },
    clearSession(reply) {
      reply.clearCookie(SESSION_COOKIE, cookieBase);
    },
  };

  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status: number;
    let message: string;
    if (error instanceof AppError) {
      status = error.status;
      message = error.message;
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', error.retryAfterSeconds);
      if (error.details?.length) message += `: ${capDetails(error.details).map((d) => `${d.parameter ?? ''} ${d.message}`.trim()).join('; ')}`;
    } else if (error.validation) {
      status = 400;
      // Capped like the API's details: a form of a thousand unknown fields gets a page of 20 and a count.
      const problems = capDetails(error.validation.map((v) => ({ message: `${v.instancePath.slice(1) || 'form'} ${v.message ?? ''}` })));
      message = `The form was not filled in correctly (${problems.map((p) => p.message).join('; ')})`;
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      message = error.message;
    } else {
      status = 500;
      message = 'Something went wrong on our side. Please try again.';
      request.log.error({ err: error }, 'dashboard request failed');
    }
    if (status < 500) request.log.info({ status }, message);
    const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status === 429 ? 'Slow down' : 'Something is wrong';
    return kit.render(
      request,
      reply,
      title,
      html`<div class="panel"><h1>${title}</h1><p>${message}</p><p><a href="/dashboard">Back to the dashboard</a></p></div>`,
      { status },
    );
  });

  app.get(
    '/dashboard/assets/:name',
    { schema: { hide: true, params: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, config: { public: true } },
    async (request, reply) => {
      const asset = assets.get((request.params as { name: string }).name);
      if (!asset) throw new AppError('not_found', 'No such file');
      return reply.header('cache-control', 'public, max-age=31536000, immutable').type(asset.type).send(asset.body);
    },
  );

  await app.register(authRoutes, { kit });
  await app.register(workspaceRoutes, { kit });
  await app.register(keysRoutes, { kit });
  await app.register(projectsPages, { kit });
  await app.register(githubRoutes, { kit });
  await app.register(generationPages, { kit });
  await app.register(reviewPages, { kit });
  await app.register(releasesPages, { kit });
  await app.register(releaseEditorPages, { kit });
  await app.register(webhookPages, { kit });
};
