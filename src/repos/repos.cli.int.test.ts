import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliSession, type CliSession } from '../../test/helpers/cli-session.js';
import { FakeTerminal } from '../../test/helpers/fake-terminal.js';
import { DATASET_COMMITS, pushCommits, removeRepoCopy, revParse, smallRepo } from '../../test/helpers/git-fixtures.js';

let session: CliSession;
let origin: string;

const cli = (...args: string[]) => session.run(args);

beforeAll(async () => {
  session = await startCliSession('cli');
  origin = session.origin;
});

afterAll(async () => {
  await session?.close();
});

describe('changelog repos and sync', () => {
  it('links a local repository, and linking it again returns the same link', async () => {
    const first = await cli('repos', 'link', '--project', 'cliff', '--path', origin, '--json');
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ kind: 'local', trackedBranch: 'main', status: 'pending', sourceUrl: origin, created: true });
    const again = await cli('repos', 'link', '--project', 'cliff', '--path', origin, '--json');
    expect(again.json()).toMatchObject({ id: first.json().id, created: false });
  });

  it('refuses an invalid branch, a missing directory and an unknown project', async () => {
    const badBranch = await cli('repos', 'link', '--project', 'cliff', '--path', origin, '--branch', 'a..b', '--json');
    expect(badBranch.code).toBe(1);
    expect(JSON.parse(badBranch.stderr)).toMatchObject({ code: 'invalid_request' });
    const missing = await cli('repos', 'link', '--project', 'cliff', '--path', `${session.scratch}/nothing-here`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No directory/);
    const unknown = await cli('repos', 'link', '--project', 'nope', '--path', origin);
    expect(unknown.code).toBe(1);
  });

  it('syncs now: every commit once, then only what is new', async () => {
    const first = await cli('sync', '--project', 'cliff', '--json');
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ project: 'cliff', added: DATASET_COMMITS, commits: DATASET_COMMITS, unreachable: 0 });

    const again = await cli('sync', '--project', 'cliff', '--json');
    expect(again.json()).toMatchObject({ added: 0, commits: DATASET_COMMITS });

    pushCommits(origin, 4);
    const third = await cli('sync', '--project', 'cliff', '--json');
    expect(third.json()).toMatchObject({ added: 4, commits: DATASET_COMMITS + 4 });

    const text = await cli('sync', '--project', 'cliff');
    expect(text.stdout).toMatch(/^cliff: 0 new commits \(1573 stored\)/);
  });

  it('lists links with their status and last ingested commit', async () => {
    const list = await cli('repos', 'list', '--project', 'cliff', '--json');
    expect(list.code).toBe(0);
    const body = list.json() as { count: number; links: { status: string; lastIngestedSha: string; sourceUrl: string }[] };
    expect(body.count).toBe(1);
    expect(body.links[0]).toMatchObject({ status: 'active', lastIngestedSha: revParse(origin, 'main'), sourceUrl: origin });
    const text = await cli('repos', 'list', '--project', 'cliff');
    expect(text.stdout).toContain(`at ${revParse(origin, 'main').slice(0, 12)}`);
  });
});

describe('changelog sync that finds nothing new', () => {
  it('answers without generating: generation (the whole history read again) runs only after an ingest changed something', async () => {
    // The progress bar shows each stage a sync runs: fetching, then "classifying commits" when it generates.
    pushCommits(origin, 1, { message: () => 'fix: one more' });
    const pushed = new FakeTerminal();
    const withNew = await session.run(['sync', '--project', 'cliff'], { progress: pushed.asStream() });
    expect(withNew.code).toBe(0);
    expect(withNew.stdout).toMatch(/^cliff: 1 new commits \(1574 stored\)\ncliff: \d+ entries created/);
    expect(pushed.drawn).toContain('classifying commits');

    const idle = new FakeTerminal();
    const nothing = await session.run(['sync', '--project', 'cliff'], { progress: idle.asStream() });
    expect(nothing).toMatchObject({ code: 0, stderr: '' });
    expect(nothing.stdout).toBe('cliff: 0 new commits (1574 stored)\nNothing changed since the last sync: the entries stay as they are\n');
    expect(idle.drawn).not.toContain('classifying commits');

    const json = await cli('sync', '--project', 'cliff', '--json');
    expect(json.json()).toMatchObject({ added: 0, commits: 1574, generated: null, links: [{ added: 0, changed: false }] });
  });
});

describe('changelog sync with a link that fails', () => {
  it('syncs the other links, then exits 1 naming the link that failed and why', async () => {
    expect((await cli('projects', 'create', '--name', 'Two', '--slug', 'two', '--owner', 'user:ada@example.com')).code).toBe(0);
    const good = smallRepo({ commits: 2 });
    const gone = smallRepo({ commits: 1 });
    try {
      const linked = await cli('repos', 'link', '--project', 'two', '--path', good);
      expect(linked.code).toBe(0);
      // The ingest is queued: the text says who runs it, and how to run it now instead.
      expect(linked.stdout).toMatch(/A running server \(or "changelog worker"\) syncs it in the background; "changelog sync --project two" syncs it now/);
      const broken = (await cli('repos', 'link', '--project', 'two', '--path', gone, '--json')).json<{ id: string }>();
      // The repository disappears after linking (a moved checkout, an unmounted disk).
      removeRepoCopy(gone);

      const json = await cli('sync', '--project', 'two', '--json');
      expect(json.code).toBe(1);
      expect(json.json()).toMatchObject({ added: 2, commits: 2, failed: [{ linkId: broken.id, source: gone }] });
      const error = JSON.parse(json.stderr) as { code: string; error: string; details: { message: string }[] };
      expect(error).toMatchObject({ code: 'sync_failed', error: '1 of 2 linked repositories of two failed to sync' });
      expect(error.details).toEqual([{ message: expect.stringContaining(`${gone} (link ${broken.id}): `) }]);
      expect(error.details[0]!.message).toMatch(/does not exist|not a git repository|No such file/i);

      const text = await cli('sync', '--project', 'two');
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(/^two: 0 new commits \(2 stored\)/);
      expect(text.stderr).toContain('error: 1 of 2 linked repositories of two failed to sync');
      expect(text.stderr).toContain(`  - ${gone} (link ${broken.id}): `);
    } finally {
      removeRepoCopy(good);
      removeRepoCopy(gone);
    }
  });
});
