import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { MarkdownRenderer } from '../../html/markdown-thread.js';
import type { JobQueue } from '../../queue/queue.js';
import { AppError } from '../../errors.js';
import { bearerToken } from '../bearer.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Records one answered request in the metrics (method, route pattern, status, seconds); the fast path reports its hits here. */
export type ObserveRequest = (method: string, route: string, status: number, seconds: number) => void;

/** What the metrics read of the services besides the traffic, declared here so the plumbing names no domain. */
export interface MetricSources {
  jobs: Pick<JobQueue, 'counts' | 'failures'>;
  repos: { ingestLag(): Promise<{ project: string; repo: string; branch: string; seconds: number }[]> };
  markdown: Pick<MarkdownRenderer, 'stats'>;
  accounts: { passwordHashingStats(): { running: number; waiting: number; refused: number } };
}

/**
 * GET /metrics in the Prometheus text format: request counts and latency per route and status, the
 * database pool, and the process's own figures. It exists only when METRICS_TOKEN is set, and then
 * answers only `Authorization: Bearer <METRICS_TOKEN>` (one port to deploy; the scraper holds the
 * token). Routes are labelled by their pattern (`/v1/changelog/:slug`), never by the raw URL, so
 * the number of series stays bounded whatever clients send. With the services: the job queue's
 * depth and failures per queue, each linked repository's ingest lag, the Markdown render threads and
 * the password hashes running, waiting and refused.
 */
export async function registerMetrics(
  app: FastifyInstance,
  deps: { config: Config; database: Database; services?: MetricSources | undefined },
): Promise<ObserveRequest | undefined> {
  const token = deps.config.hardening.metricsToken;
  if (token === null) return undefined;

  // One registry per app instance (not prom-client's global one): tests build many apps per process.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const pool = new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on the embedded database',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = deps.database.poolStats();
      if (!stats) return;
      for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
    },
  });
  void pool;

  const services = deps.services;
  if (services) {
    new Gauge({
      name: 'job_queue_jobs',
      help: 'Background jobs per queue and state: created (waiting), retry (failed, waiting to retry), active, failed (gave up)',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
      async collect() {
        for (const { queue, state, count } of (await services.jobs.counts()) ?? []) this.set({ queue, state }, count);
      },
    });
    new Counter({
      name: 'job_failures_total',
      help: 'Job attempts that failed in this process (each is retried with backoff until the retry limit)',
      labelNames: ['queue'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [queue, count] of Object.entries(services.jobs.failures())) this.inc({ queue }, count);
      },
    });
    new Gauge({
      name: 'ingest_lag_seconds',
      help: 'Seconds since each linked repository last ingested successfully (since linking, if it never has)',
      labelNames: ['project', 'repo', 'branch'] as const,
      registers: [registry],
      async collect() {
        // Links come and go: only current ones are reported.
        this.reset();
        for (const { project, repo, branch, seconds } of await services.repos.ingestLag()) this.set({ project, repo, branch }, seconds);
      },
    });
    new Gauge({
      name: 'markdown_render_threads',
      help: 'Markdown render threads started, sources rendering in them, and sources waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const { threads, running, queued } = services.markdown.stats();
        this.set({ state: 'started' }, threads);
        this.set({ state: 'running' }, running);
        this.set({ state: 'queued' }, queued);
      },
    });
    new Gauge({
      name: 'password_hashes',
      help: 'Password hashes (sign-ins, sign-ups, password changes) running now, and waiting for their turn (PASSWORD_HASH_CONCURRENCY)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const { running, waiting } = services.accounts.passwordHashingStats();
        this.set({ state: 'running' }, running);
        this.set({ state: 'waiting' }, waiting);
      },
    });
    new Counter({
      name: 'password_hashes_refused_total',
      help: 'Password checks answered 503 because their turn would come (or did not come) within PASSWORD_HASH_MAX_WAIT_MS',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(services.accounts.passwordHashingStats().refused);
      },
    });
    new Counter({
      name: 'markdown_shown_as_text_total',
      help: 'Entry Markdown shown as escaped text instead of rendered: costly (past MARKDOWN_TIME_LIMIT_MS or the thread heap), busy (no thread in time)',
      labelNames: ['reason'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [reason, count] of Object.entries(services.markdown.stats().shownAsText)) this.inc({ reason }, count);
      },
    });
  }

  const observe: ObserveRequest = (method, route, status, seconds) => {
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    duration.observe(labels, seconds);
  };
  app.addHook('onResponse', async (request, reply) => {
    observe(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });

  const expected = digest(token);
  app.get('/metrics', { schema: { hide: true }, config: { internal: true } }, async (request, reply) => {
    const presented = bearerToken(request.headers.authorization);
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      throw new AppError('unauthorized', 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>"');
    }
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return registry.metrics();
  });
  return observe;
}
