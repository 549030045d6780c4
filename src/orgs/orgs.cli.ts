import type { CliParts } from '../cli/io.js';
import type { OrganizationRow } from '../db/schema.js';
import type { OrgsService } from './orgs.service.js';

const presentOrg = (o: OrganizationRow) => ({ id: o.id, slug: o.slug, name: o.name, created_at: o.created_at });

/** `changelog orgs create`. */
export function registerOrgsCommands({ program, command, run, withServices }: CliParts<{ orgs: OrgsService }>): void {
  const orgs = program.command('orgs').description('manage organizations');
  command(orgs, 'create', 'create an organization owned by a user')
    .requiredOption('--slug <slug>', 'organization slug')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--owner <email>', 'e-mail of the owning user')
    .action(
      run(async (opts: { slug: string; name: string; owner: string }) =>
        withServices(async (services) => {
          const org = await services.orgs.create({ slug: opts.slug, name: opts.name, ownerEmail: opts.owner });
          return { json: { ...presentOrg(org), owner: opts.owner.toLowerCase() }, text: `Created organization ${org.slug} (${org.id})` };
        }),
      ),
    );
}
