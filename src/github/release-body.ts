/**
 * The text the service writes into a GitHub Release: the published note in GitHub-flavoured Markdown
 * (generation's renderer with links to the repository's pull requests), its contributors and the compare
 * view, between two markers. The markers let the service replace or remove its own text in a release
 * someone else wrote, and leave theirs as it is. Pure string work, linear in the note's size.
 */
import { escapeMarkdown, renderMarkdown } from '../generation/engine/render.js';
import type { GeneratedJson } from '../generation/engine/types.js';

export const BODY_BEGIN = '<!-- changelog-service:begin (written by the changelog service; edits between these markers are replaced) -->';
export const BODY_END = '<!-- changelog-service:end -->';
const MARKER_NAME = 'changelog-service:';
const FORGED_MARKER_NAME = 'changelog-service\u200b:';
/** GitHub refuses release bodies over 125,000 characters; ours stays under it with the owners' text. */
export const MAX_SECTION_CHARS = 100_000;
/** Contributors named at most; the rest are counted. */
const MAX_CONTRIBUTORS = 50;

export interface ReleaseBodyInput {
  /** `https://github.com/OWNER/REPO` (GITHUB_WEB_URL's host on GitHub Enterprise Server). */
  repoUrl: string;
  tag: string;
  previousTag: string | null;
  introduction: string | null;
  generatedJson: GeneratedJson;
  contributors: readonly { name: string; email: string }[];
  /** Where the whole note reads, named when the section was cut. */
  noteUrl: string;
}

/** `login` of a GitHub no-reply address (`12345+login@users.noreply.github.com`), else null. */
export function githubLogin(email: string): string | null {
  const match = /^(?:\d+\+)?([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))@users\.noreply\.github\.com$/i.exec(email);
  return match ? match[1]! : null;
}

const encodeRef = (ref: string) => ref.split('/').map(encodeURIComponent).join('/');

/** The service's section of a release body, markers included. */
export function releaseSection(input: ReleaseBodyInput): string {
  const blocks: string[] = [];
  if (input.introduction?.trim()) blocks.push(input.introduction.trim());
  // Its own compare line follows (from the link's repository): the note's is not repeated.
  const { compare_url: _compare, ...json } = input.generatedJson;
  const notes = renderMarkdown(json, { pullRequestUrl: `${input.repoUrl}/pull/{number}` }).trim();
  blocks.push(notes || '_No visible changes._');
  // A person is named by GitHub login or by name, never by e-mail address (one without either is left out).
  const people = input.contributors.flatMap((c) => {
    const login = githubLogin(c.email);
    return login ? [`@${login}`] : c.name.trim() ? [escapeMarkdown(c.name.trim())] : [];
  });
  if (people.length) {
    const named = people.slice(0, MAX_CONTRIBUTORS);
    const more = people.length - named.length;
    blocks.push(`**Contributors:** ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`);
  }
  if (input.previousTag) {
    blocks.push(`**Full Changelog**: ${input.repoUrl}/compare/${encodeRef(input.previousTag)}...${encodeRef(input.tag)}`);
  }
  let text = blocks.join('\n\n');
  if (text.length > MAX_SECTION_CHARS) {
    const cut = text.lastIndexOf('\n', MAX_SECTION_CHARS);
    text = `${text.slice(0, cut > 0 ? cut : MAX_SECTION_CHARS)}\n\n_This note is longer than a GitHub Release holds: read it whole at ${input.noteUrl}_`;
  }
  // Commit text can spell a marker (in a code span Markdown leaves it as written): broken by a zero-width
  // space, so the section ends where the service ended it and an unpublish removes all of it.
  return `${BODY_BEGIN}\n${text.replaceAll(MARKER_NAME, FORGED_MARKER_NAME)}\n${BODY_END}`;
}

/** Where the service's section sits in a body, or null. Found with two index scans (linear). */
function sectionBounds(body: string): { start: number; end: number } | null {
  const start = body.indexOf(BODY_BEGIN);
  if (start < 0) return null;
  const endAt = body.indexOf(BODY_END, start + BODY_BEGIN.length);
  if (endAt < 0) return null;
  return { start, end: endAt + BODY_END.length };
}

/** The body without the service's section (the owners' text, trimmed). */
export function withoutSection(body: string | null): string {
  const text = body ?? '';
  const bounds = sectionBounds(text);
  if (!bounds) return text.trim();
  return `${text.slice(0, bounds.start).trimEnd()}\n\n${text.slice(bounds.end).trimStart()}`.trim();
}

/** The body with the service's section in place of the old one, or after the owners' text. */
export function withSection(body: string | null, section: string): string {
  const text = body ?? '';
  const bounds = sectionBounds(text);
  if (bounds) return text.slice(0, bounds.start) + section + text.slice(bounds.end);
  return text.trim() ? `${text.trimEnd()}\n\n${section}` : section;
}

/** Whether a body holds the service's section. */
export function hasSection(body: string | null): boolean {
  return sectionBounds(body ?? '') !== null;
}
