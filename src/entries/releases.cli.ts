import type { Command } from 'commander';
import type { CliParts, Output } from '../cli-kit/io.js';
import type { ReleaseNoteRow } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { ReleaseListRow } from './entries.repository.js';
import type { EntriesService, ReleaseAction, ReleaseCounts, ReleaseEditorView } from './entries.service.js';
import { parseReleaseFilter, RELEASE_PAGE_MAX, ROOT_PACKAGE, type RawReleaseFilter } from './release-filter.js';

type Services = { projects: ProjectsService; entries: EntriesService };

interface FilterOptions {
  project: string;
  status?: string;
  package?: string;
  prerelease?: string;
  since?: string;
}

/** The filter options every `releases` command that selects by filter shares. */
function filterOptions(cmd: Command, statusDefault?: string): Command {
  return cmd
    .requiredOption('--project <slug>', 'project slug')
    .option('--status <status>', 'draft, published, archived or all', statusDefault)
    .option('--package <name>', `one package's tag series (${ROOT_PACKAGE}: the root package's, tags like v1.2.0)`)
    .option('--prerelease <bool>', 'true: only pre-releases; false: none')
    .option('--since <tag|date>', 'releases after this tag, or released on or after this date (YYYY-MM-DD)');
}

const rawOf = (opts: FilterOptions): RawReleaseFilter => ({ status: opts.status, package: opts.package, prerelease: opts.prerelease, since: opts.since });

/** What a listed note and a shown note both say about it. */
const presentCommon = (n: ReleaseListRow | ReleaseNoteRow) => ({
  id: n.id,
  tag: n.tag,
  package: n.package,
  version: n.version,
  prerelease: n.prerelease,
  previous_tag: n.previous_tag,
  released_at: n.released_at?.toISOString() ?? null,
  title: n.title,
  status: n.status,
  published_at: n.published_at?.toISOString() ?? null,
});

const presentRow = (n: ReleaseListRow) => ({ ...presentCommon(n), history: n.history_at !== null, items: n.items, commits: n.commits });

const presentNote = (n: ReleaseNoteRow) => ({ ...presentCommon(n), content: n.content, commit_shas: n.commit_shas });

/** What the release editor changed in a note (null: nothing edited), from the editor's view of it. */
function editsOf(view: ReleaseEditorView) {
  if (!view.edits) return null;
  const items = view.sections.flatMap((s) => s.items);
  const label = new Map(view.sections.map((s) => [s.key, s.label]));
  return {
    edited_at: view.editedAt?.toISOString() ?? null,
    introduction: view.introduction,
    /** Published with content waiting for a publish (the edits or generation's). */
    waiting: view.waiting,
    hidden: items.filter((i) => i.hidden).map((i) => ({ key: i.key, text: i.generatedText })),
    edited: items.filter((i) => i.text !== i.generatedText).map((i) => ({ key: i.key, generated: i.generatedText, text: i.text })),
    moved: items.filter((i) => i.section !== i.generatedSection).map((i) => ({ key: i.key, text: i.text, from: i.generatedSection, to: i.section })),
    headlines: view.edits.headlines === null ? null : items.filter((i) => i.headline && !i.hidden).map((i) => i.text),
    new_since_edit: items.filter((i) => i.isNew).map((i) => ({ key: i.key, text: i.text })),
    label: Object.fromEntries(label),
  };
}

/** The edits as lines before the note's Markdown. */
function editsText(edits: ReturnType<typeof editsOf>): string[] {
  if (!edits) return ['Not edited in the release editor.'];
  const section = (key: string) => edits.label[key] ?? key;
  return [
    `Edited in the release editor${edits.edited_at ? ` ${edits.edited_at.slice(0, 16).replace('T', ' ')} UTC` : ''}${
      edits.waiting ? ' · changes waiting: readers see them once published (`changelog releases publish`)' : ''
    }`,
    ...(edits.introduction ? ['Introduction:', ...edits.introduction.split('\n').map((l) => `  ${l}`)] : []),
    ...edits.hidden.map((i) => `Hidden: ${i.text}`),
    ...edits.edited.map((i) => `Edited: ${i.generated} → ${i.text}`),
    ...edits.moved.map((i) => `Moved: ${i.text} (${section(i.from)} → ${section(i.to)})`),
    ...(edits.headlines ? [`Headlines: ${edits.headlines.join(' · ') || 'none'}`] : []),
    ...edits.new_since_edit.map((i) => `New since the edit: ${i.text}`),
  ];
}

