// `changelog projects configure`, `changelog sync` (ingest, then generate) and `changelog generate`, run as a user would.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliSession, type CliSession } from '../../test/helpers/cli-session.js';
import { pushCommits } from '../../test/helpers/git-fixtures.js';
import { FakeTerminal } from '../../test/helpers/fake-terminal.js';

let session: CliSession;
let env: Record<string, string>;
let scratch: string;
let origin: string;

type Counts = Record<'commit' | 'daily' | 'weekly' | 'monthly', number>;
interface Summary { project: string; created: Counts; updated: Counts; unchanged: number }

const ESC = String.fromCharCode(27);

/**
 * Runs a process to its end without blocking this one (spawnSync would): the session's embedded database
 * answers the child's connections from this process.
 */
function run(command: string, args: string[], options: { env: NodeJS.ProcessEnv; timeout: number }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // As spawnSync: stdin a pipe at its end at once.
    const child = spawn(command, args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'], timeout: options.timeout });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function cli(...args: string[]) {
  return cliWith({}, ...args);
}

async function cliWith(extra: { progress?: FakeTerminal }, ...args: string[]) {
  return session.run(args, extra.progress ? { progress: extra.progress as unknown as NodeJS.WriteStream } : {});
}

beforeAll(async () => {
  // Shared: on the embedded database each command connects to the session's open database, as to a
  // running server, instead of starting it from cold (seconds a command); cli-embedded.pglite.int.test.ts
  // covers commands opening the data directory themselves.
  session = await startCliSession('gen-cli', { shared: true });
  ({ env, scratch, origin } = session);
  expect((await cli('repos', 'link', '--project', 'cliff', '--path', origin)).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await session?.close();
});

describe('changelog projects configure', () => {
  it('refuses bad settings with every problem named, and changes nothing', async () => {
    const bad = await cli('projects', 'configure', 'cliff', '--entry-types', 'weekly,yearly', '--timezone', 'Nowhere/Land', '--publish', 'maybe', '--summaries', 'sometimes', '--json');
    expect(bad.code).toBe(1);
    const error = JSON.parse(bad.stderr) as { code: string; details: { message: string }[] };
    expect(error.code).toBe('invalid_request');
    expect(error.details.map((d) => d.message).join('\n')).toMatch(/yearly[\s\S]*Nowhere\/Land[\s\S]*maybe[\s\S]*summaries must be off, review, auto \(got "sometimes"\)/);
    expect((await cli('projects', 'configure', 'nope', '--timezone', 'UTC')).code).toBe(1);
  });

  it('stores entry types, policies, time zone, sections, exclusions and path rules', async () => {
    const ok = await cli(
      'projects', 'configure', 'cliff', '--entry-types', 'commit,weekly,monthly', '--publish', 'weekly=auto,monthly=auto',
      '--timezone', 'America/New_York', '--sections', 'breaking,feature=New,fix', '--exclude-authors', '*[bot]*', '--path-rule', 'git-cliff-core/**=core', '--summaries', 'review', '--json',
    );
    expect(ok.code).toBe(0);
    const { settings } = ok.json<{ settings: { entryTypes: string[]; publish: Record<string, string>; timeZone: string; sections: { key: string; label: string; visible: boolean }[]; excludeAuthors: string[]; pathRules: unknown[] } }>();
    expect(settings.entryTypes).toEqual(['commit', 'weekly', 'monthly']);
    expect(settings.publish).toEqual({ commit: 'manual', daily: 'manual', weekly: 'auto', monthly: 'auto', release: 'manual' });
    expect(settings.timeZone).toBe('America/New_York');
    expect(settings.sections.filter((s) => s.visible).map((s) => [s.key, s.label])).toEqual([['breaking', 'Breaking changes'], ['feature', 'New'], ['fix', 'Bug fixes']]);
    expect(settings.excludeAuthors).toEqual(['*[bot]*']);
    expect(settings.pathRules).toHaveLength(1);
    expect(ok.json<{ settings: { summaries: string } }>().settings.summaries).toBe('review');
  });
});

describe('changelog projects configure: teams and the rest', () => {
  it('sets team rules by path and author, replaces each kind separately, clears them, and refuses malformed ones', async () => {
    type Teams = { settings: { teams: { team: string; paths?: string[]; authors?: string[] }[]; headlineLimit: number; pullRequestUrl: string | null } };
    const set = await cli(
      'projects', 'configure', 'cliff', '--team-rule', 'git-cliff-core/**=Core team', 'website/**=Docs', '--team-author', 'orhun*=Core team',
      '--headline-limit', '3', '--pull-request-url', 'https://github.com/orhun/git-cliff/pull/{number}', '--json',
    );
    expect(set.code).toBe(0);
    expect(set.json<Teams>().settings).toMatchObject({
      teams: [{ team: 'Core team', paths: ['git-cliff-core/**'], authors: ['orhun*'] }, { team: 'Docs', paths: ['website/**'] }],
      headlineLimit: 3,
      pullRequestUrl: 'https://github.com/orhun/git-cliff/pull/{number}',
    });
    // Author rules alone replace the author rules and keep the path rules.
    const authors = await cli('projects', 'configure', 'cliff', '--team-author', 'alice@example.com=QA', '--json');
    expect(authors.json<Teams>().settings.teams).toEqual([
      { team: 'Core team', paths: ['git-cliff-core/**'] }, { team: 'Docs', paths: ['website/**'] }, { team: 'QA', authors: ['alice@example.com'] },
    ]);
    const text = await cli('projects', 'configure', 'cliff', '--timezone', 'UTC');
    expect(text.stdout).toContain('teams Core team (git-cliff-core/**); Docs (website/**); QA (alice@example.com)');

    const bad = await cli('projects', 'configure', 'cliff', '--team-rule', 'no-team-here', '=Nobody', '--headline-limit', 'many', '--json');
    expect(bad.code).toBe(1);
    const error = JSON.parse(bad.stderr) as { code: string; error: string };
    expect(error.code).toBe('invalid_request');
    const worse = await cli('projects', 'configure', 'cliff', '--team-rule', 'no-team-here', '=Nobody', '--json');
    expect(JSON.parse(worse.stderr)).toMatchObject({ code: 'invalid_request', details: [{ message: expect.stringContaining('no-team-here') }, { message: expect.stringContaining('=Nobody') }] });
    expect((await cli('projects', 'configure', 'cliff', '--json')).json<Teams>().settings.teams).toHaveLength(3);

    const cleared = await cli('projects', 'configure', 'cliff', '--clear-teams', '--pull-request-url', 'none', '--json');
    expect(cleared.json<Teams>().settings).toMatchObject({ teams: [], pullRequestUrl: null, headlineLimit: 3 });
    expect((await cli('projects', 'configure', 'cliff')).stdout).toContain("no team rules; CODEOWNERS: the repository's, if any");

    // CODEOWNERS: the project's own file, none at all, or back to the repository's.
    const file = `${scratch}/CODEOWNERS`;
    writeFileSync(file, '/website/ @orhun/docs\n');
    const own = await cli('projects', 'configure', 'cliff', '--codeowners', file, '--json');
    expect(own.json<{ settings: { codeowners: string } }>().settings.codeowners).toBe('project');
    expect((await cli('projects', 'configure', 'cliff', '--codeowners', 'none')).stdout).toContain('CODEOWNERS: not used');
    expect((await cli('projects', 'configure', 'cliff', '--codeowners', 'repo', '--json')).json<{ settings: { codeowners: string } }>().settings.codeowners).toBe('repository');
    const missing = await cli('projects', 'configure', 'cliff', '--codeowners', `${scratch}/nope`, '--json');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr)).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('cannot read') });
  });
});

