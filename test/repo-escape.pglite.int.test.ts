// Issue 21, through a real server process on the embedded default: a directory under
// REPO_PATHS_ALLOWED whose git reads another repository outside it (a commondir, a `.git` file, an
// alternates file) is refused when linked from the dashboard, and a linked checkout that grows a
// commondir afterwards fails its next sync; the other repository's commits never reach a page or
// the API. Only the installation owner may link paths; anyone else gets one answer for any path.
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout, makeEscape, SECRET_MESSAGE, secretRepo } from './helpers/git-escapes.js';
import { tempDir } from './helpers/git-fixtures.js';
import { httpSession } from './helpers/http-session.js';
import { startServerProcess, type ServerProcess } from './helpers/process.js';

let scratch: string;
let allowed: string;
let secret: { gitDir: string; sha: string };
let server: ServerProcess;
let owner: ReturnType<typeof httpSession>;
let member: ReturnType<typeof httpSession>;
const SLUG = 'escape-app';

/** The page's error notice (what the form echoes back aside). */
const noticeOf = (body: string) => /<div class="notice error" role="alert">([\s\S]*?)<\/div>/.exec(body)?.[1];

async function until<T>(what: string, probe: () => Promise<T | undefined>, seconds = 60): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${server.output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  scratch = realpathSync(tempDir('repo-escape'));
  allowed = join(scratch, 'allowed');
  mkdirSync(allowed);
  secret = secretRepo(join(scratch, 'secret'));
  server = await startServerProcess(
    {
      DATA_DIR: join(scratch, 'data'),
      REPO_PATHS_ALLOWED: allowed,
      SIGNUP_OPEN: 'true',
      // One address sends every request of the test, on a loaded machine.
      RATE_LIMIT_ENABLED: 'false',
      UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    },
    { startSeconds: 90 },
  );
  const setup = await until('the setup link', async () => /Set up the dashboard: \S+(\/dashboard\/setup\/[\w-]{43}) /.exec(server.output())?.[1]);
  owner = httpSession(server.url);
  await owner.request(setup);
  expect((await owner.request(setup, { name: 'Olga', email: 'olga@example.com', password: 'correct-horse-battery' })).status).toBe(303);
  await owner.request('/dashboard/personal');
  expect((await owner.request('/dashboard/personal/projects', { name: 'Escape app', slug: SLUG })).status).toBe(303);

  member = httpSession(server.url);
  await member.request('/dashboard/signup');
  expect((await member.request('/dashboard/signup', { name: 'Mallory', email: 'mallory@example.com', password: 'correct-horse-battery' })).status).toBe(303);
  await member.request('/login');
  expect((await member.request('/login', { email: 'mallory@example.com', password: 'correct-horse-battery' })).status).toBe(303);
  await member.request('/dashboard/personal');
  expect((await member.request('/dashboard/personal/projects', { name: 'Mallory app', slug: 'mallory-app' })).status).toBe(303);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const link = async (who: ReturnType<typeof httpSession>, slug: string, source: string) => {
  await who.request(`/dashboard/projects/${slug}`);
  return who.request(`/dashboard/projects/${slug}/repos`, { source, branch: '' });
};

/** Nothing of the secret repository anywhere the project shows. */
async function expectNoSecret(slug: string) {
  for (const path of [`/dashboard/projects/${slug}`, `/dashboard/projects/${slug}/review`]) {
    const page = await owner.request(path);
    expect(page.body, path).not.toContain(SECRET_MESSAGE);
    expect(page.body, path).not.toContain(secret.sha);
  }
  const api = await fetch(`${server.url}/v1/changelog/${slug}`);
  expect(await api.text()).not.toContain('secret roadmap');
}

describe('a repository that reads another outside REPO_PATHS_ALLOWED', () => {
  it.each(['commondir', 'gitfile', 'alternates'] as const)('%s: the installation owner linking it gets 400, and nothing is linked', async (variant) => {
    const dir = makeEscape(variant, allowed, secret);
    const res = await link(owner, SLUG, dir);
    expect(res.status).toBe(400);
    expect(noticeOf(res.body)).toMatch(/leads outside the allowed directories/);
    expect(res.body).not.toContain(join(scratch, 'secret'));
    expect((await owner.request(`/dashboard/projects/${SLUG}`)).body).toContain('No repository linked yet.');
    await expectNoSecret(SLUG);
  });

  it('a linked checkout that grows a commondir: its next sync fails with that reason and publishes nothing of the other repository', async () => {
    const work = join(allowed, 'app');
    checkout(work, ['feat: harmless change']);
    expect((await link(owner, SLUG, work)).status).toBe(303);
    await until('the first sync', async () => ((await owner.request(`/dashboard/projects/${SLUG}`)).body.includes('1 commits stored') ? true : undefined));

    writeFileSync(join(work, '.git', 'commondir'), `${secret.gitDir}\n`);
    const page = await owner.request(`/dashboard/projects/${SLUG}`);
    const id = /\/dashboard\/projects\/[\w-]+\/repos\/([0-9a-f-]{36})\/sync/.exec(page.body)![1]!;
    expect((await owner.request(`/dashboard/projects/${SLUG}/repos/${id}/sync`, {})).status).toBe(303);
    const failed = await until('the failed sync', async () => {
      const body = (await owner.request(`/dashboard/projects/${SLUG}`)).body;
      // The sync cell shows the count only when no sync is queued or running (a retry may follow the failure).
      const settled = /Last error: [^<]*commondir file leads outside the allowed directories/.test(body) && /\d+ commits stored/.test(body);
      return settled ? body : undefined;
    });
    expect(failed).toContain('1 commits stored');
    await expectNoSecret(SLUG);
  });
});

describe('who may link a local path', () => {
  it('anyone but the installation owner gets one answer, whether the path is a repository, missing or outside', async () => {
    const answers = new Set<string>();
    for (const source of [join(allowed, 'app'), join(allowed, 'missing'), secret.gitDir, '/etc']) {
      const res = await link(member, 'mallory-app', source);
      answers.add(JSON.stringify({ status: res.status, notice: noticeOf(res.body) }));
    }
    expect([...answers]).toHaveLength(1);
    expect([...answers][0]).toContain('Only the installation owner');
    expect((await member.request('/dashboard/projects/mallory-app')).body).toContain('No repository linked yet.');
  });
});
