import { readFile, stat } from 'node:fs/promises';
import type { CliParts } from '../cli-kit/io.js';
import { AppError } from '../errors.js';
import type { GenerateProgress, GenerateSummary, GenerationService, SettingsPatch } from './generation.service.js';
import { SECTION_KEYS, type GenerationSettings } from './engine/types.js';
import { AVAILABLE_VIEWS, parsePublicView } from '../projects/public-view.js';
import type { ProjectsService } from '../projects/projects.service.js';

const list = (value: string | undefined) => (value === undefined ? undefined : value.split(',').map((s) => s.trim()).filter(Boolean));

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

export function describeSummary(s: GenerateSummary): string {
  const per = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([type, n]) => `${n} ${type}`)
      .join(', ') || 'none';
  return (
    `${s.project}: ${total(s.created)} entries created (${per(s.created)}), ${total(s.updated)} updated (${per(s.updated)}), ` +
    `${s.unchanged} unchanged` +
    (s.pending ? `, ${s.pending} edited by a person and awaiting regeneration` : '') +
    (s.revised ? `, ${s.revised} published with new content waiting for review` : '') +
    (s.archived ? `, ${s.archived} archived` : '') +
    (s.releases
      ? `; release notes: ${s.releases.created} created, ${s.releases.updated} updated, ${s.releases.unchanged} unchanged` +
        (s.releases.archived ? `, ${s.releases.archived} archived` : '') +
        (s.releases.revised ? `, ${s.releases.revised} published with new content waiting for review` : '')
      : '') +
    (s.history && s.history.published + s.history.drafts + s.history.skipped
      ? `; history: ${s.history.published} published by date, ${s.history.drafts} drafts, ${s.history.skipped} skipped`
      : '') +
    (s.warnings?.length ? `\nwarning: ${s.warnings.join('\nwarning: ')}` : '')
  );
}

/**
 * `--sections feature,fix=Fixes,breaking`: the listed sections are shown, in that order, with an
 * optional label; every other section is hidden.
 */
function parseSections(value: string): NonNullable<SettingsPatch['sections']> {
  const listed = list(value)!.map((item) => {
    const [key, ...label] = item.split('=');
    return { key: key!.trim(), ...(label.length ? { label: label.join('=').trim() } : {}), visible: true };
  });
  const seen = new Set(listed.map((s) => s.key));
  return [...listed, ...SECTION_KEYS.filter((k) => !seen.has(k)).map((key) => ({ key, visible: false }))];
}

/** Team rules as typed, or the API's error naming every malformed one. */
async function teamsFrom(paths: readonly string[], authors: readonly string[]) {
  const { parseTeamRules, SettingsError } = await import('./settings.js');
  try {
    return parseTeamRules(paths, authors);
  } catch (error) {
    if (error instanceof SettingsError) throw new AppError('invalid_request', 'Invalid team rules', error.problems.map((message) => ({ message })));
    throw error;
  }
}

const CODEOWNERS_MAX_BYTES = 3 * 1024 * 1024;