describe('changelog sync and generate', () => {
  it('sync ingests and then generates; generate again changes nothing; a push touches only its periods', async () => {
    const sync = await cli('sync', '--project', 'cliff', '--json');
    expect(sync.code).toBe(0);
    const first = sync.json<{ generated: Summary }>().generated;
    // Only breaking changes, features and fixes are shown.
    expect(first.created.commit).toBeGreaterThan(300);
    expect(first.created.weekly).toBeGreaterThan(50);
    expect(first.created.monthly).toBeGreaterThan(10);
    expect(first.created.daily).toBe(0);

    const again = await cli('generate', '--project', 'cliff', '--json');
    expect(again.code).toBe(0);
    expect(again.json<Summary>()).toMatchObject({ created: { commit: 0, daily: 0, weekly: 0, monthly: 0 }, updated: { commit: 0, daily: 0, weekly: 0, monthly: 0 } });

    pushCommits(origin, 1, { message: () => 'feat: something new' });
    const next = (await cli('sync', '--project', 'cliff', '--json')).json<{ added: number; generated: Summary }>();
    expect(next.added).toBe(1);
    expect(next.generated.created).toEqual({ commit: 1, daily: 0, weekly: 1, monthly: expect.any(Number) as number });

    const text = await cli('generate', '--project', 'cliff', '--since', '2020-01-01');
    expect(text.stdout).toMatch(/^cliff: 0 entries created \(none\), 0 updated \(none\), \d+ unchanged/);
    expect((await cli('generate', '--project', 'cliff', '--since', 'yesterday-ish', '--json')).code).toBe(1);
  }, 120_000);
});

