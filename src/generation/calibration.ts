/**
 * What a repository's own CHANGELOG.md says about how its maintainers write release notes (issue 24,
 * calibration): which sections they use, in which order and under which names, and so which of ours
 * a reader of theirs expects to see. Read once per version of the file at ingest (the tracked branch's
 * tip), kept as this small summary, and offered in the settings preview as a mapping an editor may take;
 * never applied on its own.
 *
 * Untrusted text: read line by line with anchored, linear patterns; at most MAX_CHARS of it and the
 * newest MAX_RELEASES releases.
 */
import { DEFAULT_SECTION_LABELS, SECTION_KEYS, type SectionKey, type SectionSetting } from './engine/types.js';

export const CHANGELOG_PATHS = ['CHANGELOG.md', 'changelog.md', 'CHANGES.md', 'History.md', 'HISTORY.md', 'CHANGELOG'];
export const MAX_CHARS = 512 * 1024;
const MAX_RELEASES = 30;

/** One section title the changelog uses, how often, and the section of ours it means (null: none). */
export interface CalibratedSection {
  title: string;
  key: SectionKey | null;
  releases: number;
  items: number;
}

export interface Calibration {
  /** Where it was read, e.g. `CHANGELOG.md`. */
  path: string;
  /** Releases read (the newest, at most MAX_RELEASES), and how many of them have sections. */
  releases: number;
  sectioned: number;
  /** In the order the changelog first uses them. */
  sections: CalibratedSection[];
}

