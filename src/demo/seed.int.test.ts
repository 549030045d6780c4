import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../services.js';
import { testConfig } from '../../test/helpers/config.js';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { DEMO_SLUG, seedDemo } from './seed.js';

let database: TestDatabase;
let services: Services;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database, testConfig());
  expect(await seedDemo(services)).toBe(true);
});
afterAll(async () => database?.close());

describe('the demo project', () => {
  it('has published entries whose content does not repeat their title', async () => {
    const project = await services.projects.findBySlug(DEMO_SLUG);
    const entries = await database.db.selectFrom('changelog_entries').select(['title', 'content', 'status']).where('project_id', '=', project!.id).execute();
    const published = entries.filter((e) => e.status === 'published');
    expect(published.length).toBeGreaterThanOrEqual(5);
    for (const entry of published) {
      expect(entry.title).toBeTruthy();
      expect(entry.content, entry.title!).not.toContain(entry.title);
      expect(entry.content, entry.title!).not.toMatch(/^## /m);
      expect(entry.content, entry.title!).toMatch(/^### /);
    }
  });
});