describe('changelog generate on a terminal', () => {
  it('draws a progress bar on a terminal, none when output is not one, and none with --json', async () => {
    // Each run has entries to write: a changed time zone moves every rollup's period.
    expect((await cli('projects', 'configure', 'cliff', '--entry-types', 'commit,daily,weekly,monthly', '--timezone', 'Europe/Berlin')).code).toBe(0);
    const terminal = new FakeTerminal();
    const drawn = await cliWith({ progress: terminal }, 'generate', '--project', 'cliff');
    expect(drawn.code).toBe(0);
    expect(terminal.drawn).toMatch(/classifying commits \[[=-]+\] \d+\/\d+/);
    expect(terminal.drawn).toMatch(/storing entries +\[[=-]+\] \d+\/\d+/);
    expect(drawn.stdout).toMatch(/^cliff: \d+ entries created \(.*daily.*\)/);
    expect(drawn.stderr).toBe('');

    // Not a terminal (what the default io decides when stdout or stderr is not a TTY): no bar anywhere.
    expect((await cli('projects', 'configure', 'cliff', '--timezone', 'Asia/Tokyo')).code).toBe(0);
    const plain = await cli('generate', '--project', 'cliff');
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
    expect(plain.stdout).not.toContain(ESC);
    expect(plain.stdout).not.toMatch(/classifying commits|storing entries/);
    expect(plain.stdout.trim().split('\n')).toHaveLength(1);

    // --json on a terminal: stdout is exactly one JSON object, and nothing is drawn.
    expect((await cli('projects', 'configure', 'cliff', '--timezone', 'UTC')).code).toBe(0);
    const quiet = new FakeTerminal();
    const json = await cliWith({ progress: quiet }, 'generate', '--project', 'cliff', '--json');
    expect(json.code).toBe(0);
    expect(quiet.drawn).toBe('');
    expect(json.stderr).toBe('');
    const summary = JSON.parse(json.stdout) as Summary;
    expect(summary.updated.weekly + summary.created.weekly).toBeGreaterThan(0);
    expect(json.stdout.endsWith('}\n')).toBe(true);
  }, 120_000);

  // A real pseudo-terminal: `script` runs the CLI as a user would, so the default io's TTY check is what decides.
  it.skipIf(!existsSync('/usr/bin/script'))('draws the bar under a pseudo-terminal and not when piped', async () => {
    expect((await cli('projects', 'configure', 'cliff', '--timezone', 'America/Sao_Paulo')).code).toBe(0);
    const entry = fileURLToPath(new URL('../cli/main.ts', import.meta.url));
    const command = `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(entry)} generate --project cliff`;
    const childEnv = { ...process.env, ...env, COLUMNS: '120' };
    const tty = await run('/usr/bin/script', ['-qec', command, '/dev/null'], { env: childEnv, timeout: 90_000 });
    expect(tty.status).toBe(0);
    expect(tty.stdout).toMatch(/storing entries +\[[=-]+\] \d+\/\d+/);
    expect(tty.stdout).toMatch(/cliff: \d+ entries created/);

    expect((await cli('projects', 'configure', 'cliff', '--timezone', 'UTC')).code).toBe(0);
    const piped = await run(process.execPath, ['--import', 'tsx', entry, 'generate', '--project', 'cliff'], { env: childEnv, timeout: 90_000 });
    expect(piped.status).toBe(0);
    expect(piped.stdout + piped.stderr).not.toContain(ESC);
    expect(piped.stdout + piped.stderr).not.toMatch(/classifying commits|storing entries/);
    expect(piped.stdout).toMatch(/^cliff: \d+ entries created/);
  }, 120_000);
});
