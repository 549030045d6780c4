import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { ChangelogEntry, entrySchemas } from '../../entries/entry.schemas.js';
import { compileValidator } from '../../http/validator.js';
import { generate, touchedPeriods } from './engine.js';
import { resolveSettings, SettingsError } from '../settings.js';
import type { CommitRecord } from '../../git/commit-record.js';
import type { GeneratedEntry } from './types.js';

const all = resolveSettings({ entryTypes: ['commit', 'daily', 'weekly', 'monthly'] });
const byKey = (entries: GeneratedEntry[]) => new Map(entries.map((e) => [e.key, e]));

function history(): CommitRecord[] {
  const a = buildCommit({
    message: 'feat(api): add pagination (#10)',
    date: '2024-01-08T09:00:00Z',
    name: 'Al',
    email: 'al@x.io',
    changes: [['M', 'packages/api/src/list.ts']],
  });
  const b = buildCommit({
    parents: [a.sha],
    message: 'fix: crash on empty list',
    date: '2024-01-09T09:00:00Z',
    name: 'Bea',
    email: 'bea@x.io',
    changes: [['M', 'packages/web/src/a.ts']],
  });
  const c = buildCommit({
    parents: [b.sha],
    message: 'feat!: drop v1 endpoints\n\nBREAKING CHANGE: clients must use /v2',
    date: '2024-01-10T09:00:00Z',
    name: 'Al',
    email: 'al@x.io',
    tags: ['v2.0.0'],
  });
  const d = buildCommit({ parents: [c.sha], message: 'chore: tidy', date: '2024-01-11T09:00:00Z', name: 'Cy', email: 'cy@x.io' });
  const e = buildCommit({
    parents: [d.sha],
    message: 'docs: explain v2',
    date: '2024-01-16T09:00:00Z',
    name: 'Di',
    email: 'di@x.io',
    changes: [
      ['M', 'packages/api/README.md'],
      ['M', 'packages/web/README.md'],
    ],
  });
  return [a, b, c, d, e];
}

describe('commit entries', () => {
  it('makes one entry per commit in a visible section, with the contract fields', () => {
    const commits = history();
    const { entries } = generate(commits, all, { types: ['commit'] });
    expect(entries.map((e) => e.title)).toEqual(['Add pagination (#10)', 'Crash on empty list', 'Drop v1 endpoints', 'Explain v2']); // chore is hidden by default
    const first = entries[0]!;
    expect(first).toMatchObject({
      key: `commit:${commits[0]!.sha}`,
      entry_type: 'commit',
      commit_sha: commits[0]!.sha,
      commit_shas: [commits[0]!.sha],
      component_tags: ['api'],
      team_attribution: 'Al',
      version_label: 'v2.0.0',
      period_start: null,
      period_end: null,
    });
    expect(first.generated_json).toEqual({
      title: 'Add pagination (#10)',
      headline_items: [{ section_type_key: 'feature', title: 'Add pagination (#10)', body: null }],
      sections: [{ section_type_key: 'feature', label: 'Features', items: [{ text: 'Add pagination (#10)', component: 'api' }] }],
      component_tags: ['api'],
      team_attribution: 'Al',
    });
    expect(first.content).toBe('### Features\n\n- **api:** Add pagination (#10)\n\n_By Al_\n');
    expect(entries[3]).toMatchObject({ version_label: null, component_tags: ['api', 'web'] });
    expect(entries[3]!.generated_json.sections[0]!.items[0]!.component).toBeNull(); // two packages: no single component
  });

  it('flags breaking changes first in the headline, with the footer text as body', () => {
    const { entries } = generate(history(), all, { types: ['weekly'] });
    const week = entries.find((e) => e.key === 'weekly:2024-01-08')!;
    expect(week.generated_json.headline_items).toEqual([
      { section_type_key: 'breaking', title: 'Drop v1 endpoints', body: 'clients must use /v2' },
      { section_type_key: 'feature', title: 'Add pagination (#10)', body: null },
    ]);
    expect(week.generated_json.sections.map((s) => s.section_type_key)).toEqual(['breaking', 'feature', 'fix']);
  });
});

