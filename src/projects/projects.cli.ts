import { publicUrlOf, type CliParts } from '../cli-kit/io.js';
import { ownerOption } from '../cli-kit/options.js';
import { parseContextRef } from '../context.js';
import type { Database } from '../db/database.js';
import type { ProjectRow } from '../db/schema.js';
import type { ProjectsService } from './projects.service.js';

const presentProject = (p: ProjectRow) => ({
  id: p.id,
  name: p.name,
  slug: p.slug,
  owner_type: p.owner_type,
  owner_id: p.owner_user_id ?? p.owner_org_id,
  created_at: p.created_at,
});

/** `changelog projects create|list` (`projects configure` is generation's). */
export function registerProjectsCommands({ program, command, run, withServices, getConfig }: CliParts<{ database: Database; projects: ProjectsService }>): void {
  const projects = program.command('projects').description('manage projects');
  const create = command(projects, 'create', 'create a project')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--slug <slug>', 'public slug: lowercase letters, digits and single hyphens, 2-64 characters');
  ownerOption(create, 'user:EMAIL or org:SLUG', { required: true })
    .action(
      run(async (opts: { name: string; slug: string; owner: string }) =>
        withServices(async (services) => {
          const project = await services.projects.create({ name: opts.name, slug: opts.slug, owner: parseContextRef(opts.owner, '--owner') });
          // The next step, and where its result will show: a new project is otherwise a dead end.
          const text =
            `Created project ${project.slug} (${project.id})\n` +
            `Next, link its repository: changelog repos link --project ${project.slug} --path DIR_OR_GIT_URL\n` +
            `Public changelog: ${publicUrlOf(services.database, getConfig())}/c/${project.slug}`;
          return { json: presentProject(project), text };
        }),
      ),
    );

  ownerOption(command(projects, 'list', 'list projects by slug, with their owner and published entry count'), 'only the projects of user:EMAIL or org:SLUG')
    .action(
      run(async (opts: { owner?: string }) => {
        const owner = opts.owner ? parseContextRef(opts.owner, '--owner') : undefined;
        return withServices(async (services) => {
          const list = await services.projects.list(owner);
          return {
            json: { projects: list.map((p) => ({ ...presentProject(p), owner: p.owner, published_entries: p.published_entry_count })), count: list.length },
            text: list.length
              ? list.map((p) => `${p.slug.padEnd(24)} ${p.owner.padEnd(28)} ${String(p.published_entry_count).padStart(5)} published  ${p.name}`).join('\n')
              : 'No projects',
          };
        });
      }),
    );
}
