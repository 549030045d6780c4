import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/helpers/cli.js';

/** Runs `changelog …` in-process; these commands touch no database. */
const cli = (...args: string[]) => runCli(args);

describe('changelog --version', () => {
  it("prints the package's version and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      expect(await cli(flag)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});

describe('changelog preview --path of a path that does not exist', () => {
  it('says so, naming the path, and exits 1', async () => {
    const missing = join(tmpdir(), `no-such-repo-${process.pid}`);
    const { code, stdout, stderr } = await cli('preview', '--path', missing);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`error: No such directory: ${missing} (--path must name a git checkout or bare repository)\n`);
  });

  it('names a file given instead of a directory', async () => {
    const file = new URL('../../package.json', import.meta.url).pathname;
    const { code, stderr } = await cli('preview', '--path', file);
    expect(code).toBe(1);
    expect(stderr).toContain(`Not a directory: ${file}`);
  });
});