// Greedy to the end, then trailing spaces and #s cut by a loop: a lazy `(.*?)[ \t#]*$` retried the tail at every
// position, quadratic on a heading of thousands of spaces.
const HEADING = /^(#{1,6})[ \t]+(.*)$/;
/** Titles kept at most: a crafted file of a thousand made-up sections would otherwise be stored and shown whole. */
const MAX_TITLES = 100;

function trimHeading(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t' || text[end - 1] === '#')) end--;
  return text.slice(0, end);
}
const BULLET = /^[ \t]{0,3}[-*+][ \t]+\S/;
/** A release heading names a version (`1.2.3`, `v1.2`, `[3.5.0](…)`), or the unreleased part. */
const RELEASE_TITLE = /(^|[^\w.])v?\d+\.\d+(\.\d+)?([-+.][\w.-]*)?\b|^\[?(unreleased|main|master|next)\b/i;
/** A title in bold on its own line (`**Bug fixes**`), which some changelogs use instead of a heading. */
const BOLD_TITLE = /^\*\*([^*]{1,80})\*\*:?[ \t]*$/;

/** Our section for a title a changelog uses (the words of Keep a Changelog, conventional-changelog, changesets, jest). */
export function sectionOfTitle(title: string): SectionKey | null {
  const t = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}&' ]+/gu, ' ')
    .trim();
  if (!t || t.length > 60) return null;
  if (/\bbreaking\b|\bmajor changes\b|\bremoved\b|\bremovals?\b/.test(t)) return 'breaking';
  if (/\bsecurity\b|\bvulnerabilit/.test(t)) return 'security';
  if (/\bdeprecat/.test(t)) return 'deprecation';
  if (/\bperf(ormance)?\b|\bspeed\b/.test(t)) return 'performance';
  if (/\brevert/.test(t)) return 'revert';
  if (/\bdep(endenc(y|ies)|s)\b|\bupgrades?\b/.test(t)) return 'dependencies';
  if (/\bdoc(s|umentation)?\b/.test(t)) return 'documentation';
  if (/\bbug\b|\bfix(es|ed)?\b|\bpatch changes\b|\bbugfix(es)?\b/.test(t)) return 'fix';
  if (/\bfeat(ure)?s?\b|\badded\b|\bnew\b|\benhancements?\b|\bminor changes\b|\bimprovements?\b/.test(t)) return 'feature';
  if (/\brefactor/.test(t)) return 'refactor';
  if (/\bchores?\b|\bmaintenance\b|\binternal\b|\bmisc(ellaneous)?\b|\bhousekeeping\b/.test(t)) return 'chore';
  if (/\btests?\b|\btesting\b/.test(t)) return 'test';
  if (/\bbuild\b|\bci\b/.test(t)) return 'build';
  return null;
}

/** The summary of a changelog's text (`path`: where it was found), or null when it shows no release. */
export function calibrate(text: string, path: string): Calibration | null {
  const body = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  let releaseLevel = 0;
  let releases = 0;
  let inFence = false;
  /** The section being read in the current release, and the titles this release used. */
  let current: CalibratedSection | null = null;
  let usedHere = new Set<string>();
  const sections = new Map<string, CalibratedSection>();
  const sectionedReleases = new Set<number>();

  const open = (title: string) => {
    const key = title.trim().replace(/\s+/g, ' ').slice(0, 80);
    let s = sections.get(key.toLowerCase());
    if (!s && sections.size >= MAX_TITLES) {
      current = null;
      return;
    }
    if (!s) {
      s = { title: key, key: sectionOfTitle(key), releases: 0, items: 0 };
      sections.set(key.toLowerCase(), s);
    }
    if (!usedHere.has(key.toLowerCase())) {
      usedHere.add(key.toLowerCase());
      s.releases++;
      sectionedReleases.add(releases);
    }
    current = s;
  };

  let from = 0;
  while (from < body.length) {
    let end = body.indexOf('\n', from);
    if (end < 0) end = body.length;
    const line = body.slice(from, end).replace(/\r$/, '');
    from = end + 1;
    if (/^[ \t]{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence || line.length > 2_000) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const title = trimHeading(heading[2]!);
      if ((releaseLevel === 0 || level <= releaseLevel) && RELEASE_TITLE.test(title)) {
        if (releases === MAX_RELEASES) break;
        releaseLevel = level;
        releases++;
        current = null;
        usedHere = new Set();
      } else if (releases > 0 && level > releaseLevel) {
        // A heading under a release: a section when it is short and not itself an item (prettier's `#### TypeScript: …`).
        if (title.length <= 40 && !/[.:(`[]/.test(title)) open(title);
        else current = null;
      }
      continue;
    }
    if (releases === 0) continue;
    const bold = BOLD_TITLE.exec(line.trim());
    if (bold) {
      open(bold[1]!);
      continue;
    }
    if (current && BULLET.test(line)) (current as CalibratedSection).items++;
  }
  if (releases === 0) return null;
  return { path, releases, sectioned: sectionedReleases.size, sections: [...sections.values()] };
}

/** The sections as the changelog uses them: its names and order for the sections it lists; hidden, those it never does. */
export interface SectionProposal {
  sections: SectionSetting[];
  /** Our sections the changelog shows, with the title it gives them. */
  mapped: Array<{ key: SectionKey; title: string }>;
  /** Titles it uses that match none of ours. */
  unmapped: string[];
}

/** What readers of any changelog are owed: never hidden by a calibration, whatever one changelog's window shows. */
const READER_SECTIONS: ReadonlySet<SectionKey> = new Set(['breaking', 'security', 'feature', 'fix', 'performance', 'deprecation']);

/**
 * The mapping to offer: each section of ours the changelog lists (in two of the releases read, one when
 * it read fewer than five) shown under the changelog's most used title for it, in the changelog's order;
 * the other sections hidden, except those readers are always owed (breaking changes, security, features,
 * fixes, performance, deprecations: a window of patch releases lists no feature, yet the next minor will),
 * which keep their current setting. Null when the changelog does not use sections (it lists items straight
 * under each release).
 */
export function proposeSections(calibration: Calibration, current: readonly SectionSetting[]): SectionProposal | null {
  if (calibration.sectioned < 2) return null;
  const floor = calibration.sectioned < 5 ? 1 : 2;
  const best = new Map<SectionKey, CalibratedSection>();
  const order: SectionKey[] = [];
  for (const s of calibration.sections) {
    if (!s.key || s.releases < floor || s.items === 0) continue;
    const had = best.get(s.key);
    if (!had) order.push(s.key);
    if (!had || s.releases > had.releases) best.set(s.key, s);
  }
  if (!order.length) return null;
  const now = new Map(current.map((s) => [s.key, s]));
  const kept = (key: SectionKey, visible: boolean): SectionSetting => ({ key, label: now.get(key)?.label ?? DEFAULT_SECTION_LABELS[key], visible });
  const shown = order.map((key) => ({ key, label: best.get(key)!.title, visible: true }));
  const owed = SECTION_KEYS.filter((k) => !best.has(k) && READER_SECTIONS.has(k)).map((k) => kept(k, now.get(k)?.visible ?? true));
  const rest = SECTION_KEYS.filter((k) => !best.has(k) && !READER_SECTIONS.has(k)).map((k) => kept(k, false));
  return {
    // Breaking changes first when the changelog has no place of its own for them.
    sections: [...owed.filter((s) => s.key === 'breaking'), ...shown, ...owed.filter((s) => s.key !== 'breaking'), ...rest],
    mapped: order.map((key) => ({ key, title: best.get(key)!.title })),
    unmapped: calibration.sections.filter((s) => !s.key && s.releases >= floor).map((s) => s.title),
  };
}
