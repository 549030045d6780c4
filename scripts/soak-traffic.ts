import { spawn } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createServices, type Services } from '../src/services.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface SoakOptions {
  /** A PostgreSQL server URL; the soak creates (and drops) its own database there. */
  adminUrl: string;
  durationMs: number;
  /** Concurrent public readers; authenticated readers are half as many. */
  readers?: number;
  log?: (line: string) => void;
}

export interface SoakReport {
  durationMs: number;
  requests: number;
  byStatus: Record<string, number>;
  fiveXx: number;
  transportErrors: number;
  /** Response time percentiles over every request, in milliseconds. */
  latencyMs: Record<'public' | 'authenticated', { p50: number; p99: number; max: number }>;
  /** Longest time from a change being committed to the server answering accordingly, per change kind. */
  visibilityMs: Record<'publish' | 'unpublish' | 'revoke', { count: number; max: number; timeouts: number }>;
  /**
   * Signed GitHub webhook deliveries (pushes to a repository nobody linked): `acknowledged` answered 2xx,
   * `redelivered` repeats of a delivery id answered 2xx as duplicates, `unexpected` anything else.
   */
  webhooks: { sent: number; acknowledged: number; redelivered: number; unexpected: number };
}

/** The webhook secret of the soak's server: deliveries are signed with it like GitHub signs them. */
const SOAK_WEBHOOK_SECRET = randomBytes(16).toString('hex');

