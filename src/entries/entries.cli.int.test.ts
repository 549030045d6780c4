// `changelog entries list`: the review queue in the terminal, as text and as JSON.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliSession, type CliSession } from '../../test/helpers/cli-session.js';

let session: CliSession;
const cli = (...args: string[]) => session.run(args);

interface Listed {
  project: string;
  counts: { total: number; byStatus: Record<string, number>; byType: Record<string, number> };
  entries: { id: string; title: string; entry_type: string; status: string; date: string }[];
  next: string | null;
}

const section = (key: string) => ({ title: 't', headline_items: [], sections: [{ section_type_key: key, label: key, items: [] }], component_tags: [], team_attribution: null });

beforeAll(async () => {
  session = await startCliSession('entries-cli', { shared: true });
  const file = `${session.scratch}/entries.json`;
  // In the file oldest first; listed newest first by their own dates.
  writeFileSync(
    file,
    JSON.stringify([
      { entry_type: 'weekly', title: 'Week 1', period_start: '2024-01-01T00:00:00Z', period_end: '2024-01-08T00:00:00Z', generated_json: section('fix') },
      { entry_type: 'weekly', title: 'Week 2', period_start: '2024-01-08T00:00:00Z', period_end: '2024-01-15T00:00:00Z', generated_json: section('feature') },
      { entry_type: 'monthly', title: 'January', period_start: '2024-01-01T00:00:00Z', period_end: '2024-02-01T00:00:00Z', status: 'published' },
      { entry_type: 'weekly', title: 'Week 3', period_start: '2024-01-15T00:00:00Z', period_end: '2024-01-22T00:00:00Z', generated_json: section('fix') },
    ]),
  );
  expect((await cli('entries', 'import', '--project', 'cliff', file)).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await session?.close();
});

describe('changelog entries list', () => {
  it('prints the entries newest first with the counts, as text', async () => {
    const run = await cli('entries', 'list', '--project', 'cliff');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('4 matching in cliff (by status: draft 3, published 1; by type: weekly 3, monthly 1)');
    const shown = lines.slice(1).map((l) => l.replace(/ [0-9a-f-]{36} /, ' ID '));
    expect(shown.slice(0, 2)).toEqual(['2024-01-15  weekly   draft      ID  Week 3', '2024-01-08  weekly   draft      ID  Week 2']);
    // Same date: the id decides the order between them.
    expect([...shown.slice(2)].sort()).toEqual(['2024-01-01  monthly  published  ID  January', '2024-01-01  weekly   draft      ID  Week 1']);
  });

  it('filters by status, type, section and dates, and pages with --after, as JSON', async () => {
    const drafts = (await cli('entries', 'list', '--project', 'cliff', '--status', 'draft', '--type', 'weekly', '--section', 'fix', '--json')).json<Listed>();
    expect(drafts.entries.map((e) => e.title)).toEqual(['Week 3', 'Week 1']);
    expect(drafts.counts).toEqual({ total: 2, byStatus: { draft: 2, published: 0, archived: 0 }, byType: { commit: 0, daily: 0, weekly: 2, monthly: 0 }, revisions: 0 });
    expect(drafts.entries[0]).toMatchObject({ entry_type: 'weekly', status: 'draft', date: '2024-01-15T00:00:00.000Z' });

    const dated = (await cli('entries', 'list', '--project', 'cliff', '--since', '2024-01-08', '--until', '2024-01-08', '--json')).json<Listed>();
    expect(dated.entries.map((e) => e.title)).toEqual(['Week 2']);

    const first = (await cli('entries', 'list', '--project', 'cliff', '--limit', '2', '--json')).json<Listed>();
    expect(first.entries.map((e) => e.title)).toEqual(['Week 3', 'Week 2']);
    expect(first.next).toBeTruthy();
    const second = (await cli('entries', 'list', '--project', 'cliff', '--limit', '2', '--after', first.next!, '--json')).json<Listed>();
    expect(second.entries).toHaveLength(2);
    expect(second.next).toBeNull();
    expect(new Set([...first.entries, ...second.entries].map((e) => e.id)).size).toBe(4);

    const text = await cli('entries', 'list', '--project', 'cliff', '--limit', '2');
    expect(text.stdout).toContain(`More: add --after ${first.next}`);
  });

  it('refuses a bad filter or an unknown project', async () => {
    const bad = await cli('entries', 'list', '--project', 'cliff', '--status', 'maybe', '--json');
    expect(bad.code).toBe(1);
    expect((JSON.parse(bad.stderr) as { details: { parameter: string }[] }).details[0]!.parameter).toBe('status');
    expect((await cli('entries', 'list', '--project', 'cliff', '--limit', '0')).code).toBe(1);
    expect((await cli('entries', 'list', '--project', 'nope')).stderr).toContain('Project nope');
  });
});
