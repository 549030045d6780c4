import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError, type ErrorDetail } from '../errors.js';
import type { Kit } from './kit.js';
import { html } from '../html/html.js';
import { csrfField, field, formErrors, when } from './views/layout.js';

const Form = <T extends Record<string, ReturnType<typeof Type.String>>>(fields: T) =>
  Type.Object({ _csrf: Type.Optional(Type.String()), ...fields });
const Text = (maxLength = 1000) => Type.String({ maxLength });

const NextQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 500 })), notice: Type.Optional(Type.String({ maxLength: 40 })) });

/** Only paths inside the dashboard are followed after sign-in: no open redirect. */
function safeNext(next: string | undefined): string {
  return next && /^\/dashboard(\/[\w\-./?=&%]*)?$/.test(next) && !next.startsWith('//') ? next : '/dashboard';
}

export const authRoutes: FastifyPluginAsyncTypebox<{ kit: Kit }> = async (app, { kit }) => {
  const { services } = kit;

  const loginPage = (csrf: { csrf: string }, values: { email?: string; next?: string | undefined }, error?: string) => html`
<div class="auth panel">
  <h1>Sign in</h1>
  ${formErrors(error)}
  <form class="stack" method="post" action="/login">
    ${csrfField(csrf)}
    <input type="hidden" name="next" value="${values.next ?? ''}">
    ${field({ name: 'email', label: 'E-mail', type: 'email', value: values.email, required: true, autocomplete: 'username' })}
    ${field({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
    <div class="actions"><button type="submit">Sign in</button><a href="/dashboard/signup">Create an account</a></div>
  </form>
</div>`;

  app.get('/login', { schema: { hide: true, querystring: NextQuery }, config: { public: true } }, async (request, reply) => {
    if (request.dashboardUser) return reply.redirect(safeNext(request.query.next), 303);
    if ((await services.accounts.signUpState()).first) return reply.redirect('/dashboard/signup', 303);
    return kit.render(request, reply, 'Sign in', loginPage({ csrf: kit.csrf(request) }, { next: request.query.next }));
  });

  app.post(
    '/login',
    { schema: { hide: true, body: Form({ email: Text(320), password: Text(1000), next: Type.Optional(Text(500)) }) }, config: { public: true } },
    async (request, reply) => {
      const { email, password, next } = request.body;
      try {
        const session = await services.accounts.signIn({ email, password }, request.ip, request.headers['user-agent'] ?? null);
        kit.startSession(reply, session);
        return reply.redirect(safeNext(next), 303);
      } catch (error) {
        if (!(error instanceof AppError) || !['unauthorized', 'rate_limited', 'unavailable'].includes(error.code)) throw error;
        return kit.render(request, reply, 'Sign in', loginPage({ csrf: kit.csrf(request) }, { email, next }, error.message), {
          status: error.status,
          retryAfterSeconds: error.retryAfterSeconds,
        });
      }
    },
  );

  app.post('/logout', { schema: { hide: true, body: Form({}) }, config: { public: true } }, async (request, reply) => {
    const token = request.cookies.cl_session;
    if (token) await services.accounts.signOut(token);
    kit.clearSession(reply);
    return reply.redirect('/login', 303);
  });

  const signupFields = (values: Record<string, string | undefined>, details?: ErrorDetail[]) => html`
    ${field({ name: 'name', label: 'Name', value: values.name, errors: details, required: true, autocomplete: 'name' })}
    ${field({ name: 'email', label: 'E-mail', type: 'email', value: values.email, errors: details, required: true, autocomplete: 'username' })}
    ${field({ name: 'password', label: 'Password', type: 'password', errors: details, required: true, autocomplete: 'new-password', hint: 'At least 10 characters.' })}`;

  const signupPage = (csrf: string, values: Record<string, string | undefined> = {}, error?: AppError) => html`
<div class="auth panel">
  <h1>Create your account</h1>
  ${formErrors(error?.message, error?.details, ['name', 'email', 'password'])}
  <form class="stack" method="post" action="/dashboard/signup">
    ${csrfField({ csrf })}
    ${signupFields(values, error?.details)}
    <div class="actions"><button type="submit">Create account</button><a href="/login">I have an account</a></div>
  </form>
</div>`;

  const notSetUpPage = html`<div class="auth panel"><h1>Set up this installation</h1>
<p>This installation has no account yet. Its first account is created through the <strong>setup link</strong> the server
printed when it started (<code>Set up the dashboard: …/dashboard/setup/…</code>), or one made with
<code>changelog users invite you@example.com</code>. The link works once.</p></div>`;

  app.get('/dashboard/signup', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    if (request.dashboardUser) return reply.redirect('/dashboard', 303);
    const state = await services.accounts.signUpState();
    if (state.first) return kit.render(request, reply, 'Set up this installation', notSetUpPage, { status: 403 });
    if (!state.open) {
      return kit.render(
        request,
        reply,
        'Sign-up is closed',
        html`<div class="auth panel"><h1>Sign-up is closed</h1><p>New accounts join through an invitation link from an organization owner.</p><p><a href="/login">Sign in</a></p></div>`,
        { status: 403 },
      );
    }
    return kit.render(request, reply, 'Create your account', signupPage(kit.csrf(request)));
  });

  app.post(
    '/dashboard/signup',
    { schema: { hide: true, body: Form({ name: Text(300), email: Text(320), password: Text(1000) }) }, config: { public: true } },
    async (request, reply) => {
      const { name, email, password } = request.body;
      try {
        // The same answer whether or not the e-mail already had an account: nobody is signed in here.
        await services.accounts.signUp({ name, email, password }, request.ip);
        return reply.redirect('/login?notice=signup-done', 303);
      } catch (error) {
        if (!(error instanceof AppError) || error.code === 'forbidden') throw error;
        return kit.render(request, reply, 'Create your account', signupPage(kit.csrf(request), { name, email }, error), {
          status: error.status,
          retryAfterSeconds: error.retryAfterSeconds,
        });
      }
    },
  );

  const SetupParams = Type.Object({ token: Type.String({ maxLength: 100 }) });

  const setupPage = async (request: Parameters<Kit['csrf']>[0], token: string, values: Record<string, string | undefined> = {}, error?: AppError) => {
    const link = await services.accounts.setupLink(token);
    if (!link) throw new AppError('not_found', 'This setup link is invalid, used or expired');
    const csrf = kit.csrf(request);
    return html`
<div class="auth panel">
  <h1>${link.user ? 'Choose your password' : 'Set up this installation'}</h1>
  ${link.user
    ? html`<p>Choose the password of <strong>${link.user.email}</strong>. The link works once.</p>`
    : html`<p class="hint">The first account becomes the installation's owner. The link works once. (To take over the seeded demo project, use <code>demo@example.com</code>.)</p>`}
  ${formErrors(error?.message, error?.details, ['name', 'email', 'password'])}
  <form class="stack" method="post" action="/dashboard/setup/${token}">
    ${csrfField({ csrf })}
    ${link.user
      ? field({ name: 'password', label: 'Password', type: 'password', errors: error?.details, required: true, autocomplete: 'new-password', hint: 'At least 10 characters.' })
      : signupFields(values, error?.details)}
    <div class="actions"><button type="submit">${link.user ? 'Set password' : 'Create account'}</button></div>
  </form>
</div>`;
  };

  app.get('/dashboard/setup/:token', { schema: { hide: true, params: SetupParams }, config: { public: true } }, async (request, reply) =>
    kit.render(request, reply, 'Set up', await setupPage(request, request.params.token)),
  );

  app.post(
    '/dashboard/setup/:token',
    {
      schema: { hide: true, params: SetupParams, body: Form({ name: Type.Optional(Text(300)), email: Type.Optional(Text(320)), password: Text(1000) }) },
      config: { public: true },
    },
    async (request, reply) => {
      const { token } = request.params;
      const { name, email, password } = request.body;
      try {
        const session = await services.accounts.completeSetup(token, { name, email, password }, request.ip, request.headers['user-agent'] ?? null);
        kit.startSession(reply, session);
        return reply.redirect('/dashboard?notice=welcome', 303);
      } catch (error) {
        if (!(error instanceof AppError) || (error.code !== 'invalid_request' && error.code !== 'unavailable')) throw error;
        return kit.render(request, reply, 'Set up', await setupPage(request, token, { name, email }, error), {
          status: error.status,
          retryAfterSeconds: error.retryAfterSeconds,
        });
      }
    },
  );

  const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });

  const invitePage = async (request: Parameters<Kit['csrf']>[0], token: string, values: Record<string, string | undefined> = {}, error?: AppError) => {
    const invite = await services.orgs.findInvite(token);
    if (!invite) throw new AppError('not_found', 'This invitation link is invalid, used or expired');
    const user = request.dashboardUser;
    const csrf = kit.csrf(request);
    return html`
<div class="auth panel">
  <h1>Join ${invite.org_name}</h1>
  <p>You are invited to <strong>${invite.org_name}</strong> as <span class="badge ${invite.role}">${invite.role}</span>. The link works once and expires ${when(invite.expires_at)}.</p>
  ${formErrors(error?.message, error?.details, ['name', 'email', 'password'])}
  <form class="stack" method="post" action="/dashboard/invites/${token}">
    ${csrfField({ csrf })}
    ${user ? html`<p>Signed in as ${user.email}.</p>` : html`<p class="hint">Create your account, or enter the e-mail and password of the account you have (or <a href="/login?next=${encodeURIComponent(`/dashboard/invites/${token}`)}">sign in</a> first).</p>${signupFields(values, error?.details)}`}
    <div class="actions"><button type="submit">${user ? 'Join' : 'Create account and join'}</button></div>
  </form>
</div>`;
  };

  app.get('/dashboard/invites/:token', { schema: { hide: true, params: TokenParams }, config: { public: true } }, async (request, reply) =>
    kit.render(request, reply, 'Invitation', await invitePage(request, request.params.token)),
  );

  app.post(
    '/dashboard/invites/:token',
    {
      schema: { hide: true, params: TokenParams, body: Form({ name: Type.Optional(Text(300)), email: Type.Optional(Text(320)), password: Type.Optional(Text(1000)) }) },
      config: { public: true },
    },
    async (request, reply) => {
      const { token } = request.params;
      const user = request.dashboardUser;
      if (user) {
        const membership = await services.orgs.acceptInvite(token, user.id);
        return reply.redirect(`/dashboard/orgs/${membership.org.slug}?notice=joined`, 303);
      }
      const { name = '', email = '', password = '' } = request.body;
      try {
        const session = await services.accounts.joinByInvite(token, { name, email, password }, request.ip, request.headers['user-agent'] ?? null);
        kit.startSession(reply, session);
        return reply.redirect('/dashboard?notice=joined', 303);
      } catch (error) {
        if (!(error instanceof AppError) || error.code === 'not_found') throw error;
        return kit.render(request, reply, 'Invitation', await invitePage(request, token, { name, email }, error), {
          status: error.status,
          retryAfterSeconds: error.retryAfterSeconds,
        });
      }
    },
  );

  app.get('/dashboard/account', { schema: { hide: true } }, async (request, reply) => {
    const user = kit.user(request);
    const sessions = await services.accounts.sessionCount(user.id);
    const csrf = kit.csrf(request);
    return kit.render(
      request,
      reply,
      'Account',
      html`<h1>Account</h1><p class="subtitle">${user.name} · ${user.email}${user.is_instance_owner ? html` · <span class="badge owner">installation owner</span>` : ''}</p>
<div class="grid">
<section class="panel" aria-labelledby="sessions-h"><h2 id="sessions-h">Sessions</h2>
  <p>You are signed in on ${sessions} ${sessions === 1 ? 'browser' : 'browsers'}.</p>
  <form method="post" action="/dashboard/account/sign-out-others">${csrfField({ csrf })}<button class="secondary" type="submit">Sign out all other sessions</button></form>
</section>
<section class="panel" aria-labelledby="pw-h"><h2 id="pw-h">Change password</h2>
  <form class="stack" method="post" action="/dashboard/account/password">${csrfField({ csrf })}
    ${field({ name: 'current_password', label: 'Current password', type: 'password', required: true, autocomplete: 'current-password' })}
    ${field({ name: 'new_password', label: 'New password', type: 'password', required: true, autocomplete: 'new-password', hint: 'At least 10 characters.' })}
    <div><button type="submit">Change password</button></div>
  </form>
</section></div>`,
      { section: 'account' },
    );
  });

  app.post('/dashboard/account/sign-out-others', { schema: { hide: true, body: Form({}) } }, async (request, reply) => {
    const user = kit.user(request);
    await services.accounts.signOutEverywhere(user.id);
    // This browser stays signed in with a fresh session.
    kit.startSession(reply, await services.accounts.startSession(user.id, request.headers['user-agent'] ?? null));
    return reply.redirect('/dashboard/account?notice=signed-out-everywhere', 303);
  });

  app.post(
    '/dashboard/account/password',
    { schema: { hide: true, body: Form({ current_password: Text(1000), new_password: Text(1000) }) } },
    async (request, reply) => {
      const user = kit.user(request);
      // Every other session of the user ends; this one stays.
      await services.accounts.changePassword(user, request.body.current_password, request.body.new_password, request.ip);
      return reply.redirect('/dashboard/account?notice=password-changed', 303);
    },
  );
};
