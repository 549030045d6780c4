import type { CliParts } from '../cli/io.js';
import { parseContextRef } from '../context.js';
import type { ProjectRow } from '../db/schema.js';

const presentProject = (p: ProjectRow) => ({
  id: p.id,
  name: p.name,
  slug: p.slug,
  owner_type: p.owner_type,
  owner_id: p.owner_user_id ?? p.owner_org_id,
  created_at: p.created_at,
});

/** `changelog projects create` (`projects configure` is generation's). */
export function registerProjectsCommands({ program, command, run, withServices }: CliParts): void {
  const projects = program.command('projects').description('manage projects');
  command(projects, 'create', 'create a project')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--slug <slug>', 'public slug: lowercase letters, digits and single hyphens, 2-64 characters')
    .requiredOption('--owner <owner>', 'user:EMAIL or org:SLUG')
    .action(
      run(async (opts: { name: string; slug: string; owner: string }) =>
        withServices(async (services) => {
          const project = await services.projects.create({ name: opts.name, slug: opts.slug, owner: parseContextRef(opts.owner, '--owner') });
          return { json: presentProject(project), text: `Created project ${project.slug} (${project.id})` };
        }),
      ),
    );
}