describe('rollups', () => {
  it('makes one rollup per period with visible commits, [start, end) and all their SHAs', () => {
    const commits = history();
    const { entries } = generate(commits, all, { types: ['daily', 'weekly', 'monthly'] });
    const keys = byKey(entries);
    expect([...keys.keys()].sort()).toEqual([
      'daily:2024-01-08',
      'daily:2024-01-09',
      'daily:2024-01-10',
      'daily:2024-01-16',
      'monthly:2024-01-01',
      'weekly:2024-01-08',
      'weekly:2024-01-15',
    ]); // 2024-01-11 has only a hidden chore: no daily entry
    const week = keys.get('weekly:2024-01-08')!;
    expect(week).toMatchObject({
      entry_type: 'weekly',
      title: 'Week 2024-W02 (8–14 January 2024)',
      period_start: '2024-01-08T00:00:00.000Z',
      period_end: '2024-01-15T00:00:00.000Z',
      version_label: 'v2.0.0',
      team_attribution: 'Al and Bea',
      component_tags: ['api', 'web'],
      commit_sha: null,
    });
    expect(week.commit_shas).toEqual(commits.slice(0, 3).map((c) => c.sha));
    expect(keys.get('monthly:2024-01-01')!.title).toBe('January 2024');
    expect(keys.get('daily:2024-01-16')).toMatchObject({ title: '16 January 2024', version_label: null });
  });

  it('uses the project time zone: 23:30 in UTC-5 counts for that local day and week', () => {
    const late = buildCommit({ message: 'fix: late night', date: '2024-01-14T23:30:00-05:00' }); // Monday 04:30 UTC
    const ny = resolveSettings({ entryTypes: ['daily', 'weekly'], timeZone: 'America/New_York' });
    const keys = [...byKey(generate([late], ny).entries).keys()].sort();
    expect(keys).toEqual(['daily:2024-01-14', 'weekly:2024-01-08']);
    const utc = [...byKey(generate([late], resolveSettings({ entryTypes: ['daily', 'weekly'] })).entries).keys()].sort();
    expect(utc).toEqual(['daily:2024-01-15', 'weekly:2024-01-15']);
    const day = generate([late], ny).entries.find((e) => e.entry_type === 'daily')!;
    expect([day.period_start, day.period_end]).toEqual(['2024-01-14T05:00:00.000Z', '2024-01-15T05:00:00.000Z']);
  });

  it('cancels a revert and the commit it reverts inside one period, but not across periods', () => {
    const feat = buildCommit({ message: 'feat: add cache', date: '2024-01-08T10:00:00Z' });
    const other = buildCommit({ parents: [feat.sha], message: 'fix: keep me', date: '2024-01-09T10:00:00Z' });
    const revert = buildCommit({ parents: [other.sha], message: `Revert "feat: add cache"\n\nThis reverts commit ${feat.sha}.`, date: '2024-01-10T10:00:00Z' });
    const result = generate([feat, other, revert], all, { types: ['daily', 'weekly'] });
    const week = byKey(result.entries).get('weekly:2024-01-08')!;
    expect(week.commit_shas).toEqual([other.sha]);
    expect(week.generated_json.sections.map((s) => s.section_type_key)).toEqual(['fix']);
    expect(result.stats.cancelledReverts.weekly).toBe(1);
    // Different days: each daily rollup keeps its commit.
    const days = result.entries.filter((e) => e.entry_type === 'daily').map((e) => e.commit_shas[0]);
    expect(days).toEqual([feat.sha, other.sha, revert.sha]);
  });

  it('matches a revert by subject when the SHA it names is unknown (rewritten history)', () => {
    const feat = buildCommit({ message: 'Add dark mode (#5)', date: '2024-01-08T10:00:00Z' });
    const revert = buildCommit({ parents: [feat.sha], message: 'Revert "Add dark mode (#5)"\n\nThis reverts commit 1234567.', date: '2024-01-08T11:00:00Z' });
    expect(generate([feat, revert], all, { types: ['weekly'] }).entries).toEqual([]);
  });

  it('lists a change picked onto two branches once, keeping both SHAs', () => {
    const a = buildCommit({ message: 'Fix comment placement (#19621)', date: '2024-01-08T10:00:00Z' });
    const b = buildCommit({ message: 'Fix comment placement (#19621)', date: '2024-01-09T10:00:00Z' });
    const week = generate([a, b], all, { types: ['weekly'] }).entries[0]!;
    expect(week.generated_json.sections).toEqual([
      { section_type_key: 'fix', label: 'Bug fixes', items: [{ text: 'Fix comment placement (#19621)', component: null }] },
    ]);
    expect(week.commit_shas).toEqual([a.sha, b.sha]);
  });

  it('lists repeated updates of one dependency once, with the version last reached and every reference', () => {
    const bump = (message: string, day: string) =>
      buildCommit({
        message,
        changes: [
          ['M', 'package.json'],
          ['M', 'yarn.lock'],
        ],
        date: `2024-01-${day}T10:00:00Z`,
        name: 'renovate[bot]',
        email: 'bot@renovateapp.com',
      });
    const commits = [
      bump('Update dependency postcss to v8.5.17 (#19606)', '08'),
      bump('Bump debian from `e899040` to `d5d3f9c` (#1331)', '08'),
      bump('Update dependency postcss to v8.5.19 (#19620)', '09'),
      bump('Update dependency oxc-parser to v0.140.0 (#19625)', '09'),
      bump('Bump debian from `d5d3f9c` to `74d56e3` (#1415)', '10'),
      bump('Update dependency postcss to v8.5.22 (#19689)', '11'),
    ];
    // Bots are skipped by default; a project whose bot's updates matter keeps them.
    expect(generate(commits, all, { types: ['commit', 'weekly'] }).entries).toEqual([]);
    const result = generate(commits, resolveSettings({ entryTypes: ['commit', 'weekly'], excludeBots: false }), { types: ['commit', 'weekly'] });
    const week = result.entries.find((e) => e.entry_type === 'weekly')!;
    expect(week.generated_json.sections).toEqual([
      {
        section_type_key: 'dependencies',
        label: 'Dependencies',
        items: [
          { text: 'Update dependency postcss to v8.5.22 (#19606, #19620, #19689)', component: null },
          { text: 'Bump debian from `e899040` to `74d56e3` (#1331, #1415)', component: null },
          { text: 'Update dependency oxc-parser to v0.140.0 (#19625)', component: null },
        ],
      },
    ]);
    // Every update is still in the rollup, and each keeps its own commit entry.
    expect(week.commit_shas).toEqual(commits.map((c) => c.sha));
    expect(result.entries.filter((e) => e.entry_type === 'commit').map((e) => e.title)).toContain('Update dependency postcss to v8.5.19 (#19620)');
  });

  it('does not count a merge commit next to the branch commits it brings in', () => {
    const base = buildCommit({ message: 'feat: base', date: '2024-01-08T10:00:00Z' });
    const branch = buildCommit({ parents: [base.sha], message: 'feat(logs): set up logging', date: '2024-01-08T11:00:00Z' });
    const merge = buildCommit({
      parents: [base.sha, branch.sha],
      message: 'Merge pull request #4 from o/logs\n\nfeat(logs): set up logging',
      date: '2024-01-08T12:00:00Z',
    });
    const result = generate([base, branch, merge], all, { types: ['commit', 'weekly'] });
    expect(result.entries.filter((e) => e.entry_type === 'commit').map((e) => e.commit_sha)).toEqual([base.sha, branch.sha]);
    expect(result.entries.find((e) => e.entry_type === 'weekly')!.commit_shas).toEqual([base.sha, branch.sha]);
    expect(result.stats.skipped).toEqual({ merge: 1 });
  });
});

