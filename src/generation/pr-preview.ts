/**
 * How a pull request will read in the next release note: its squash commit (`Title (#N)` and the
 * description) run through the same engine and renderer as `changelog preview --type release`, with the
 * project's settings, and the warnings a reviewer can act on. Pure: no I/O, linear in the input.
 */
import { coAuthorsOf, type CommitRecord } from '../git/commit-record.js';
import { classifyCommit } from './engine/classify.js';
import { parseHeader } from './engine/conventional.js';
import { generateReleases } from './engine/releases.js';
import { renderMarkdown } from './engine/render.js';
import type { Change, GenerationSettings } from './engine/types.js';

/** The pull request as GitHub describes it (GET /repos/{o}/{r}/pulls/{n} and its files). */
export interface PullRequestFacts {
  number: number;
  title: string;
  body: string;
  author: string;
  headSha: string;
  /** Changed paths (the first page GitHub lists). */
  files: string[];
}

export interface PullRequestPreview {
  /** Null when the change would not be in the note. */
  section: string | null;
  text: string | null;
  component: string | null;
  /** The item as the note renders it (a Markdown list line), or null. */
  markdown: string | null;
  warnings: string[];
}

/** GitHub's longest check-run summary and text are 65,535 characters; a description is cut well before. */
const MAX_BODY_CHARS = 20_000;

/** The squash commit GitHub would make of the pull request, as ingestion would store it. */
export function squashCommit(pr: PullRequestFacts, at = new Date()): CommitRecord {
  const subject = `${pr.title.replace(/[\r\n]+/g, ' ').trim()} (#${pr.number})`;
  const body = pr.body.slice(0, MAX_BODY_CHARS).replace(/\r\n?/g, '\n').trim();
  const message = body ? `${subject}\n\n${body}` : subject;
  const person = { name: pr.author, email: `${pr.author}@users.noreply.github.com`, date: at.toISOString() };
  return {
    sha: /^[0-9a-f]{40}$/.test(pr.headSha) ? pr.headSha : '0'.repeat(40),
    parents: [],
    author: person,
    committer: person,
    message,
    changes: pr.files.map((path): Change => ['M', path]),
    tags: [],
    coAuthors: coAuthorsOf(message),
    prNumber: pr.number,
  };
}

export function previewPullRequest(pr: PullRequestFacts, settings: GenerationSettings, repoUrl: string): PullRequestPreview {
  const commit = squashCommit(pr);
  const classified = classifyCommit(commit, { excludeAuthors: settings.excludeAuthors, excludeBots: settings.excludeBots });
  const [note] = generateReleases([commit], { ...settings, releases: true });
  const warnings: string[] = [];
  if (!parseHeader(pr.title.trim())) {
    warnings.push('The title has no conventional type (`feat: …`, `fix(scope): …`): its section is guessed from its words.');
  }
  const sections = note?.generated_json.sections ?? [];
  const section = sections.find((s) => s.items.length > 0);
  const item = section?.items[0];
  if (!item) {
    const why = classified.skip
      ? {
          marker: 'it carries a skip-changelog marker',
          'excluded-author': 'its author is excluded',
          bot: 'its author is a bot',
          merge: 'it is a merge',
          empty: 'its title is empty',
        }[classified.skip]
      : `its section (${settings.sections.find((s) => s.key === classified.section)?.label ?? classified.section}) is hidden`;
    warnings.push(`It would be hidden from the release note: ${why}.`);
  }
  if (classified.breaking && !classified.breakingDescription?.trim()) {
    warnings.push('It is marked breaking but says nothing about it: add a `BREAKING CHANGE: …` footer telling users what to do.');
  }
  let markdown: string | null = null;
  if (section && item) {
    const one = {
      title: '',
      headline_items: note!.generated_json.headline_items,
      sections: [{ ...section, items: [item] }],
      component_tags: [],
      team_attribution: null,
    };
    markdown = renderMarkdown(one, { pullRequestUrl: `${repoUrl}/pull/{number}` }).trim();
  }
  return { section: section?.label ?? null, text: item?.text ?? null, component: item?.component ?? null, markdown, warnings };
}
