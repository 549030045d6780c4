import { Option } from 'commander';
import type { CliParts } from '../cli-kit/io.js';
import { ownerOption, parseDate, parseInteger, splitList } from '../cli-kit/options.js';
import { parseContextRef } from '../context.js';
import type { KeysService, KeyView } from './keys.service.js';

const keyStatus = (k: KeyView) =>
  k.revoked_at ? 'revoked' : k.expires_at && k.expires_at.getTime() <= Date.now() ? 'expired' : 'active';

// The presenter names every field it shows: a key's hash can never slip into output.
const presentKey = (k: KeyView) => ({
  id: k.id,
  name: k.name,
  display_prefix: k.display_prefix,
  context: { type: k.context_type, id: k.user_id ?? k.org_id },
  scope: k.scope,
  projects: k.projects,
  // Capabilities beyond reading: `publish` (the automation API).
  capabilities: k.can_publish ? ['publish'] : [],
  status: keyStatus(k),
  created_at: k.created_at,
  last_used_at: k.last_used_at,
  expires_at: k.expires_at,
  revoked_at: k.revoked_at,
  previous_secret_expires_at: k.previous_expires_at,
});

/** `changelog keys create|list|rename|rotate|revoke|delete`. */
export function registerKeysCommands({ program, command, run, withServices }: CliParts<{ keys: KeysService }>): void {
  const keys = program.command('keys').description('manage API keys');
  const create = command(keys, 'create', 'create an API key; its secret is printed this once').requiredOption('--name <name>', 'name shown in lists');
  ownerOption(create, 'user:EMAIL or org:SLUG', { required: true })
    .option('--projects <slugs>', 'limit the key to these projects (comma-separated); default: all projects of the owner')
    .option('--expires-at <date>', 'ISO 8601 date after which the key stops working')
    .option('--publish', 'the publish scope: CI may publish and unpublish, sync and preview through the API (default: read-only)')
    .action(
      run(async (opts: { name: string; owner: string; projects?: string; expiresAt?: string; publish?: boolean }) =>
        withServices(async (services) => {
          const { key, secret } = await services.keys.create({
            name: opts.name,
            context: parseContextRef(opts.owner, '--owner'),
            projectSlugs: splitList(opts.projects),
            expiresAt: opts.expiresAt ? parseDate(opts.expiresAt, '--expires-at') : null,
            publish: opts.publish === true,
          });
          return {
            json: { ...presentKey(key), key: secret },
            text: `Created ${key.can_publish ? 'a publishing' : 'a read-only'} API key "${key.name}" (${key.id})\nSecret, shown this once — store it now:\n${secret}`,
          };
        }),
      ),
    );

  ownerOption(command(keys, 'list', 'list API keys (never their secrets)'), 'only keys of user:EMAIL or org:SLUG')
    .action(
      run(async (opts: { owner?: string }) =>
        withServices(async (services) => {
          const list = await services.keys.list(opts.owner ? parseContextRef(opts.owner, '--owner') : undefined);
          const text = list.length
            ? list
                .map(
                  (k) =>
                    `${k.id}  ${k.display_prefix}…  ${keyStatus(k).padEnd(7)}  ${(k.can_publish ? 'publish' : 'read').padEnd(7)}  ${k.scope === 'all' ? 'all projects' : k.projects.join(',')}  ${k.name}`,
                )
                .join('\n')
            : 'No API keys';
          return { json: { keys: list.map(presentKey), count: list.length }, text };
        }),
      ),
    );

  command(keys, 'rename', 'rename an API key')
    .argument('<id>', 'key id')
    .requiredOption('--name <name>', 'new name')
    .action(
      run(async (id: string, opts: { name: string }) =>
        withServices(async (services) => {
          const key = await services.keys.rename(id, opts.name);
          return { json: presentKey(key), text: `Renamed ${key.id} to "${key.name}"` };
        }),
      ),
    );

  command(keys, 'rotate', 'replace the secret of an API key; the old one stops working at once')
    .argument('<id>', 'key id')
    .addOption(new Option('--grace <seconds>', 'keep the old secret working this long (at most 86400)').default('0'))
    .action(
      run(async (id: string, opts: { grace: string }) =>
        withServices(async (services) => {
          const { key, secret } = await services.keys.rotate(id, parseInteger(opts.grace, '--grace'));
          return {
            json: { ...presentKey(key), key: secret },
            text: `Rotated ${key.id}\nNew secret, shown this once — store it now:\n${secret}`,
          };
        }),
      ),
    );

  for (const [name, description] of [
    ['revoke', 'revoke an API key (it is kept, listed as revoked, and refused from the next request)'],
    ['delete', 'delete an API key for good'],
  ] as const) {
    command(keys, name, description)
      .argument('<id>', 'key id')
      .action(
        run(async (id: string) =>
          withServices(async (services) => {
            if (name === 'delete') {
              const result = await services.keys.delete(id);
              return { json: result, text: `Deleted ${id}` };
            }
            const key = await services.keys.revoke(id);
            return { json: presentKey(key), text: `Revoked ${key.id}` };
          }),
        ),
      );
  }
}
