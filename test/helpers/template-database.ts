import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { loadMigrations, migrate, migrateDatabaseNamed } from '../../src/db/migrate.js';

// Vitest global setup of the integration projects: migrates one template database per run, which every
// test file then copies instead of creating and migrating its own (createTestDatabase in database.ts).
// PGlite: a migrated instance's data directory as a tarball under tmp/ (loading it skips initdb and the
// migrations: about 0.4 s against 3 to 10 s). PostgreSQL: a database that files copy with
// CREATE DATABASE … TEMPLATE. The tarball is kept between runs, named by what it was built from.

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated PGlite data directory tarball (pglite project). */
    pgliteTemplate: string;
    /** Name of the migrated PostgreSQL template database (postgres project). */
    postgresTemplate: string;
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEMPLATES_DIR = join(ROOT, 'tmp', 'test-templates');

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (project.name === 'postgres') return setupPostgres(project);
  if (project.name === 'pglite') {
    // Vitest sets projects up one after another; PostgreSQL's template (its migrations run in the
    // server) is started here so that it builds while PGlite's migrates in this process (a clean clone
    // builds both: about 10 s each).
    // (`vitest.projects` lists the projects of the run, not whether they have files: a run of PGlite files
    // alone builds PostgreSQL's template too, and drops it at the end.)
    const build = project.vitest.projects.some((p) => p.name === 'postgres') ? postgresTemplateBuild() : undefined;
    // A run whose postgres project has no file never sets it up: the template is dropped here instead.
    const dropUnclaimed = () => (build && !build.claimed ? build.ready.then(build.drop, () => undefined) : Promise.resolve());
    try {
      project.provide('pgliteTemplate', await pgliteTemplate());
    } catch (error) {
      await dropUnclaimed();
      throw error;
    }
    if (build) return dropUnclaimed;
  }
  // The file timed alone seeds a data directory of its own from the same template.
  if (project.name === 'alone') project.provide('pgliteTemplate', await pgliteTemplate());
}

/** What a template is built from: every migration, the migration runner and PGlite's version. */
function templateKey(): string {
  const hash = createHash('sha256');
  for (const migration of loadMigrations()) hash.update(`${migration.version}:${migration.checksum}\n`);
  hash.update(readFileSync(join(ROOT, 'src/db/migrate.ts')));
  hash.update(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}

async function pgliteTemplate(): Promise<string> {
  const file = join(TEMPLATES_DIR, `pglite-${templateKey()}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(TEMPLATES_DIR, { recursive: true });
  // Older templates (other migrations) go: a few tens of megabytes each.
  for (const old of readdirSync(TEMPLATES_DIR)) if (old.startsWith('pglite-')) rmSync(join(TEMPLATES_DIR, old), { force: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create();
  const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, { pglite });
  try {
    await migrate(database);
    const tarball = await pglite.dumpDataDir('none');
    // Written aside and renamed: a concurrent run never reads half a file.
    const building = `${file}.${process.pid}`;
    writeFileSync(building, Buffer.from(await tarball.arrayBuffer()));
    renameSync(building, file);
  } finally {
    await database.close();
  }
  return file;
}

/** The scratch-database prefix of a run: named after TEST_DATABASE_URL's database (see .ci/run's cleanup). */
export function scratchPrefix(adminUrl: string): string {
  return (
    new URL(adminUrl).pathname
      .slice(1)
      .replace(/[^a-z0-9_]/gi, '')
      .slice(0, 40) || 'changelog'
  );
}

interface PostgresTemplateBuild {
  name: string;
  ready: Promise<void>;
  drop: () => Promise<void>;
  /** Set by the postgres project's setup, whose teardown then drops the template. */
  claimed: boolean;
}

/** One build of PostgreSQL's template per run, shared by the setups that ask (projects load this module apart). */
function postgresTemplateBuild(): PostgresTemplateBuild {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('The postgres project needs TEST_DATABASE_URL');
  const store = globalThis as { [BUILD]?: PostgresTemplateBuild };
  return (store[BUILD] ??= buildPostgresTemplate(adminUrl));
}
const BUILD = Symbol.for('changelog-test.postgres-template');

function buildPostgresTemplate(adminUrl: string): PostgresTemplateBuild {
  const name = `${scratchPrefix(adminUrl)}_t_template_${randomBytes(4).toString('hex')}`.toLowerCase();
  const drop = async () => {
    // A later setup in this process (vitest's watch mode sets up again after a config change) builds anew.
    const store = globalThis as { [BUILD]?: PostgresTemplateBuild };
    if (store[BUILD]?.name === name) delete store[BUILD];
    await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
  const ready = (async () => {
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    try {
      // Closed before any file copies it: CREATE DATABASE … TEMPLATE refuses a template with sessions.
      await migrateDatabaseNamed(adminUrl, name);
      // A closed session's backend leaves a moment later; until then the template cannot be copied.
      await withAdmin(adminUrl, async (client) => {
        const deadline = Date.now() + 10_000;
        while ((await client.query('SELECT 1 FROM pg_stat_activity WHERE datname = $1', [name])).rowCount) {
          if (Date.now() > deadline) throw new Error(`sessions on template database ${name} did not end`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      });
    } catch (error) {
      await drop();
      throw error;
    }
  })();
  // Awaited by a setup later; a failure is reported there, not as an unhandled rejection meanwhile.
  ready.catch(() => undefined);
  return { name, ready, drop, claimed: false };
}

async function setupPostgres(project: TestProject): Promise<() => Promise<void>> {
  const build = postgresTemplateBuild();
  build.claimed = true;
  await build.ready;
  project.provide('postgresTemplate', build.name);
  return build.drop;
}

export async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
