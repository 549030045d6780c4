import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { buildCommitGraph } from './graph.js';
import { generateReleases, UNRELEASED_KEY } from './releases.js';
import { resolveSettings } from '../settings.js';

const settings = resolveSettings({});

describe('release notes', () => {
  // main: a ← b [v1.0.0] ← c ← m(merge of f) ← d [v1.1.0-rc.1] ← e [v1.1.0] ← g ← h (unreleased)
  // f branches off a (before v1.0.0) and is merged after it: it belongs to v1.1.0, not v1.0.0.
  const a = buildCommit({ message: 'feat: first feature', date: '2024-01-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'fix: first fix', tags: ['v1.0.0'], date: '2024-01-02T10:00:00Z' });
  const f = buildCommit({ parents: [a.sha], message: 'feat: long-lived branch', date: '2024-01-01T12:00:00Z' });
  const c = buildCommit({ parents: [b.sha], message: 'fix: second fix', date: '2024-01-03T10:00:00Z' });
  const m = buildCommit({ parents: [c.sha, f.sha], message: 'Merge pull request #7 from x/branch', date: '2024-01-04T10:00:00Z' });
  const d = buildCommit({
    parents: [m.sha],
    message: 'feat!: drop the old API\n\nBREAKING CHANGE: use the new one',
    tags: ['v1.1.0-rc.1'],
    date: '2024-01-05T10:00:00Z',
  });
  const e = buildCommit({ parents: [d.sha], message: 'chore: release 1.1.0', tags: ['v1.1.0'], date: '2024-01-06T10:00:00Z' });
  const g = buildCommit({ parents: [e.sha], message: 'fix: after the release', date: '2024-01-07T10:00:00Z' });
  const h = buildCommit({ parents: [g.sha], message: 'Revert "fix: after the release"\n\nThis reverts commit ' + g.sha + '.', date: '2024-01-08T10:00:00Z' });
  const history = [a, b, f, c, m, d, e, g, h];
  const notes = generateReleases(history, settings);
  const note = (key: string) => notes.find((n) => n.key === key)!;

  it('lists what a tag brings since the previous tag of its series, a merged branch in the release that merged it', () => {
    expect(note('release:v1.0.0')).toMatchObject({
      tag: 'v1.0.0',
      version: '1.0.0',
      previous_tag: null,
      package: null,
      prerelease: false,
      released_at: '2024-01-02T10:00:00.000Z',
    });
    expect(note('release:v1.0.0').commit_shas.sort()).toEqual([a.sha, b.sha].sort());
    expect(note('release:v1.1.0-rc.1')).toMatchObject({ previous_tag: 'v1.0.0', prerelease: true });
    expect(note('release:v1.1.0-rc.1').commit_shas.sort()).toEqual([f.sha, c.sha, d.sha].sort());
  });

  it('gives a final release everything since the previous final release, its pre-releases included', () => {
    const final = note('release:v1.1.0');
    expect(final.previous_tag).toBe('v1.0.0');
    // The release commit is maintenance (hidden); the merge commit is not counted.
    expect(final.commit_shas.sort()).toEqual([f.sha, c.sha, d.sha].sort());
    expect(final.generated_json.sections.map((s) => s.section_type_key)).toEqual(['breaking', 'feature', 'fix']);
    expect(final.generated_json.headline_items[0]).toMatchObject({ section_type_key: 'breaking', title: 'Drop the old API', body: 'use the new one' });
    expect(final.content).toContain('### Breaking changes');
  });

  it('cancels a change and its revert inside one release, and leaves out an empty Unreleased note', () => {
    expect(notes.find((n) => n.key === UNRELEASED_KEY)).toBeUndefined();
    const more = buildCommit({ parents: [h.sha], message: 'feat: next thing', date: '2024-01-09T10:00:00Z' });
    const unreleased = generateReleases([...history, more], settings).find((n) => n.key === UNRELEASED_KEY)!;
    expect(unreleased).toMatchObject({ tag: null, version: null, title: 'Unreleased', previous_tag: 'v1.1.0', released_at: null });
    expect(unreleased.commit_shas).toEqual([more.sha]);
  });

  it("names the final release as Unreleased's previous tag when a pre-release and its final tag one commit", () => {
    const one = buildCommit({ message: 'feat: one', tags: ['v2.0.0', 'v2.0.0-rc.1'], date: '2024-02-01T10:00:00Z' });
    const next = buildCommit({ parents: [one.sha], message: 'fix: next', date: '2024-02-02T10:00:00Z' });
    const unreleased = generateReleases([one, next], settings).find((n) => n.key === UNRELEASED_KEY)!;
    expect(unreleased.previous_tag).toBe('v2.0.0');
    const reversed = buildCommit({ message: 'feat: one', tags: ['v2.0.0-rc.1', 'v2.0.0'], date: '2024-02-01T10:00:00Z' });
    const after = buildCommit({ parents: [reversed.sha], message: 'fix: next', date: '2024-02-02T10:00:00Z' });
    expect(generateReleases([reversed, after], settings).find((n) => n.key === UNRELEASED_KEY)!.previous_tag).toBe('v2.0.0');
  });

  it('leaves out of a pre-release what a lower final release shipped first (a maintenance line merged into the next minor)', () => {
    // main: r [v1.0.0] ← p (fix) [v1.0.1]; minor: r ← x (feat) [v1.1.0-alpha.1] ← mm (merge of main) ← y (feat) [v1.1.0-alpha.2] ← z [v1.1.0]
    const r = buildCommit({ message: 'feat: first', tags: ['v1.0.0'], date: '2024-03-01T10:00:00Z' });
    const x = buildCommit({ parents: [r.sha], message: 'feat: next minor work', tags: ['v1.1.0-alpha.1'], date: '2024-03-02T10:00:00Z' });
    const p = buildCommit({ parents: [r.sha], message: 'fix: patch on the stable line', tags: ['v1.0.1'], date: '2024-03-03T10:00:00Z' });
    const mm = buildCommit({ parents: [x.sha, p.sha], message: "Merge branch 'main' into minor", date: '2024-03-04T10:00:00Z' });
    const y = buildCommit({ parents: [mm.sha], message: 'feat: more minor work', tags: ['v1.1.0-alpha.2'], date: '2024-03-05T10:00:00Z' });
    const z = buildCommit({ parents: [y.sha], message: 'fix: last fix before the minor', tags: ['v1.1.0'], date: '2024-03-06T10:00:00Z' });
    const list = generateReleases([r, x, p, mm, y, z], settings);
    const of = (tag: string) => list.find((n) => n.tag === tag)!;
    expect(of('v1.1.0-alpha.2').previous_tag).toBe('v1.1.0-alpha.1');
    // The stable fix was announced in 1.0.1: the alpha lists only its own work.
    expect(of('v1.1.0-alpha.2').commit_shas).toEqual([y.sha]);
    expect(of('v1.0.1').commit_shas).toEqual([p.sha]);
    // The final covers its pre-releases, and not the patch line's fix either.
    expect(of('v1.1.0').previous_tag).toBe('v1.0.1');
    expect(of('v1.1.0').commit_shas.sort()).toEqual([x.sha, y.sha, z.sha].sort());
  });

  it('keeps a revert of something already released', () => {
    const revert = buildCommit({
      parents: [e.sha],
      message: `Revert "fix: second fix"\n\nThis reverts commit ${c.sha}.`,
      tags: ['v1.1.1'],
      date: '2024-01-07T10:00:00Z',
    });
    const patch = generateReleases([a, b, f, c, m, d, e, revert], settings).find((n) => n.key === 'release:v1.1.1')!;
    expect(patch.commit_shas).toEqual([revert.sha]);
    expect(patch.generated_json.sections[0]!.section_type_key).toBe('revert');
  });

  it('is newest first, deterministic, and stable in its fingerprints', () => {
    expect(notes.map((n) => n.tag)).toEqual(['v1.1.0', 'v1.1.0-rc.1', 'v1.0.0']);
    expect(generateReleases(structuredClone(history), settings).map((n) => n.fingerprint)).toEqual(notes.map((n) => n.fingerprint));
  });
});

describe('release notes read as a maintainer would publish them', () => {
  it('lists repeated updates of one dependency once, from the first version left to the last reached', () => {
    const a = buildCommit({ message: 'feat: first', tags: ['v1.0.0'], date: '2024-03-01T10:00:00Z' });
    const b = buildCommit({
      parents: [a.sha],
      message: 'chore(deps-dev): bump vite from 5.0.0 to 5.0.1 (#2)',
      changes: [['M', 'package.json']],
      date: '2024-03-02T10:00:00Z',
    });
    const c = buildCommit({ parents: [b.sha], message: 'fix: a fix (#3)', date: '2024-03-03T10:00:00Z' });
    const d = buildCommit({
      parents: [c.sha],
      message: 'chore(deps-dev): bump vite from 5.0.1 to 5.1.0 (#4)',
      changes: [['M', 'package.json']],
      tags: ['v1.0.1'],
      date: '2024-03-04T10:00:00Z',
    });
    const note = generateReleases([a, b, c, d], settings).find((n) => n.key === 'release:v1.0.1')!;
    expect(note.content).toBe('### Bug fixes\n\n- A fix (#3)\n\n### Dependencies\n\n- Bump vite from 5.0.0 to 5.1.0 (#2, #4)\n\n_By Ada Lovelace_\n');
    expect(note.commit_shas).toEqual([b.sha, c.sha, d.sha]);
  });
});

describe('release notes list a merged branch in the order its commits were made', () => {
  it('so that the last of several updates of one dependency is the version shipped', () => {
    const base = buildCommit({ message: 'feat: first', tags: ['v1.0.0'], date: '2024-03-01T10:00:00Z' });
    // SHAs that sort against the commit order: the branch arrives in one merge, so only commit order tells.
    const b1 = buildCommit({
      sha: 'f'.repeat(40),
      parents: [base.sha],
      message: 'Update dependency acorn to v8.1.0 (#5)',
      changes: [['M', 'package.json']],
      date: '2024-03-02T10:00:00Z',
    });
    const b2 = buildCommit({
      sha: '0'.repeat(40),
      parents: [b1.sha],
      message: 'Update dependency acorn to v8.2.0 (#6)',
      changes: [['M', 'package.json']],
      date: '2024-03-03T10:00:00Z',
    });
    const merge = buildCommit({ parents: [base.sha, b2.sha], message: "Merge branch 'deps'", tags: ['v1.1.0'], date: '2024-03-04T10:00:00Z' });
    const note = generateReleases([base, b1, b2, merge], settings).find((n) => n.key === 'release:v1.1.0')!;
    expect(note.commit_shas).toEqual([b1.sha, b2.sha]);
    expect(note.generated_json.sections[0]!.items).toEqual([{ text: 'Update dependency acorn to v8.2.0 (#5, #6)', component: null }]);
  });
});

describe('release notes per package', () => {
  // A root package and create-app with its own tags: each note holds its own package's changes.
  const a = buildCommit({ message: 'feat(core): core feature', changes: [['M', 'packages/core/a.ts']], date: '2024-02-01T10:00:00Z' });
  const b = buildCommit({
    parents: [a.sha],
    message: 'fix(create-app): template fix',
    changes: [['M', 'packages/create-app/b.ts']],
    date: '2024-02-02T10:00:00Z',
  });
  const c = buildCommit({
    parents: [b.sha],
    message: 'fix: shared fix',
    changes: [
      ['M', 'packages/core/c.ts'],
      ['M', 'packages/create-app/c.ts'],
    ],
    tags: ['v2.0.0', 'create-app@1.0.0'],
    date: '2024-02-03T10:00:00Z',
  });
  const d = buildCommit({
    parents: [c.sha],
    message: 'feat(create-app): new template',
    changes: [['M', 'packages/create-app/d.ts']],
    tags: ['create-app@1.1.0'],
    date: '2024-02-04T10:00:00Z',
  });
  const e = buildCommit({
    parents: [d.sha],
    message: 'fix(core): later core fix',
    changes: [['M', 'packages/core/e.ts']],
    tags: ['v2.0.1'],
    date: '2024-02-05T10:00:00Z',
  });
  const notes = generateReleases([a, b, c, d, e], settings);
  const note = (key: string) => notes.find((n) => n.key === key)!;

  it('follows each series on its own', () => {
    expect(note('release:create-app@1.1.0')).toMatchObject({ package: 'create-app', version: '1.1.0', previous_tag: 'create-app@1.0.0', commit_shas: [d.sha] });
    expect(note('release:create-app@1.0.0').commit_shas.sort()).toEqual([b.sha, c.sha].sort());
    expect(note('release:v2.0.1')).toMatchObject({ package: null, previous_tag: 'v2.0.0', commit_shas: [e.sha] });
    // The root note leaves out what belongs only to a package with tags of its own.
    expect(note('release:v2.0.0').commit_shas.sort()).toEqual([a.sha, c.sha].sort());
  });
});

describe('commit graph', () => {
  it('lists what one commit reaches and another does not, across merges', () => {
    const a = buildCommit({});
    const b = buildCommit({ parents: [a.sha] });
    const side = buildCommit({ parents: [a.sha] });
    const c = buildCommit({ parents: [b.sha, side.sha] });
    const d = buildCommit({ parents: [c.sha] });
    const graph = buildCommitGraph([d, c, side, b, a]); // any order
    const names = (list: number[]) => list.map((i) => graph.shas[i]).sort();
    expect(names(graph.between(graph.indexOf(b.sha), graph.indexOf(d.sha)!))).toEqual([d.sha, c.sha, side.sha].sort());
    expect(names(graph.between(graph.indexOf(side.sha), graph.indexOf(d.sha)!))).toEqual([d.sha, c.sha, b.sha].sort());
    expect(names(graph.between(graph.indexOf(d.sha), graph.indexOf(b.sha)!))).toEqual([]);
    expect(graph.isAncestor(graph.indexOf(side.sha)!, graph.indexOf(d.sha)!)).toBe(true);
    expect(graph.isAncestor(graph.indexOf(side.sha)!, graph.indexOf(b.sha)!)).toBe(false);
  });
});

describe('release dates and order', () => {
  // A release tagged on a release branch's commit (Jan 5) that reaches main with its merge (Jan 20),
  // after a patch release tagged on main on Jan 10.
  const a = buildCommit({ message: 'feat: start', tags: ['v1.0.0'], date: '2024-01-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'feat: minor feature', tags: ['v1.1.0'], date: '2024-01-05T10:00:00Z' });
  const c = buildCommit({ parents: [a.sha], message: 'fix: patch', tags: ['v1.0.1'], date: '2024-01-10T10:00:00Z' });
  const m = buildCommit({ parents: [c.sha, b.sha], message: "Merge branch 'release-1.1'", date: '2024-01-20T10:00:00Z' });
  const notes = generateReleases([a, b, c, m], settings);

  it('dates a tag on a merged branch commit by its arrival and orders the notes by it', () => {
    expect(notes.find((n) => n.tag === 'v1.1.0')!.released_at).toBe('2024-01-20T10:00:00.000Z');
    expect(notes.map((n) => n.tag)).toEqual(['v1.1.0', 'v1.0.1', 'v1.0.0']);
  });
});

describe('a patch release ships no guessed features (issue 24)', () => {
  // `Sort manual chunks by execution order` adds library code with its test: a feature by its diff, a fix in 4.55.2.
  const guessed = (parent: string, subject: string, date: string, tags: string[] = []) =>
    buildCommit({ parents: [parent], message: subject, date, tags, changes: [['A', 'src/chunks.ts'], ['M', 'test/chunks.test.ts']] });
  const a = buildCommit({ message: 'feat: first', tags: ['v1.0.0'], date: '2024-01-01T10:00:00Z' });
  const b = guessed(a.sha, 'Sort manual chunks by execution order', '2024-01-02T10:00:00Z');
  const c = buildCommit({ parents: [b.sha], message: 'feat: a declared feature', tags: ['v1.0.1'], date: '2024-01-03T10:00:00Z' });
  const d = guessed(c.sha, 'Tree-shake unused array patterns', '2024-01-04T10:00:00Z', ['v1.1.0']);
  const notes = generateReleases([a, b, c, d], settings);
  const sections = (tag: string) =>
    Object.fromEntries(notes.find((n) => n.tag === tag)!.generated_json.sections.map((s) => [s.section_type_key, s.items.map((i) => i.text)]));

  it('files a feature guessed from its words or diff as a fix in x.y.Z, keeps a declared one, and leaves a minor release as it was', () => {
    expect(sections('v1.0.1')).toEqual({ feature: ['A declared feature'], fix: ['Sort manual chunks by execution order'] });
    expect(sections('v1.1.0')).toEqual({ feature: ['Tree-shake unused array patterns'] });
  });

  it('shows or hides such a change as the fix it is there, not as the feature it was guessed to be', () => {
    const fixesHidden = resolveSettings({ sections: [{ key: 'fix', visible: false }] });
    const hidden = generateReleases([a, b, c, d], fixesHidden).find((n) => n.tag === 'v1.0.1')!;
    expect(hidden.generated_json.sections.map((s) => s.section_type_key)).toEqual(['feature']);
    const featuresHidden = resolveSettings({ sections: [{ key: 'feature', visible: false }] });
    const shown = generateReleases([a, b, c, d], featuresHidden).find((n) => n.tag === 'v1.0.1')!;
    expect(shown.generated_json.sections.map((s) => [s.section_type_key, s.items.map((i) => i.text)])).toEqual([['fix', ['Sort manual chunks by execution order']]]);
  });
});
