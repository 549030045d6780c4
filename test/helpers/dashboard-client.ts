import type { FastifyInstance } from 'fastify';
import type { Services } from '../../src/services.js';

export interface PageResponse {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
  location: string | undefined;
  setCookies: string[];
}

/**
 * A minimal browser over `app.inject` for dashboard tests: keeps cookies, remembers the CSRF
 * token of the last page it loaded, and posts forms the way a browser does.
 */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;

  /** `remoteAddress`: the client address the server sees (sign-in limits count per address). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress?: string,
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(raw: string | string[] | number | undefined): string[] {
    const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
    for (const line of list) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return list;
  }

  private wrap(res: Awaited<ReturnType<FastifyInstance['inject']>>): PageResponse {
    const setCookies = this.remember(res.headers['set-cookie']);
    const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
    if (token) this.csrf = token;
    return { status: res.statusCode, body: res.body, headers: res.headers, location: res.headers.location as string | undefined, setCookies };
  }

  async get(url: string): Promise<PageResponse> {
    return this.wrap(await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader() }, ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}) }));
  }

  /** Posts a form; `_csrf` is the last page's token unless the form names its own (or `null` for none). */
  async post(url: string, form: Record<string, string | string[] | null> = {}): Promise<PageResponse> {
    const params = new URLSearchParams();
    const withToken = '_csrf' in form ? form : { _csrf: this.csrf ?? '', ...form };
    for (const [key, value] of Object.entries(withToken)) {
      if (value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
    }
    return this.wrap(
      await this.app.inject({
        method: 'POST',
        url,
        headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: params.toString(),
        ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      }),
    );
  }

  /** Loads `page` for its CSRF token, then posts `form` to `action`. */
  async submit(page: string, action: string, form: Record<string, string | string[] | null> = {}): Promise<PageResponse> {
    await this.get(page);
    return this.post(action, form);
  }

  /** Open sign-up (SIGNUP_OPEN), which signs nobody in, then the sign-in; the sign-up's answer when it failed. */
  async signUp(user: { name?: string; email: string; password?: string }): Promise<PageResponse> {
    const password = user.password ?? 'correct-horse-battery';
    const res = await this.submit('/dashboard/signup', '/dashboard/signup', { name: user.name ?? 'Test User', email: user.email, password });
    if (res.location !== '/login?notice=signup-done') return res;
    return this.signIn(user.email, password);
  }

  /** Creates the installation's first account through a setup link, as its operator would. */
  async setUp(services: Services, user: { name?: string; email: string; password?: string }): Promise<PageResponse> {
    const link = await services.accounts.firstAccountSetupLink();
    if (!link) throw new Error('the installation already has its first account');
    return this.submit(`/dashboard/setup/${link.token}`, `/dashboard/setup/${link.token}`, {
      name: user.name ?? 'Test User',
      email: user.email,
      password: user.password ?? 'correct-horse-battery',
    });
  }

  async signIn(email: string, password = 'correct-horse-battery'): Promise<PageResponse> {
    return this.submit('/login', '/login', { email, password });
  }
}

/** The secret on a "key created" or "key rotated" page. */
export function secretOn(page: PageResponse): string {
  const secret = /id="new-secret"[^>]*value="(clk_[0-9A-Za-z]+)"/.exec(page.body)?.[1];
  if (!secret) throw new Error(`no secret on the page (status ${page.status})`);
  return secret;
}

export type Person = 'alice' | 'bob' | 'carol' | 'dave';

/**
 * Four signed-in dashboard users: alice is the installation's first account (a setup link), the others
 * sign up (SIGNUP_OPEN). alice creates organization `acme` and `roles` adds the others to it.
 */
export async function signUpTeam(
  app: FastifyInstance,
  services: Services,
  roles: Partial<Record<Exclude<Person, 'alice'>, 'admin' | 'member'>>,
): Promise<Record<Person, DashboardClient>> {
  const people = {} as Record<Person, DashboardClient>;
  for (const name of ['alice', 'bob', 'carol', 'dave'] as const) {
    people[name] = new DashboardClient(app);
    const user = { name, email: `${name}@example.com` };
    const signedUp = await (name === 'alice' ? people[name].setUp(services, user) : people[name].signUp(user));
    if (signedUp.status !== 303) throw new Error(`${name} could not sign up: ${signedUp.status}`);
  }
  await people.alice.submit('/dashboard', '/dashboard/orgs', { name: 'Acme', slug: 'acme' });
  const db = services.database.db;
  const users = await db.selectFrom('users').select(['id', 'email']).execute();
  const idOf = (name: Person) => users.find((u) => u.email === `${name}@example.com`)!.id;
  const org = await services.orgs.membership('acme', idOf('alice'));
  const members = Object.entries(roles).map(([name, role]) => ({ organization_id: org.org.id, user_id: idOf(name as Person), role }));
  if (members.length) await db.insertInto('organization_members').values(members).execute();
  return people;
}
