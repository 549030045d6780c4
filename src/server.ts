import closeWithGrace from 'close-with-grace';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { setupUrl } from './auth/accounts.service.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { DEMO_SLUG, seedDemo } from './demo/seed.js';
import { requireSafeGit } from './git/version.js';
import { startWorker } from './jobs/worker.js';
import { applyHeapGrowth } from './ops/heap.js';
import { createServices } from './services.js';

export interface StartOptions {
  migrate: boolean;
}

/** Opens the database, applies migrations, listens, and shuts down gracefully on SIGTERM/SIGINT. */
export async function startServer(config: Config, options: StartOptions): Promise<FastifyInstance> {
  // The dashboard links repositories its users name (https URLs always, paths under
  // REPO_PATHS_ALLOWED), and this process asks git about them: no git that lets one run commands.
  const git = await requireSafeGit();
  applyHeapGrowth(config.heapGrowthPercent);
  // Creating the embedded database is the longest silence of a first start (PGlite's initdb, several
  // seconds on a small machine): say what is happening.
  if (config.database.kind === 'pglite' && !existsSync(join(config.database.dataDir, 'PG_VERSION'))) {
    console.log(`Creating the embedded database in ${config.database.dataDir} (first start only; this takes a few seconds)…`);
  }
  const database = await openDatabase(config.database, { timeoutMs: config.hardening.databaseTimeoutMs, throughServer: false });
  let app: FastifyInstance | undefined;
  try {
    if (options.migrate) await migrate(database);
    const services = createServices(database, config);
    const seeded = config.demoSeed ? await seedDemo(services) : false;
    app = await buildApp({ config, database, services });
    applyTimeouts(app, config);
    // The worker starts before listening so that /ready, once reachable, can vouch for it.
    if (config.workerInProcess) {
      const { resumed } = await startWorker(services);
      app.log.info({ resumed }, 'background worker running in this process');
    }
    // The CLI and a separate worker reach the embedded database through this process from now on.
    if (database.shareOverSocket) {
      try {
        const socket = await database.shareOverSocket({ publicUrl: config.publicUrl });
        app.log.info({ socket: socket.path }, 'embedded database shared with local processes');
      } catch (err) {
        // Serving matters more: the CLI then refuses while the server runs, as it did before sharing.
        app.log.warn({ err }, 'could not share the embedded database; CLI commands refuse while the server runs');
      }
    }
    await app.listen({ host: config.host, port: config.port });
    // Graceful from the moment it listens: a SIGTERM while the lines below still wait on the database
    // (the setup link) must finish requests in flight, not kill the process with them.
    const server = app;
    closeWithGrace({ delay: config.shutdownTimeoutMs }, async ({ signal, err }) => {
      if (err) server.log.error({ err }, 'shutting down after an error');
      else server.log.info({ signal }, 'shutting down');
      // Stops accepting, lets in-flight requests finish, then closes the database.
      await server.close();
      await database.close();
    });
    const where = config.database.kind === 'pglite' ? `embedded database in ${config.database.dataDir}` : 'PostgreSQL';
    app.log.info({ git }, `Changelog service on ${config.publicUrl} (${where})`);
    if (seeded) {
      console.log(`Demo changelog: ${config.publicUrl}/c/${DEMO_SLUG} (JSON: ${config.publicUrl}/v1/changelog/${DEMO_SLUG})`);
    }
    console.log(`Listening on ${config.publicUrl}`);
    console.log(`Dashboard: ${config.publicUrl}/dashboard — API reference: ${config.publicUrl}/docs`);
    // Only whoever sees this output can create the first account. The token is stored hashed; a restart
    // before setup prints a new link (earlier ones stay valid until they expire, 24 hours).
    const setup = await services.accounts.firstAccountSetupLink();
    if (setup) console.log(`Set up the dashboard: ${setupUrl(config.publicUrl, setup.token)} (works once, until ${setup.expiresAt.toISOString()})`);
  } catch (error) {
    // Ignored (both): start-up failed; its error is rethrown below and a close error would only hide it.
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }

  return app;
}

/**
 * Slow clients cannot hold sockets forever: headers must arrive within HEADERS_TIMEOUT_MS and the
 * whole request within REQUEST_TIMEOUT_MS (Node answers 408 and closes); idle keep-alive sockets close
 * after KEEP_ALIVE_TIMEOUT_MS, longer than a typical balancer's idle timeout (60 s) so it closes first.
 */
export function applyTimeouts(app: FastifyInstance, config: Config): void {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.hardening;
  app.server.requestTimeout = requestTimeoutMs;
  app.server.headersTimeout = Math.min(headersTimeoutMs, requestTimeoutMs);
  app.server.keepAliveTimeout = keepAliveTimeoutMs;
  // Node enforces the two timeouts on this sweep (every 30 s by default), so sweep often enough for them to mean something.
  // Settable until listen (Node reads it when the server starts listening); missing from @types/node.
  (app.server as typeof app.server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(250, Math.min(1_000, Math.floor(headersTimeoutMs / 4)));
}