describe('settings', () => {
  it('orders, relabels and hides sections as the project says', () => {
    const settings = resolveSettings({
      entryTypes: ['weekly'],
      sections: [
        { key: 'fix', label: 'Fixed' },
        { key: 'feature', label: 'New' },
        { key: 'breaking', visible: false },
      ],
    });
    const week = generate(history(), settings).entries.find((e) => e.key === 'weekly:2024-01-08')!;
    expect(week.generated_json.sections.map((s) => [s.section_type_key, s.label])).toEqual([
      ['fix', 'Fixed'],
      ['feature', 'New'],
    ]);
  });

  it('generates commit and weekly entries by default', () => {
    const types = new Set(generate(history(), resolveSettings()).entries.map((e) => e.entry_type));
    expect([...types].sort()).toEqual(['commit', 'weekly']);
  });

  it('skips excluded authors and [skip changelog] commits everywhere', () => {
    const commits = [
      buildCommit({ message: 'feat: kept', date: '2024-01-08T10:00:00Z' }),
      buildCommit({ message: 'feat: internal [skip changelog]', date: '2024-01-08T11:00:00Z' }),
      buildCommit({ message: 'feat: by the release robot', date: '2024-01-08T12:00:00Z', name: 'Release Robot', email: 'robot@corp.example' }),
    ];
    const result = generate(commits, resolveSettings({ entryTypes: ['commit', 'weekly'], excludeAuthors: ['robot@corp.example'] }));
    expect(result.entries.map((e) => e.title)).toEqual(['Kept', 'Week 2024-W02 (8–14 January 2024)']);
    expect(result.entries[1]!.commit_shas).toEqual([commits[0]!.sha]);
    expect(result.stats.skipped).toEqual({ marker: 1, 'excluded-author': 1 });
  });

  it('keeps a publishing policy per entry type, manual unless set', () => {
    expect(resolveSettings().publish).toEqual({ commit: 'manual', daily: 'manual', weekly: 'manual', monthly: 'manual', release: 'manual' });
    expect(resolveSettings({ publish: 'auto' }).publish).toEqual({ commit: 'auto', daily: 'auto', weekly: 'auto', monthly: 'auto', release: 'auto' });
    expect(resolveSettings({ publish: { commit: 'auto' } }).publish).toMatchObject({ commit: 'auto', weekly: 'manual' });
    expect(() => resolveSettings({ publish: { weekly: 'sometimes', yearly: 'auto' } })).toThrow(/sometimes.*yearly|yearly.*sometimes/);
  });

  it('lists every problem in invalid settings', () => {
    try {
      resolveSettings({ entryTypes: ['hourly'], timeZone: 'Mars/Olympus', sections: [{ key: 'fun' }], pathRules: ['src/**'] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SettingsError);
      expect((error as SettingsError).problems).toHaveLength(4);
    }
  });

  it('uses path rules and detects packages/* when there are none', () => {
    const c = buildCommit({
      message: 'fix: x',
      changes: [
        ['M', 'packages/runtime/a.ts'],
        ['M', 'packages/compiler/b.ts'],
      ],
    });
    const other = buildCommit({ message: 'fix: y', changes: [['M', 'packages/runtime/c.ts']] });
    expect(generate([c, other], resolveSettings({ entryTypes: ['commit'] })).entries.map((e) => e.component_tags)).toEqual([
      ['compiler', 'runtime'],
      ['runtime'],
    ]);
    const ruled = resolveSettings({ entryTypes: ['commit'], pathRules: ['packages/runtime/**=core'] });
    expect(generate([c, other], ruled).entries.map((e) => e.component_tags)).toEqual([['core'], ['core']]);
  });
});

describe('components', () => {
  const weekOf = (commits: CommitRecord[]) => generate(commits, all, { types: ['weekly'] }).entries[0]!;
  const items = (entry: GeneratedEntry) =>
    Object.fromEntries(entry.generated_json.sections.map((s) => [s.section_type_key, s.items.map((i) => [i.component, i.text])]));

  it('does not show a scope that only restates the section, nor tag it as a component', () => {
    const week = weekOf([
      buildCommit({ message: 'chore(deps): bump lodash from 4.17.20 to 4.17.21 (#1)', changes: [['M', 'package.json']], date: '2024-01-08T10:00:00Z' }),
      buildCommit({ message: 'build(deps-dev): bump vitest from 1.0.0 to 1.1.0 (#2)', changes: [['M', 'package.json']], date: '2024-01-08T11:00:00Z' }),
      buildCommit({ message: 'chore(dev-deps): align @types/node (#3)', changes: [['M', 'package.json']], date: '2024-01-08T12:00:00Z' }),
      buildCommit({
        message: 'chore(npm): update yarn.lock (#4)',
        changes: [
          ['M', 'package.json'],
          ['M', 'yarn.lock'],
        ],
        date: '2024-01-08T13:00:00Z',
      }),
      buildCommit({ message: 'docs(docs): explain the cache (#5)', changes: [['M', 'docs/cache.md']], date: '2024-01-08T14:00:00Z' }),
      buildCommit({ message: 'docs(readme): add a badge (#6)', changes: [['M', 'README.md']], date: '2024-01-08T15:00:00Z' }),
      buildCommit({ message: 'feat(parser): streaming mode (#7)', changes: [['M', 'src/parser.ts']], date: '2024-01-08T16:00:00Z' }),
    ]);
    expect(items(week)).toEqual({
      feature: [['parser', 'Streaming mode (#7)']],
      documentation: [
        [null, 'Explain the cache (#5)'],
        ['readme', 'Add a badge (#6)'],
      ],
      dependencies: [
        [null, 'Bump lodash from 4.17.20 to 4.17.21 (#1)'],
        [null, 'Bump vitest from 1.0.0 to 1.1.0 (#2)'],
        [null, 'Align @types/node (#3)'],
        [null, 'Update yarn.lock (#4)'],
      ],
    });
    expect(week.content).not.toMatch(/\*\*(deps|deps-dev|dev-deps|npm|docs):\*\*/);
    // A scope is a component only when it names one of the project's packages: this one has none.
    expect(week.component_tags).toEqual([]);
  });

  it('shows a kind scope where it says something the section does not, and a package the paths name instead', () => {
    const week = weekOf([
      buildCommit({ message: 'fix(deps): update compiler (#8)', changes: [['M', 'packages/compiler/package.json']], date: '2024-01-09T10:00:00Z' }),
      buildCommit({
        message: 'fix(deps): update dependency postcss to ^8.5.19 (#9)',
        changes: [['M', 'packages/compiler/package.json']],
        date: '2024-01-09T11:00:00Z',
      }),
      buildCommit({
        message: 'chore(deps): update dependency jsdom to v30 (#10)',
        changes: [['M', 'packages/runtime/package.json']],
        date: '2024-01-09T12:00:00Z',
      }),
      buildCommit({
        message: 'chore(deps): update dependency tsx to v5 (#11)',
        changes: [
          ['M', 'packages/runtime/package.json'],
          ['M', 'packages/compiler/package.json'],
        ],
        date: '2024-01-09T13:00:00Z',
      }),
    ]);
    expect(items(week)).toEqual({
      // A bare "Update compiler" needs its label; "Update dependency postcss" says it already.
      fix: [
        ['deps', 'Update compiler (#8)'],
        ['compiler', 'Update dependency postcss to ^8.5.19 (#9)'],
      ],
      dependencies: [
        ['runtime', 'Update dependency jsdom to v30 (#10)'],
        [null, 'Update dependency tsx to v5 (#11)'],
      ],
    });
    expect(week.component_tags).toEqual(['compiler', 'runtime']);
  });
});

describe('components from the manifests', () => {
  // A vite-like monorepo: the root package, the tool and a plugin with its own tags.
  const workspace = buildCommit({
    message: 'chore: set up the workspace',
    date: '2024-01-01T00:00:00Z',
    changes: [
      ['A', 'package.json'],
      ['A', 'packages/vite/package.json'],
      ['A', 'packages/plugin-legacy/package.json'],
    ],
    dependencies: {
      runtime: [],
      dev: [],
      packages: [
        ['', 'vite-monorepo'],
        ['packages/vite', 'vite'],
        ['packages/plugin-legacy', '@vitejs/plugin-legacy'],
      ],
    },
  });
  const commitTags = (...commits: CommitRecord[]) =>
    generate([workspace, ...commits], resolveSettings({ entryTypes: ['commit'] }))
      .entries.filter((e) => e.commit_sha !== workspace.sha)
      .map((e) => e.component_tags);

  it("tags a commit with the packages its paths are in, by their manifests' names, whatever its scope says", () => {
    const legacy = buildCommit({ message: 'feat(legacy): support modern browsers', changes: [['M', 'packages/plugin-legacy/src/index.ts']] });
    const both = buildCommit({
      message: 'fix(vite): share a helper',
      changes: [
        ['M', 'packages/vite/src/a.ts'],
        ['M', 'packages/plugin-legacy/src/b.ts'],
      ],
    });
    const misnamed = buildCommit({ message: 'fix(plugin-legacy): x', changes: [['M', 'packages/vite/src/a.ts']] });
    expect(commitTags(legacy, both, misnamed)).toEqual([['@vitejs/plugin-legacy'], ['@vitejs/plugin-legacy', 'vite'], ['vite']]);
  });

  it('tags a scope only when it names a known package (normalised), and never junk', () => {
    const root = (message: string) => buildCommit({ message, changes: [['M', 'README.md']] });
    expect(
      commitTags(
        root('fix(Plugin_Legacy): a'),
        root('fix(@vitejs/plugin-legacy): b'),
        root('fix(cli): c'),
        root('fix(#4774): d'),
        root('feat(minor): e'),
        root('signed-off-by: f'),
        root('re-enable(x): g'),
      ),
    ).toEqual([['@vitejs/plugin-legacy'], ['@vitejs/plugin-legacy'], [], [], [], [], []]);
  });

  it("labels a plugin's commit with the plugin's own release, not the root's", () => {
    const change = buildCommit({
      message: 'feat(legacy): modern chunks',
      parents: [workspace.sha],
      date: '2024-01-02T00:00:00Z',
      changes: [['M', 'packages/plugin-legacy/src/index.ts']],
    });
    const release = buildCommit({
      message: 'release: plugin-legacy@2.1.0',
      parents: [change.sha],
      date: '2024-01-03T00:00:00Z',
      changes: [['M', 'packages/plugin-legacy/package.json']],
      tags: ['plugin-legacy@2.1.0'],
    });
    const rootRelease = buildCommit({
      message: 'release: v5.0.0',
      parents: [release.sha],
      date: '2024-01-04T00:00:00Z',
      changes: [['M', 'packages/vite/package.json']],
      tags: ['v5.0.0'],
    });
    const entries = generate([workspace, change, release, rootRelease], resolveSettings({ entryTypes: ['commit'] })).entries;
    expect(entries.find((e) => e.commit_sha === change.sha)).toMatchObject({ component_tags: ['@vitejs/plugin-legacy'], version_label: 'plugin-legacy@2.1.0' });
  });
});

describe('the contract', () => {
  it('produces entries that are valid ChangelogEntry objects once storage adds its fields', () => {
    const validate = compileValidator(
      ChangelogEntry,
      entrySchemas.filter((s) => s !== ChangelogEntry),
    );
    const now = new Date().toISOString();
    const { entries } = generate(history(), all);
    expect(new Set(entries.map((e) => e.entry_type))).toEqual(new Set(['commit', 'daily', 'weekly', 'monthly']));
    for (const e of entries) {
      // Everything generated is stored as generated; storage adds identity, status and times.
      const { key: _key, fingerprint: _fingerprint, commit_sha, ...generated } = e;
      const stored = {
        id: randomUUID(),
        project_id: randomUUID(),
        status: 'draft',
        ...generated,
        commit_id: commit_sha ? randomUUID() : null,
        published_at: null,
        created_at: now,
        updated_at: now,
      };
      expect(validate(stored), e.key).toEqual({ ok: true, value: stored });
    }
  });
});

describe('idempotency and incremental generation', () => {
  it('produces identical entries, keys and fingerprints on every run', () => {
    const commits = history();
    const first = generate(commits, all);
    const second = generate(structuredClone(commits).reverse(), all);
    expect(second.entries.map((e) => [e.key, e.fingerprint]).sort()).toEqual(first.entries.map((e) => [e.key, e.fingerprint]).sort());
    expect(byKey(second.entries)).toEqual(byKey(first.entries));
  });

  it('regenerates only the periods touched by new commits, equal to a full run there', () => {
    const commits = history();
    const late = buildCommit({ parents: [commits[4]!.sha], message: 'feat: late addition', date: '2024-01-17T09:00:00Z' });
    const full = byKey(generate([...commits, late], all).entries);
    const periods = touchedPeriods([late], all.entryTypes, all.timeZone);
    expect(periods.map((p) => p.key)).toEqual(['monthly:2024-01-01', 'weekly:2024-01-15', 'daily:2024-01-17']);
    const inPeriods = [...commits, late].filter((c) =>
      periods.some((p) => Date.parse(c.committer.date) >= p.start.getTime() && Date.parse(c.committer.date) < p.end.getTime()),
    );
    const partial = generate(inPeriods, all, { touched: [late.sha] });
    expect(partial.entries.map((e) => e.key).sort()).toEqual(['commit:' + late.sha, 'daily:2024-01-17', 'monthly:2024-01-01', 'weekly:2024-01-15']);
    for (const e of partial.entries) expect(e).toEqual(full.get(e.key));
  });

  it('changes a fingerprint when, and only when, the entry changes', () => {
    const commits = history();
    const before = byKey(generate(commits, all).entries);
    const edited = commits.map((c, i) => (i === 1 ? { ...c, message: 'fix: crash on an empty list' } : c));
    const after = byKey(generate(edited, all).entries);
    expect(after.get('weekly:2024-01-08')!.fingerprint).not.toBe(before.get('weekly:2024-01-08')!.fingerprint);
    expect(after.get('weekly:2024-01-15')!.fingerprint).toBe(before.get('weekly:2024-01-15')!.fingerprint);
  });
});

describe('a docs/ folder the site builds from', () => {
  it('is the website: its changes are hidden by default once the history holds the site generator', () => {
    const site = buildCommit({ message: 'chore: set up the site', changes: [['A', 'website/siteConfig.js']], date: '2024-01-01T10:00:00Z' });
    const docs = buildCommit({
      message: 'docs: explain the cache option',
      changes: [['M', 'docs/options.md']],
      parents: [site.sha],
      date: '2024-01-02T10:00:00Z',
    });
    const fix = buildCommit({ message: 'fix: cache keys', changes: [['M', 'src/cache.ts']], parents: [docs.sha], date: '2024-01-03T10:00:00Z' });
    const shown = (commits: CommitRecord[]) =>
      generate(commits, all, { types: ['weekly'] }).entries.flatMap((e) =>
        e.generated_json.sections.flatMap((s) => s.items.map((i) => `${s.section_type_key}: ${i.text}`)),
      );
    expect(shown([site, docs, fix])).toEqual(['fix: Cache keys']);
    // Without the generator, docs/ is documentation.
    expect(shown([{ ...docs, parents: [] }, fix])).toEqual(['fix: Cache keys', 'documentation: Explain the cache option']);
  });
});
