// `changelog export` of a real history beside the changelog its maintainers published (issue #25): the vue core
// dataset made a real repository (history-to-git.mjs, cached), linked, synced and exported through the command
// line as a user would, read beside vue core's CHANGELOG.md at the dataset's newest commit. That file covers
// the 3.5 line (3.5.0-alpha.1 to 3.5.41); the history also holds 3.0–3.4, which it leaves to older files.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliSession, type CliSession } from '../../test/helpers/cli-session.js';
import { cachedDatasetRepo, DATASETS_DIR } from '../../test/helpers/git-fixtures.js';
import { join } from 'node:path';

let session: CliSession;
let ours: Release[];
let theirs: Release[];

interface Release {
  version: string;
  /** Kinds of section, in Keep a Changelog's words. */
  sections: string[];
}

/** vue core's conventional-changelog sections in Keep a Changelog's words (as changelog-md.ts maps ours). */
const VUE_SECTIONS: Record<string, string> = {
  'Bug Fixes': 'Fixed',
  Features: 'Added',
  'Performance Improvements': 'Changed',
  'BREAKING CHANGES': 'Breaking changes',
  Reverts: 'Reverts',
};

/**
 * A release is `## [x.y.z](compare link) (date)`, or `# [x.y.0]…` for minor releases; its sections are
 * `### Bug Fixes`… (3.5.0's own fixes are `## Bug Fixes`, after an "Aggregated Features List for 3.5" that
 * lists the features of its pre-releases by topic). "Previous Changelogs" links the older files.
 */
function parseVue(text: string): Release[] {
  const releases: Release[] = [];
  for (const line of text.split('\n')) {
    if (/^#{1,2} Previous Changelogs/.test(line)) break;
    const heading = /^#{1,2} \[(\d[^\]]*)\]\(/.exec(line);
    if (heading) {
      releases.push({ version: heading[1]!, sections: [] });
      continue;
    }
    const section = /^#{2,3} (.+?)\s*$/.exec(line);
    const current = releases[releases.length - 1];
    const kind = section ? (section[1]!.startsWith('Aggregated Features List') ? 'Added' : VUE_SECTIONS[section[1]!]) : undefined;
    if (kind && current && !current.sections.includes(kind)) current.sections.push(kind);
  }
  return releases;
}

/** The Keep a Changelog export: `## [x.y.z] - date`, then `### Kind` blocks. */
function parseExport(text: string): Release[] {
  const releases: Release[] = [];
  for (const line of text.split('\n')) {
    const heading = /^## \[([^\]]+)\]/.exec(line);
    if (heading) releases.push({ version: heading[1]!, sections: [] });
    const section = /^### (.+?)\s*$/.exec(line);
    const current = releases[releases.length - 1];
    if (section && current) current.sections.push(/^reverts?$/i.test(section[1]!) ? 'Reverts' : section[1]!);
  }
  return releases;
}

const inVueRange = (version: string) => version.startsWith('3.5.');

beforeAll(async () => {
  session = await startCliSession('export-vue-core', { shared: true });
  const origin = cachedDatasetRepo(join(DATASETS_DIR, 'vue-core-history.jsonl.gz'), 'vue-core');
  const cli = async (...args: string[]) => {
    const run = await session.run(args);
    expect(run.code, run.stderr).toBe(0);
    return run;
  };
  await cli('repos', 'link', '--project', 'cliff', '--path', origin);
  // Ingest and generation; the whole history predates the link, so its notes are published (history=publish).
  await cli('sync', '--project', 'cliff');
  const exported = await cli('export', '--project', 'cliff');
  ours = parseExport(exported.stdout);
  theirs = parseVue(gunzipSync(readFileSync(join(DATASETS_DIR, 'vue-core-CHANGELOG.md.gz'))).toString('utf8'));
}, 600_000);

afterAll(async () => {
  await session?.close();
});

describe('changelog export of the vue core history, beside vue core’s CHANGELOG.md', () => {
  it('lists the same releases of the 3.5 line, in the same order', () => {
    expect(theirs.length).toBeGreaterThan(50);
    expect(theirs[0]!.version).toBe('3.5.41');
    expect(ours.filter((r) => inVueRange(r.version)).map((r) => r.version)).toEqual(theirs.map((r) => r.version));
  });

  it('gives each release the same kinds of section', () => {
    const ourSections = new Map(ours.map((r) => [r.version, r.sections]));
    const differences = theirs.flatMap((r) => {
      const mine = ourSections.get(r.version) ?? [];
      const missing = r.sections.filter((s) => !mine.includes(s));
      return missing.length ? [`${r.version}: theirs ${r.sections.join(', ') || '(none)'}; ours ${mine.join(', ') || '(none)'}`] : [];
    });
    expect(differences).toEqual([]);
  });
});
