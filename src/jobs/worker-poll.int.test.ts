import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { waitFor } from '../../test/helpers/scm.js';
import { createServices, type Services } from '../services.js';
import { startWorker } from './worker.js';

// The worker reads REPO_POLL_INTERVAL_SECONDS from the configuration its services were made with,
// whoever starts it (the server, `changelog worker`, a test).
describe('polling of links without push webhooks', () => {
  let database: TestDatabase;
  const started: Services[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const services of started) await services.jobs.stop();
    await database?.close();
  });

  const startWith = async (seconds: string) => {
    const services = createServices(database, testConfig({ REPO_POLL_INTERVAL_SECONDS: seconds }), { jobs: { pollingIntervalSeconds: 0.5 } });
    started.push(services);
    await startWorker(services);
  };
  const polls = async () =>
    (await database.executeSql(`SELECT extract(epoch FROM start_after - created_on)::int AS delay FROM pgboss.job WHERE name = 'repo-poll'`)).rows.map((r) => Number(r.delay));

  it('is off with an interval of 0', async () => {
    await startWith('0');
    expect(await polls()).toEqual([]);
  });

  it('runs now, then every interval', async () => {
    await startWith('3600');
    // The first poll is due at once; once it ran, it scheduled the next one an interval later.
    const delays = await waitFor(async () => {
      const found = await polls();
      return found.some((d) => d >= 3590) ? found : undefined;
    }, 20_000, 'the next poll');
    expect(delays).toContain(0);
  });
});
