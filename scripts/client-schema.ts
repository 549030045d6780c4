import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';

/** The committed types of the typed client (packages/client), generated from /openapi.json. */
export const CLIENT_SCHEMA_PATH = fileURLToPath(new URL('../packages/client/src/schema.d.ts', import.meta.url));

const HEADER = `// Generated from the service's /openapi.json by \`npm run client:generate\` (openapi-typescript).
// Do not edit: a test fails when this file differs from what the served document produces.

`;

/** TypeScript types for an OpenAPI document, as the committed schema.d.ts holds them. */
export async function renderClientSchema(document: object): Promise<string> {
  const nodes = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return HEADER + astToString(nodes);
}

/** The document this build serves at /openapi.json, from an app on a throwaway in-memory database. */
export async function servedOpenApiDocument(): Promise<object> {
  const { PGlite } = await import('@electric-sql/pglite');
  const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, { pglite: await PGlite.create() });
  try {
    await migrate(database);
    const config = loadConfig({ NODE_ENV: 'test', RESPONSE_CACHE: 'false' });
    const app = await buildApp({ config, database });
    try {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
      return res.json() as object;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
