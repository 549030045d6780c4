/**
 * `changelog preview`: what generation would produce for a local checkout, stored nowhere.
 * The same reader and engine as the service, so a newcomer sees exactly what a project would get.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError } from '../errors.js';
import { generate, type GenerationStats } from './engine/engine.js';
import { GitError, readRepository } from '../git/local.js';
import { generateReleases, type ReleaseNote } from './engine/releases.js';
import { SettingsError, resolveSettings } from './settings.js';
import { GENERATED_ENTRY_TYPES, SECTION_KEYS, type GeneratedEntry, type GeneratedEntryType } from './engine/types.js';

export interface PreviewOptions {
  path: string;
  type?: string;
  format?: string;
  timeZone?: string;
  rev?: string;
  since?: Date;
  limit?: number;
  excludeAuthors?: string[];
  pathRules?: string[];
  /** Also show the sections a public changelog hides by default (build, tests, maintenance). */
  allSections?: boolean;
}

export interface PreviewResult {
  json: Record<string, unknown>;
  text: string;
}

export async function preview(options: PreviewOptions): Promise<PreviewResult> {
  // One type, or several separated by commas (the benchmark generates all four at once); `release`
  // asks for release notes (one per tag, and Unreleased) instead of, or next to, entries.
  const asked = (options.type ?? 'weekly').split(',').map((t) => t.trim());
  for (const type of asked) {
    if (type !== 'release' && !(GENERATED_ENTRY_TYPES as readonly string[]).includes(type)) {
      throw new AppError('invalid_request', `--type must be one of ${[...GENERATED_ENTRY_TYPES, 'release'].join(', ')} (got "${type}")`);
    }
  }
  const withReleases = asked.includes('release');
  const types = asked.filter((t): t is GeneratedEntryType => t !== 'release');
  const format = options.format ?? 'md';
  if (format !== 'md' && format !== 'json') throw new AppError('invalid_request', `--format must be md or json (got "${format}")`);

  const dir = resolve(options.path);
  // Said plainly: git's own word for a missing directory is "not a git repository".
  if (!existsSync(dir)) throw new AppError('invalid_request', `No such directory: ${dir} (--path must name a git checkout or bare repository)`);
  if (!statSync(dir).isDirectory()) throw new AppError('invalid_request', `Not a directory: ${dir} (--path must name a git checkout or bare repository)`);
  let repo;
  try {
    repo = await readRepository(dir, { rev: options.rev, since: options.since });
  } catch (error) {
    if (error instanceof GitError) throw new AppError('invalid_request', `Cannot read ${dir}: ${error.message}`);
    throw error;
  }
  let settings;
  try {
    settings = resolveSettings({
      entryTypes: types,
      timeZone: options.timeZone,
      excludeAuthors: options.excludeAuthors,
      pathRules: options.pathRules,
      codeowners: repo.codeowners,
      sections: options.allSections ? SECTION_KEYS.map((key) => ({ key, visible: true })) : undefined,
    });
  } catch (error) {
    if (error instanceof SettingsError) {
      throw new AppError('invalid_request', 'Invalid preview options', error.problems.map((message) => ({ message })));
    }
    throw error;
  }
  const result = generate(repo.commits, settings);
  // Newest first, as a changelog reads.
  let entries = [...result.entries].reverse();
  if (options.limit !== undefined) entries = entries.slice(0, options.limit);
  // Release notes from the commits generate() classified (newest first, Unreleased on top).
  let releases = withReleases ? generateReleases(repo.commits, settings, { prepared: result.commits }) : [];
  if (options.limit !== undefined) releases = releases.slice(0, options.limit);

  const json = {
    repository: dir,
    entry_types: types,
    time_zone: settings.timeZone,
    count: entries.length,
    entries: entries.map(present),
    ...(withReleases ? { releases: releases.map(presentRelease) } : {}),
    stats: presentStats(result.stats),
  };
  const parts: string[] = [];
  if (types.length) parts.push(renderPreview(entries, result.stats, types.join('/')));
  if (withReleases) parts.push(renderReleases(releases, result.stats));
  const text = format === 'json' ? JSON.stringify(json, null, 2) : parts.join('\n\n');
  return { json, text };
}

function presentRelease(n: ReleaseNote) {
  const { fingerprint: _fingerprint, ...shown } = n;
  return shown;
}

function renderReleases(notes: ReleaseNote[], stats: GenerationStats): string {
  if (!notes.length) return `No release notes: none of the ${stats.commits} commits is tagged or in a visible section after the newest tag.`;
  return notes
    .map((n) => {
      const meta = [
        n.released_at?.slice(0, 10),
        n.package ? `package ${n.package}` : null,
        n.prerelease ? 'pre-release' : null,
        n.previous_tag ? `since ${n.previous_tag}` : null,
      ].filter(Boolean).join(' · ');
      return `## ${n.title}${meta ? ` (${meta})` : ''}\n\n${n.content || '_No visible changes._'}`;
    })
    .join('\n')
    .trimEnd();
}

function present(e: GeneratedEntry) {
  return {
    key: e.key,
    entry_type: e.entry_type,
    title: e.title,
    content: e.content,
    generated_json: e.generated_json,
    version_label: e.version_label,
    team_attribution: e.team_attribution,
    component_tags: e.component_tags,
    commit_shas: e.commit_shas,
    period_start: e.period_start,
    period_end: e.period_end,
  };
}

function presentStats(stats: GenerationStats) {
  return { commits: stats.commits, skipped: stats.skipped, by_section: stats.bySection };
}

function renderPreview(entries: GeneratedEntry[], stats: GenerationStats, type: string): string {
  if (!entries.length) return `No ${type} entries: none of the ${stats.commits} commits is in a visible section.`;
  return entries
    .map((e) => {
      const meta = [e.version_label, e.entry_type === 'commit' ? e.commit_sha?.slice(0, 12) : null].filter(Boolean).join(' · ');
      return `## ${e.title}${meta ? ` (${meta})` : ''}\n\n${e.content}`;
    })
    .join('\n')
    .trimEnd();
}