/** `--codeowners FILE|none|repo`: the file's text, no rules at all (''), or the repository's (null). */
async function codeownersOption(value: string): Promise<string | null> {
  if (value === 'repo') return null;
  if (value === 'none') return '';
  let text: string;
  try {
    if ((await stat(value)).size > CODEOWNERS_MAX_BYTES) throw new AppError('invalid_request', `--codeowners: ${value} is larger than 3 MB`);
    text = await readFile(value, 'utf8');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('invalid_request', `--codeowners: cannot read ${value} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return text;
}

/** Where the project's CODEOWNERS comes from, as stored (null: the repository's file). */
const codeownersSource = (input: { codeowners?: string | null }) =>
  input.codeowners === undefined || input.codeowners === null ? 'repository' : input.codeowners === '' ? 'none' : 'project';

const presentSettings = (s: GenerationSettings) => ({
  entryTypes: s.entryTypes,
  publish: s.publish,
  releases: s.releases,
  timeZone: s.timeZone,
  sections: s.sections,
  excludeAuthors: s.excludeAuthors,
  excludeBots: s.excludeBots,
  pathRules: s.pathRules,
  teams: s.teams,
  headlineLimit: s.headlineLimit,
  pullRequestUrl: s.pullRequestUrl,
  codeowners: codeownersSource(s),
  history: s.history,
  historySince: s.historySince,
  summaries: s.summaries,
});



const STAGES: Record<GenerateProgress['stage'], string> = { generate: 'classifying commits', store: 'storing entries    ' };

/**
 * A progress bar for a generation run on `stream` (a terminal), one bar per stage; `stop()` clears
 * it. Without a terminal, or with --json, there is none.
 */
export async function generationProgressBar(stream: NodeJS.WriteStream | undefined): Promise<{ onProgress?: (p: GenerateProgress) => void; stop: () => void }> {
  if (!stream) return { stop: () => {} };
  const { SingleBar } = await import('cli-progress');
  const bar = new SingleBar({ stream, format: '{stage} [{bar}] {value}/{total}', hideCursor: true, clearOnComplete: true });
  let stage: GenerateProgress['stage'] | null = null;
  return {
    onProgress: (p) => {
      if (p.stage !== stage) {
        if (stage) bar.stop();
        stage = p.stage;
        bar.start(p.total, p.done, { stage: STAGES[p.stage] });
      } else bar.update(p.done);
    },
    stop: () => {
      if (stage) bar.stop();
    },
  };
}

/** `changelog generate` and `changelog projects configure`. */
export function registerGenerationCommands({ program, command, run, withServices, io }: CliParts<{ generation: GenerationService; projects: ProjectsService }>): void {
  command(program, 'generate', 'generate and store the changelog entries of a project now')
    .requiredOption('--project <slug>', 'project slug')
    .option('--since <date>', 'only commits from this ISO 8601 date on (and the periods they fall in)')
    .action(
      run(async (opts: { project: string; since?: string; json?: boolean }) => {
        let since: Date | undefined;
        if (opts.since !== undefined) {
          since = new Date(opts.since);
          if (Number.isNaN(since.getTime())) throw new AppError('invalid_request', `--since must be an ISO 8601 date (got "${opts.since}")`);
        }
        return withServices(async (services) => {
          const progress = await generationProgressBar(opts.json ? undefined : io.progress);
          let summary: GenerateSummary;
          try {
            summary = await services.generation.generate(opts.project, {
              ...(since ? { since } : {}),
              ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
            });
          } finally {
            progress.stop();
          }
          return { json: { ...summary }, text: describeSummary(summary) };
        });
      }),
    );

  const projects = program.commands.find((c) => c.name() === 'projects') ?? program.command('projects').description('manage projects');
  command(projects, 'configure', 'change how a project\'s changelog is generated (options left out keep their value)')
    .argument('<slug>', 'project slug')
    .option('--entry-types <list>', 'entry types to generate: commit,daily,weekly,monthly')
    .option('--publish <policy>', 'auto or manual for every type, or per type: weekly=auto,commit=manual,release=auto')
    .option('--releases <bool>', 'store release notes (one per release tag, and Unreleased): true or false')
    .option('--timezone <tz>', 'IANA time zone of daily/weekly/monthly periods')
    .option('--sections <list>', 'sections to show, in order, optionally relabelled: feature,fix=Fixes,breaking')
    .option('--exclude-authors <list>', 'skip commits by these e-mails, names or * patterns (comma-separated)')
    .option('--exclude-bots <bool>', 'skip commits by bots: true or false')
    .option('--path-rule <rule...>', 'GLOB=COMPONENT, e.g. "packages/*/**=$1" (replaces the rules; "none" clears them)')
    .option('--team-rule <rule...>', 'GLOB=TEAM, e.g. "packages/compiler/**=Compiler team" (replaces the path rules of teams)')
    .option('--team-author <rule...>', 'AUTHOR=TEAM by e-mail, name or * pattern, e.g. "alice@example.com=Core" (replaces the author rules of teams)')
    .option('--clear-teams', 'remove every team mapping (CODEOWNERS, when the repository has one, then names the teams)')
    .option('--codeowners <file>', 'use this CODEOWNERS file instead of the repository\'s; "none" ignores the repository\'s, "repo" goes back to it')
    .option('--headline-limit <n>', 'how many headline items a rollup gets at most')
    .option('--pull-request-url <url>', 'link PR numbers, e.g. "https://github.com/o/r/pull/{number}" ("none" clears it)')
    .option('--history <policy>', 'changes from before the link: publish (dated when each reached the branch), draft or skip')
    .option('--history-since <date>', 'skip history before this date, e.g. 2024-01-01 ("none" clears it)')
    .option('--public-view <view>', `what /c/SLUG shows by default: auto, ${AVAILABLE_VIEWS.join(', ')}`)
    .option('--summaries <policy>', 'release summaries by the configured language model (LLM_BASE_URL): off, review or auto (docs/summaries.md)')
    .action(
      run(
        async (
          slug: string,
          opts: {
            entryTypes?: string; publish?: string; releases?: string; timezone?: string; sections?: string; excludeAuthors?: string; excludeBots?: string; pathRule?: string[];
            teamRule?: string[]; teamAuthor?: string[]; clearTeams?: boolean; codeowners?: string; headlineLimit?: string; pullRequestUrl?: string;
            history?: string; historySince?: string; publicView?: string; summaries?: string;
          },
        ) => {
          const patch: SettingsPatch = {};
          if (opts.entryTypes !== undefined) patch.entryTypes = list(opts.entryTypes)!;
          if (opts.publish !== undefined) {
            patch.publish = opts.publish.includes('=')
              ? Object.fromEntries(list(opts.publish)!.map((p) => p.split('=').map((s) => s.trim()) as [string, string]))
              : opts.publish;
          }
          if (opts.releases !== undefined) {
            if (opts.releases !== 'true' && opts.releases !== 'false') throw new AppError('invalid_request', '--releases must be true or false');
            patch.releases = opts.releases === 'true';
          }
          if (opts.timezone !== undefined) patch.timeZone = opts.timezone;
          if (opts.sections !== undefined) patch.sections = parseSections(opts.sections);
          if (opts.excludeAuthors !== undefined) patch.excludeAuthors = list(opts.excludeAuthors)!;
          if (opts.excludeBots !== undefined) {
            if (opts.excludeBots !== 'true' && opts.excludeBots !== 'false') throw new AppError('invalid_request', '--exclude-bots must be true or false');
            patch.excludeBots = opts.excludeBots === 'true';
          }
          if (opts.pathRule !== undefined) patch.pathRules = opts.pathRule.length === 1 && opts.pathRule[0] === 'none' ? [] : opts.pathRule;
          if (opts.headlineLimit !== undefined) {
            if (!/^\d+$/.test(opts.headlineLimit)) throw new AppError('invalid_request', `--headline-limit must be a whole number (got "${opts.headlineLimit}")`);
            patch.headlineLimit = Number(opts.headlineLimit);
          }
          if (opts.pullRequestUrl !== undefined) patch.pullRequestUrl = opts.pullRequestUrl === 'none' ? null : opts.pullRequestUrl;
          if (opts.codeowners !== undefined) patch.codeowners = await codeownersOption(opts.codeowners);
          // Validated with the other settings (off, review or auto).
          if (opts.summaries !== undefined) patch.summaries = opts.summaries;
          const { historyPatch, teamRules } = await import('./settings.js');
          Object.assign(patch, historyPatch(opts));
          // Checked before anything is stored, so a bad view stores no other setting either.
          const publicView = opts.publicView !== undefined ? parsePublicView(opts.publicView) : undefined;
          return withServices(async (services) => {
            if (opts.clearTeams || opts.teamRule !== undefined || opts.teamAuthor !== undefined) {
              const current = opts.clearTeams ? { paths: [], authors: [] } : teamRules((await services.generation.settings(slug)).resolved.teams);
              patch.teams = await teamsFrom(opts.teamRule ?? current.paths, opts.teamAuthor ?? current.authors);
            }
            let published: { entries: number; releases: number; types: string[] } | undefined;
            const settings = await services.generation.configure(slug, patch, { onPublished: (p) => (published = p) });
            let view: string | null | undefined;
            if (publicView !== undefined) {
              const project = await services.projects.findBySlug(slug);
              if (!project) throw new AppError('not_found', `Project ${slug} not found`);
              view = (await services.projects.setPublicView(project.id, publicView)).public_view;
            }
            return {
              json: { project: slug, settings: presentSettings(settings), ...(view !== undefined ? { publicView: view ?? 'auto' } : {}), ...(published ? { published } : {}) },
              text:
                `${slug}: generates ${settings.entryTypes.join(', ')}${settings.releases ? ' and release notes' : ''} in ${settings.timeZone}; ` +
                `publishes ${Object.entries(settings.publish).map(([t, p]) => `${t} ${p}`).join(', ')}; ` +
                `shows ${settings.sections.filter((s) => s.visible).map((s) => s.label).join(', ')}; ` +
                (settings.teams.length
                  ? `teams ${settings.teams.map((t) => `${t.team} (${[...(t.paths ?? []), ...(t.authors ?? [])].join(', ')})`).join('; ')}`
                  : 'no team rules') +
                `; CODEOWNERS: ${{ repository: "the repository's, if any", none: 'not used', project: 'the project\'s own file' }[codeownersSource(settings)]}` +
                `; history: ${settings.history}${settings.historySince ? ` from ${settings.historySince.slice(0, 10)}` : ''}` +
                `; release summaries: ${settings.summaries}` +
                (view !== undefined ? `; public page shows ${view ?? 'auto'} by default` : '') +
                // What the policy held back, published now that it is auto (not what a person unpublished or edited).
                (published ? `\nPublished the existing drafts of ${published.types.join(', ')}: ${published.entries} entries, ${published.releases} release notes` : ''),
            };
          });
        },
      ),
    );
}
