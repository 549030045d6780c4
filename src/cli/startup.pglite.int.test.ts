import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDataDir } from '../../test/helpers/database.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { modulesLoadedBy } from '../../test/helpers/loaded-modules.js';

// A command that only reads and writes rows builds the core services (core-services.ts): no job
// queue, GitHub client, Markdown renderer, generation engine or HTTP app to load.

const scratch = tempDir('cli-core');

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('what a command on the database loads', () => {
  it('projects list: the core services only', { timeout: 120_000 }, async () => {
    const dataDir = join(scratch, 'data');
    await seedDataDir(dataDir);
    const { status, stdout, stderr, modules } = modulesLoadedBy(['projects', 'list'], { DATA_DIR: dataDir, NODE_ENV: 'test' });
    expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: 'No projects\n', stderr: '' });
    expect(modules.some((url) => url.endsWith('/src/core-services.ts'))).toBe(true);
    const beyond = [
      /\/src\/(app|server|services)\.ts$/,
      /\/src\/(github|webhooks|generation|repos)\/.*\.service\.ts$/,
      /\/src\/((jobs|queue)\/queue|generation\/engine\/engine|html\/markdown)/,
      /\/node_modules\/(fastify|pg-boss|@octokit|markdown-it)\//,
    ];
    expect(modules.filter((url) => beyond.some((pattern) => pattern.test(url)))).toEqual([]);
  });
});