const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n.toLocaleString('en')}`)
    .join(', ') || 'none';

const line = (n: ReleaseListRow) =>
  `${(n.tag ?? 'unreleased').padEnd(24)} ${n.status.padEnd(9)} ${n.released_at?.toISOString().slice(0, 10) ?? '-'.padEnd(10)}  ${String(n.items).padStart(4)} items${
    n.package ? `  ${n.package}` : ''
  }${n.prerelease ? '  pre-release' : ''}`;

/** `releases list` (and `entries releases`, its former name): a page, or every page with --all; never stops silently. */
function listAction({ run, withServices }: Pick<CliParts<Services>, 'run' | 'withServices'>) {
  return run(async (opts: FilterOptions & { limit: string; after?: string; all?: boolean }): Promise<Output> => {
    const limit = Number(opts.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > RELEASE_PAGE_MAX) {
      throw new AppError('invalid_request', `--limit must be a whole number from 1 to ${RELEASE_PAGE_MAX}`);
    }
    const filter = parseReleaseFilter(rawOf(opts));
    return withServices(async (services) => {
      const project = await services.projects.findBySlug(opts.project);
      if (!project) throw notFound(`Project ${opts.project}`);
      const counts: ReleaseCounts = await services.entries.releaseCounts(project.id, filter);
      const rows: ReleaseListRow[] = [];
      let after = opts.after;
      let next: string | null;
      do {
        const page = await services.entries.releases(project.id, filter, { limit, ...(after ? { after } : {}) });
        rows.push(...page.releases);
        next = page.next;
        after = next ?? undefined;
      } while (opts.all && next);
      const head = `${counts.total.toLocaleString('en')} release notes matching in ${project.slug} (by status: ${counted(counts.byStatus)})`;
      const more = next ? [`More: add --after ${next} (or --all for every page)`] : [];
      return {
        json: { project: project.slug, counts, releases: rows.map(presentRow), next },
        text: [head, ...(rows.length ? rows.map(line) : ['No release notes']), ...more].join('\n'),
      };
    });
  });
}

/** `changelog releases list|show|publish|unpublish`; `entries releases` lists as `releases list` does. */
export function registerReleasesCommands({ program, command, run, withServices }: CliParts<Services>): void {
  const releases = program.command('releases').description("review and publish a project's release notes");
  const list = listAction({ run, withServices });
  filterOptions(command(releases, 'list', "a project's release notes newest first (Unreleased on top), a page at a time"), 'all')
    .option('--limit <n>', `release notes per page (1 to ${RELEASE_PAGE_MAX})`, '100')
    .option('--after <cursor>', 'continue after the page that printed this cursor')
    .option('--all', 'every page, not just the first')
    .action(list);

  const entries = program.commands.find((c) => c.name() === 'entries');
  if (entries) {
    filterOptions(command(entries, 'releases', 'list release notes (same as `changelog releases list`)'), 'all')
      .option('--limit <n>', `release notes per page (1 to ${RELEASE_PAGE_MAX})`, '100')
      .option('--after <cursor>', 'continue after the page that printed this cursor')
      .option('--all', 'every page, not just the first')
      .action(list);
  }

  command(releases, 'show', 'one release note: its tag, dates, status and Markdown')
    .requiredOption('--project <slug>', 'project slug')
    .argument('<tag>', 'release tag, or "unreleased"')
    .action(
      run(async (tag: string, opts: { project: string }) =>
        withServices(async (services) => {
          const project = await services.projects.findBySlug(opts.project);
          if (!project) throw notFound(`Project ${opts.project}`);
          const view = await services.entries.releaseEditor(project.id, tag);
          const { note } = view;
          const head = `${note.tag ?? 'Unreleased'}  ${note.status}  released ${note.released_at?.toISOString().slice(0, 10) ?? 'not yet'}${
            note.package ? `  package ${note.package}` : ''
          }${note.previous_tag ? `  since ${note.previous_tag}` : ''}`;
          const edits = editsOf(view);
          return { json: { ...presentNote(note), edits }, text: [head, ...editsText(edits), '', note.content || '(no changes listed)'].join('\n') };
        }),
      ),
    );

  for (const action of ['publish', 'unpublish'] as const satisfies readonly ReleaseAction[]) {
    filterOptions(
      command(releases, action, `${action} release notes: the tags named, or with --all every one matching the filters (one transaction)`),
    )
      .argument('[tags...]', 'release tags ("unreleased": the Unreleased note)')
      .option('--all', 'every release note matching the filters (publish: the drafts among them)')
      .action(
        run(async (tags: string[], opts: FilterOptions & { all?: boolean }) => {
          const filtered = opts.status !== undefined || opts.package !== undefined || opts.prerelease !== undefined || opts.since !== undefined;
          if (tags.length && (opts.all || filtered)) throw new AppError('invalid_request', 'Name tags, or use --all with filters; not both');
          if (!tags.length && !opts.all) {
            throw new AppError('invalid_request', `Name the tags to ${action}, or add --all (with --status, --package, --prerelease, --since to narrow it)`);
          }
          const filter = opts.all ? parseReleaseFilter(rawOf(opts)) : undefined;
          return withServices(async (services) => {
            const project = await services.projects.findBySlug(opts.project);
            if (!project) throw notFound(`Project ${opts.project}`);
            const result = await services.entries.bulkReleaseStatus(project.id, action, filter ? { filter } : { tags });
            const verb = action === 'publish' ? 'Published' : 'Unpublished';
            return {
              json: { project: project.slug, action, ...result },
              text: `${verb} ${result.changed.toLocaleString('en')} release ${result.changed === 1 ? 'note' : 'notes'} of ${project.slug}${
                result.unchanged ? `; ${result.unchanged.toLocaleString('en')} left as they were` : ''
              }`,
            };
          });
        }),
      );
  }
}
