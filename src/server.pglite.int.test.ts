// What a newcomer's first `npm start` prints: the embedded database being created (the longest
// silence of a first start), then where the demo's public changelog is; and a restart says nothing
// about creating it again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../test/helpers/process.js';

let dataRoot: string;

beforeAll(() => {
  dataRoot = mkdtempSync(join(tmpdir(), 'changelog-first-start-'));
});

afterAll(() => {
  rmSync(dataRoot, { recursive: true, force: true });
});

describe('first start on the embedded database', () => {
  it('says it creates the database, prints the demo public page that then answers, and only the first time', async () => {
    const dataDir = join(dataRoot, 'data');
    const first = await startServerProcess({ DATA_DIR: dataDir });
    try {
      const output = first.output();
      expect(output).toContain(`Creating the embedded database in ${dataDir} (first start only`);
      expect(output.indexOf('Creating the embedded database')).toBeLessThan(output.indexOf('Listening on'));
      const demo = /^Demo changelog: (\S+) \(JSON: \S+\/v1\/changelog\/demo\)$/m.exec(output)?.[1];
      expect(demo).toMatch(/\/c\/demo$/);
      const page = await fetch(`${first.url}${new URL(demo!).pathname}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Demo changelog');
    } finally {
      await first.stop();
    }

    const again = await startServerProcess({ DATA_DIR: dataDir });
    try {
      expect(again.output()).not.toContain('Creating the embedded database');
      expect(again.output()).not.toContain('Demo changelog:');
    } finally {
      await again.stop();
    }
  }, 120_000);
});
