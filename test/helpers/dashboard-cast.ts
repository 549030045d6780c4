import { expect } from 'vitest';
import { DashboardClient } from './dashboard-client.js';
import { buildProject } from './factories.js';
import type { TestContext } from './context.js';

/**
 * The people of a dashboard suite, signed in: alice (first account) owns the organization `acme` and
 * its project `acme-app`; carol is an acme member who may see its projects, not change them; dave is
 * another tenant with a project of his own (`otherSlug`).
 */
export async function dashboardCast(ctx: TestContext, otherSlug: string) {
  const db = ctx.services.database.db;
  const alice = new DashboardClient(ctx.app);
  const carol = new DashboardClient(ctx.app);
  const dave = new DashboardClient(ctx.app);
  expect((await alice.setUp(ctx.services, { name: 'alice', email: 'alice@example.com' })).status).toBe(303);
  expect((await carol.signUp({ name: 'carol', email: 'carol@example.com' })).status).toBe(303);
  expect((await dave.signUp({ name: 'dave', email: 'dave@example.com' })).status).toBe(303);
  await alice.submit('/dashboard', '/dashboard/orgs', { name: 'Acme', slug: 'acme' });
  const carolId = (await db.selectFrom('users').select('id').where('email', '=', 'carol@example.com').executeTakeFirstOrThrow()).id;
  const org = await db.selectFrom('organizations').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow();
  await db.insertInto('organization_members').values({ organization_id: org.id, user_id: carolId, role: 'member' }).execute();
  const app = await buildProject(ctx.services, { type: 'org', slug: 'acme' }, { slug: 'acme-app' });
  const other = await buildProject(ctx.services, { type: 'user', email: 'dave@example.com' }, { slug: otherSlug });
  return { alice, carol, dave, app, other };
}

export type DashboardCast = Awaited<ReturnType<typeof dashboardCast>>;
