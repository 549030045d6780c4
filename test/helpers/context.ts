import { testConfig } from './config.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createServices, type Services } from '../../src/services.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestContext {
  database: TestDatabase;
  services: Services;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** A fresh database and an app on it, for one test file. */
export async function createTestContext(env: Record<string, string> = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const config = testConfig({ ...env });
  const services = createServices(database, config);
  const app = await buildApp({ config, database, services });
  await app.ready();
  return {
    database,
    services,
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * A GET through `app.inject` for a file whose context is created in `beforeAll`:
 * `const get = getFrom(() => ctx)`, then `await get(url, headers)`.
 */
export const getFrom =
  (context: () => TestContext) =>
  (url: string, headers: Record<string, string> = {}) =>
    context().app.inject({ method: 'GET', url, headers });