const VISIBILITY_TIMEOUT_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Mixed traffic against one real server process on PostgreSQL: public reads (with conditional
 * requests), authenticated reads, entries published and unpublished, keys created and revoked. Changes
 * are made the way the CLI makes them (services on the same database, another process than the
 * server), and the time until the server's answers reflect each change is measured.
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const name = `changelog_soak_${randomBytes(5).toString('hex')}`;
  await admin(options.adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(options.adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), readUrl: null, poolMax: 4 });
  let server: ReturnType<typeof spawn> | undefined;
  try {
    await migrate(database);
    const services = createServices(database);
    const seed = await seedData(services);
    log(`seeded ${seed.slugs.length} projects, ${seed.published.length} published and ${seed.drafts.length} draft entries`);

    const port = await freePort();
    let output = '';
    server = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/run-cli.ts', 'serve', '--no-migrate'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        LOG_LEVEL: 'error',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: url.toString(),
        DEMO_SEED: 'false',
        GITHUB_WEBHOOK_SECRET: SOAK_WEBHOOK_SECRET,
        // One client address sends everything: limits high enough to measure the service, not the limiter.
        RATE_LIMIT_PUBLIC_MAX: '1000000',
        RATE_LIMIT_AUTHENTICATED_MAX: '1000000',
        RATE_LIMIT_AUTH_FAILURES_MAX: '1000000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (c) => (output += String(c)));
    server.stderr!.on('data', (c) => (output += String(c)));
    const base = `http://127.0.0.1:${port}`;
    await waitUntilUp(base, server, () => output);
    log(`server up at ${base}; ${options.durationMs / 1000} s of traffic`);

    const report: SoakReport = {
      durationMs: options.durationMs,
      requests: 0,
      byStatus: {},
      fiveXx: 0,
      transportErrors: 0,
      latencyMs: { public: { p50: 0, p99: 0, max: 0 }, authenticated: { p50: 0, p99: 0, max: 0 } },
      visibilityMs: {
        publish: { count: 0, max: 0, timeouts: 0 },
        unpublish: { count: 0, max: 0, timeouts: 0 },
        revoke: { count: 0, max: 0, timeouts: 0 },
      },
      webhooks: { sent: 0, acknowledged: 0, redelivered: 0, unexpected: 0 },
    };
    const request = async (path: string, headers: Record<string, string> = {}): Promise<Response | undefined> => {
      report.requests++;
      const started = performance.now();
      try {
        const res = await fetch(base + path, { headers });
        await res.arrayBuffer();
        (path.startsWith('/v1/projects') ? authLatencies : latencies).push(performance.now() - started);
        report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1;
        if (res.status >= 500) report.fiveXx++;
        return res;
      } catch {
        report.transportErrors++;
        return undefined;
      }
    };
    /** Polls until `check` holds; records how long that took after the change committed. */
    const measure = async (kind: keyof SoakReport['visibilityMs'], committedAt: number, check: () => Promise<boolean>) => {
      while (performance.now() - committedAt < VISIBILITY_TIMEOUT_MS) {
        if (await check()) {
          const stat = report.visibilityMs[kind];
          stat.count++;
          stat.max = Math.max(stat.max, performance.now() - committedAt);
          return;
        }
        await sleep(10);
      }
      report.visibilityMs[kind].timeouts++;
    };

    const until = performance.now() + options.durationMs;
    const running = () => performance.now() < until;
    const readers = options.readers ?? 6;
    const etags = new Map<string, string>();
    const latencies: number[] = [];
    const authLatencies: number[] = [];

    const publicReader = async () => {
      while (running()) {
        const slug = pick(seed.slugs);
        const entry = pick(seed.published);
        const path = `/v1/changelog/${slug}?limit=${1 + Math.floor(Math.random() * 50)}`;
        const etag = etags.get(path);
        const res = await request(path, etag && Math.random() < 0.5 ? { 'if-none-match': etag } : {});
        const tag = res?.headers.get('etag');
        if (tag) etags.set(path, tag);
        await request(`/v1/changelog/${entry.slug}/entries/${entry.id}`);
      }
    };
    const authReader = async () => {
      while (running()) await request('/v1/projects?entries_limit=20', { authorization: `Bearer ${pick(seed.keys)}` });
    };
    const publisher = async () => {
      while (running()) {
        const entry = pick(seed.drafts);
        const path = `/v1/changelog/${entry.slug}/entries/${entry.id}`;
        await services.entries.publish(entry.id);
        await measure('publish', performance.now(), async () => (await request(path))?.status === 200);
        await services.entries.unpublish(entry.id);
        await measure('unpublish', performance.now(), async () => (await request(path))?.status === 404);
        await sleep(50);
      }
    };
    const revoker = async () => {
      while (running()) {
        const { key, secret } = await services.keys.create({ name: 'soak', context: { type: 'user', email: seed.email } });
        await request('/v1/projects', { authorization: `Bearer ${secret}` });
        await services.keys.revoke(key.id);
        await measure('revoke', performance.now(), async () => (await request('/v1/projects', { authorization: `Bearer ${secret}` }))?.status === 401);
        await sleep(50);
      }
    };

    /** GitHub's side: signed push deliveries, now and then the same delivery again (GitHub redelivers). */
    const webhooker = async () => {
      let last: { id: string; body: string } | undefined;
      while (running()) {
        const redeliver = last !== undefined && Math.random() < 0.2;
        const delivery = redeliver
          ? last!
          : {
              id: randomUUID(),
              body: JSON.stringify({
                ref: 'refs/heads/main',
                after: randomBytes(20).toString('hex'),
                repository: { name: 'not-linked', owner: { login: 'soak' } },
                installation: { id: 1 },
              }),
            };
        last = delivery;
        report.requests++;
        report.webhooks.sent++;
        try {
          const res = await fetch(`${base}/webhooks/github`, {
            method: 'POST',
            body: delivery.body,
            headers: {
              'content-type': 'application/json',
              'x-github-event': 'push',
              'x-github-delivery': delivery.id,
              'x-hub-signature-256': `sha256=${createHmac('sha256', SOAK_WEBHOOK_SECRET).update(delivery.body).digest('hex')}`,
            },
          });
          const answer = (await res.json().catch(() => ({}))) as { duplicate?: boolean };
          report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1;
          if (res.status >= 500) report.fiveXx++;
          if (res.ok && redeliver && answer.duplicate === true) report.webhooks.redelivered++;
          else if (res.ok && !redeliver) report.webhooks.acknowledged++;
          else report.webhooks.unexpected++;
        } catch {
          report.transportErrors++;
        }
        await sleep(20);
      }
    };

    await Promise.all([
      webhooker(),
      ...Array.from({ length: readers }, publicReader),
      ...Array.from({ length: Math.max(1, Math.floor(readers / 2)) }, authReader),
      publisher(),
      revoker(),
    ]);
    const percentiles = (values: number[]) => {
      values.sort((a, b) => a - b);
      const at = (q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
      return { p50: at(0.5), p99: at(0.99), max: values.at(-1) ?? 0 };
    };
    report.latencyMs = { public: percentiles(latencies), authenticated: percentiles(authLatencies) };
    return report;
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await database.close();
    await admin(options.adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

async function waitUntilUp(base: string, child: ReturnType<typeof spawn>, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output()}`);
    try {
      if ((await fetch(`${base}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server did not become ready:\n${output()}`);
}

async function seedData(services: Services) {
  const email = `soak-${randomBytes(3).toString('hex')}@example.com`;
  await services.users.create({ email, name: 'Soak' });
  const slugs: string[] = [];
  const published: { id: string; slug: string }[] = [];
  const drafts: { id: string; slug: string }[] = [];
  for (let p = 0; p < 5; p++) {
    const slug = `soak-${p}`;
    await services.projects.create({ name: `Soak ${p}`, slug, owner: { type: 'user', email } });
    slugs.push(slug);
    const entries = Array.from({ length: 40 }, (_, i) => ({
      entry_type: 'commit',
      status: i < 30 ? 'published' : 'draft',
      ...(i < 30 ? { published_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() } : {}),
      title: `Change ${i}`,
      content: `Body of change ${i} of ${slug}`,
    }));
    const { ids } = await services.entries.import(slug, entries);
    ids.forEach((id, i) => (i < 30 ? published : drafts).push({ id, slug }));
  }
  const keys: string[] = [];
  for (let k = 0; k < 4; k++) keys.push((await services.keys.create({ name: `reader-${k}`, context: { type: 'user', email } })).secret);
  return { email, slugs, published, drafts, keys };
}

/** The report as lines for people. */
export function formatSoakReport(report: SoakReport): string {
  const v = report.visibilityMs;
  const visibility = (k: keyof typeof v) =>
    `${k}: ${v[k].count} changes, longest ${v[k].max.toFixed(0)} ms${v[k].timeouts ? `, ${v[k].timeouts} NOT visible within ${VISIBILITY_TIMEOUT_MS} ms` : ''}`;
  return [
    `duration: ${(report.durationMs / 1000).toFixed(0)} s`,
    `requests: ${report.requests} (${(report.requests / (report.durationMs / 1000)).toFixed(0)}/s)`,
    `by status: ${Object.entries(report.byStatus).map(([s, n]) => `${s}: ${n}`).join(', ')}`,
    ...(['public', 'authenticated'] as const).map((kind) => {
      const l = report.latencyMs[kind];
      return `latency (${kind}): p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(0)} ms`;
    }),
    `5xx: ${report.fiveXx}; transport errors: ${report.transportErrors}`,
    `visibility — ${visibility('publish')}; ${visibility('unpublish')}; ${visibility('revoke')}`,
    `webhooks (signed pushes): ${report.webhooks.sent} sent, ${report.webhooks.acknowledged} acknowledged, ${report.webhooks.redelivered} redeliveries recognised, ${report.webhooks.unexpected} unexpected answers`,
  ].join('\n');
}
