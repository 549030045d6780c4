// `changelog releases list|show|publish|unpublish`: many notes per call (one transaction), filters,
// and pages that say when there is more (`entries releases` too, which used to stop at 200 silently).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliSession, type CliSession } from '../../test/helpers/cli-session.js';

let session: CliSession;
/** Each command opens the embedded database (seconds on a busy 2-core machine); some tests run several. */
const SLOW = 120_000;
const cli = (...args: string[]) => session.run(args);

interface Listed {
  counts: { total: number; byStatus: Record<string, number> };
  releases: Array<{ tag: string | null; status: string; package: string | null; prerelease: boolean; released_at: string | null; items: number }>;
  next: string | null;
}
const list = async (...args: string[]) => {
  const run = await cli('releases', 'list', '--project', 'cliff', '--json', ...args);
  expect(run.code, run.stderr).toBe(0);
  return run.json<Listed>();
};

let tags: string[] = [];

beforeAll(async () => {
  session = await startCliSession('releases-cli', { shared: true });
  expect((await cli('repos', 'link', '--project', 'cliff', '--path', session.origin)).code).toBe(0);
  // The whole history is from before the link: its releases are published (history=publish, the default).
  expect((await cli('sync', '--project', 'cliff')).code).toBe(0);
  tags = (await list('--all')).releases.flatMap((r) => (r.tag ? [r.tag] : []));
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe('changelog releases list', () => {
  it('lists the release history, published at the link, a page at a time, and says when there is more', async () => {
    expect(tags.length).toBeGreaterThan(10);
    const all = await list('--all');
    expect(all.next).toBeNull();
    expect(all.counts.byStatus.published).toBe(tags.length);

    const first = await list('--limit', '4');
    expect(first.releases).toHaveLength(4);
    expect(first.next).not.toBeNull();
    const second = await list('--limit', '4', '--after', first.next!);
    expect(second.releases[0]!.tag).not.toBe(first.releases[3]!.tag);
    expect([...first.releases, ...second.releases].map((r) => r.tag)).toEqual(all.releases.slice(0, 8).map((r) => r.tag));

    const text = await cli('releases', 'list', '--project', 'cliff', '--limit', '3');
    expect(text.stdout).toMatch(/release notes matching in cliff \(by status: /);
    expect(text.stdout).toMatch(/More: add --after \S+ \(or --all for every page\)/);
  }, SLOW);

  it('`entries releases` lists the same and no longer stops silently', async () => {
    const run = await cli('entries', 'releases', '--project', 'cliff', '--limit', '2');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter((l) => /^\S+\s+(draft|published|archived)\s/.test(l))).toHaveLength(2);
    expect(run.stdout).toMatch(/More: add --after/);
  }, SLOW);

  it('filters by status, pre-release and since a tag or a date, and refuses a bad filter', async () => {
    const finals = await list('--all', '--prerelease', 'false');
    expect(finals.releases.every((r) => !r.prerelease)).toBe(true);
    const oldest = [...tags].reverse();
    const since = await list('--all', '--since', oldest[1]!);
    expect(since.releases.map((r) => r.tag)).not.toContain(oldest[0]);
    expect(since.releases.map((r) => r.tag)).not.toContain(oldest[1]);
    expect(since.releases.map((r) => r.tag)).toContain(oldest[2]);
    const bad = await cli('releases', 'list', '--project', 'cliff', '--status', 'maybe', '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr)).toMatchObject({ code: 'invalid_request' });
    const unknown = await cli('releases', 'list', '--project', 'cliff', '--since', 'v99.0.0');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No release v99\.0\.0/);
  }, SLOW);
});

describe('changelog releases show, publish and unpublish', () => {
  it('shows one note with its Markdown', async () => {
    const run = await cli('releases', 'show', '--project', 'cliff', tags[0]!);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith(`${tags[0]}  published  released `)).toBe(true);
    const json = (await cli('releases', 'show', '--project', 'cliff', tags[0]!, '--json')).json<{ tag: string; content: string }>();
    expect(json.tag).toBe(tags[0]);
  }, SLOW);

  it(
    "shows a note's release-editor edits: the introduction, hidden, reworded and moved items, and changes waiting",
    async () => {
      const tag = (await list('--all')).releases.find((r) => r.tag && r.items >= 2 && r.status === 'published')!.tag!;
      const plain = await cli('releases', 'show', '--project', 'cliff', tag);
      expect(plain.stdout).toContain('Not edited in the release editor.');
      await session.withServices(async ({ entries, projects }) => {
        const project = (await projects.findBySlug('cliff'))!;
        const view = await entries.releaseEditor(project.id, tag);
        const items = view.sections.flatMap((s) => s.items);
        expect(items.length).toBeGreaterThanOrEqual(2);
        await entries.editRelease(project.id, tag, { action: 'introduction', text: 'Our **best** release.\nTwo lines.' });
        await entries.editRelease(project.id, tag, { action: 'hide', key: items[0]!.key });
        await entries.editRelease(project.id, tag, { action: 'text', key: items[1]!.key, text: 'Reworded by the editor' });
      });
      const run = await cli('releases', 'show', '--project', 'cliff', tag);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Edited in the release editor');
      expect(run.stdout).toContain('changes waiting: readers see them once published');
      expect(run.stdout).toContain('Introduction:\n  Our **best** release.\n  Two lines.');
      expect(run.stdout).toMatch(/\nHidden: .+/);
      expect(run.stdout).toMatch(/\nEdited: .+ → Reworded by the editor/);
      const json = (await cli('releases', 'show', '--project', 'cliff', tag, '--json')).json<{
        edits: { introduction: string; waiting: boolean; hidden: unknown[]; edited: Array<{ text: string }> };
      }>();
      expect(json.edits).toMatchObject({
        introduction: 'Our **best** release.\nTwo lines.',
        waiting: true,
        hidden: [expect.anything()],
        edited: [{ text: 'Reworded by the editor' }],
      });
      // Published, the edits are what readers see; the command says nothing waits any more.
      expect((await cli('releases', 'publish', '--project', 'cliff', tag)).code).toBe(0);
      const after = await cli('releases', 'show', '--project', 'cliff', tag);
      expect(after.stdout).not.toContain('changes waiting');
      expect(after.stdout).toContain('Reworded by the editor');
    },
    SLOW,
  );

  it('unpublishes every note in one call, then publishes named tags, and an unknown tag changes nothing', async () => {
    const off = await cli('releases', 'unpublish', '--project', 'cliff', '--all', '--json');
    expect(off.code, off.stderr).toBe(0);
    expect(off.json()).toMatchObject({ action: 'unpublish', changed: tags.length });
    expect((await list('--status', 'published')).counts.total).toBe(0);

    const some = await cli('releases', 'publish', '--project', 'cliff', tags[0]!, tags[1]!);
    expect(some.stdout).toBe(`Published 2 release notes of cliff\n`);
    const bad = await cli('releases', 'publish', '--project', 'cliff', tags[2]!, 'v99.0.0');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/No release v99\.0\.0 in this project; nothing was changed/);
    expect((await list('--status', 'published')).releases.map((r) => r.tag)).toEqual([tags[0], tags[1]]);
  }, SLOW);

  it("refuses neither tags nor --all, and both at once", async () => {
    expect((await cli('releases', 'publish', '--project', 'cliff')).stderr).toMatch(/Name the tags to publish, or add --all/);
    expect((await cli('releases', 'publish', '--project', 'cliff', '--all', tags[0]!)).stderr).toMatch(/not both/);
  }, SLOW);

  it('`projects configure --publish release=auto` publishes the drafts the policy held back, not those a person unpublished', async () => {
    const before = await list('--status', 'draft', '--all');
    const run = await cli('projects', 'configure', 'cliff', '--publish', 'release=auto', '--json');
    expect(run.code, run.stderr).toBe(0);
    // Every tagged note was unpublished by a person above; only the Unreleased note (if any) was the policy's.
    const policyDrafts = before.releases.filter((r) => r.tag === null).length;
    expect(run.json()).toMatchObject({ published: { releases: policyDrafts, types: ['release'] } });
    expect((await list('--status', 'published')).counts.total).toBe(2 + policyDrafts);

    const all = await cli('releases', 'publish', '--project', 'cliff', '--all');
    expect(all.stdout).toMatch(new RegExp(`^Published ${(tags.length - 2).toLocaleString('en')} release notes of cliff; ${2 + policyDrafts} left as they were`));
  }, SLOW);
});

describe('changelog export', () => {
  it('prints the published release notes as Keep a Changelog, newest first, the same as the route; --since and --format json', async () => {
    const run = await cli('export', '--project', 'cliff');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.startsWith('# Changelog')).toBe(true);
    const headings = [...run.stdout.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]!);
    // Every published tag once, in the order the release list gives (newest first).
    expect(headings.filter((h) => h !== 'Unreleased')).toEqual(tags.map((t) => t.replace(/^v/, '')).filter((t) => headings.includes(t)));
    expect(headings.length).toBeGreaterThanOrEqual(tags.length);

    const since = await cli('export', '--project', 'cliff', '--since', tags[3]!);
    expect(since.code, since.stderr).toBe(0);
    const later = [...since.stdout.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]!).filter((h) => h !== 'Unreleased');
    expect(later).toEqual(headings.filter((h) => h !== 'Unreleased').slice(0, 3));

    const json = await cli('export', '--project', 'cliff', '--format', 'json', '--json');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.stringify(json.json())).toContain(tags[0]!);
    const unknown = await cli('export', '--project', 'cliff', '--since', 'v0.0.0-none');
    expect(unknown.code).not.toBe(0);
  }, SLOW);
});
