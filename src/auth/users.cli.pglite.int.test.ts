// `changelog users invite` beside a running server, from a shell whose settings do not name its port
// (the server was started with PORT=…, the invite in another terminal): the link must point at the
// server that will answer it, not at the default port.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/helpers/cli.js';
import { seedDataDir } from '../../test/helpers/database.js';
import { tempDir } from '../../test/helpers/git-fixtures.js';
import { startServerProcess, type ServerProcess } from '../../test/helpers/process.js';

let scratch: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  scratch = tempDir('invite-beside-server');
  const dataDir = join(scratch, 'data');
  await seedDataDir(dataDir);
  server = await startServerProcess({ DATA_DIR: dataDir, REPOS_DIR: join(scratch, 'repos'), DEMO_SEED: 'false' }, { startSeconds: 90 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('changelog users invite beside a running server', () => {
  it("prints the server's own address (its PORT), not this shell's default, and the server answers the link", async () => {
    const port = new URL(server!.url).port;
    expect(port).not.toBe('3000');
    // Only the data directory: no PORT, no PUBLIC_URL, as in a second terminal.
    const env = { DATA_DIR: join(scratch, 'data'), NODE_ENV: 'test' };
    const invite = await runCli(['users', 'invite', 'ada@example.com', '--json'], { env });
    expect(invite.stderr).toBe('');
    expect(invite.code).toBe(0);
    const link = (JSON.parse(invite.stdout) as { setup_link: string }).setup_link;
    expect(link).toMatch(new RegExp(`^http://localhost:${port}/dashboard/setup/[\\w-]{43}$`));

    const page = await fetch(`${server!.url}${new URL(link).pathname}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('ada@example.com');

    const project = await runCli(['projects', 'create', '--name', 'Cliff', '--slug', 'cliff', '--owner', 'user:ada@example.com'], { env });
    expect(project.code).toBe(0);
    expect(project.stdout).toContain(`Public changelog: http://localhost:${port}/c/cliff`);
  });
});
