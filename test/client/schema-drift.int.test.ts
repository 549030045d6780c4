// The typed client's committed types (packages/client/src/schema.d.ts) must be what the served
// /openapi.json generates; after a contract change, `npm run client:generate` brings them up to date.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_SCHEMA_PATH, renderClientSchema } from '../../scripts/client-schema.js';
import { createTestContext, type TestContext } from '../helpers/context.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

it('the committed client types equal those generated from the served /openapi.json', async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  const generated = await renderClientSchema(res.json());
  const committed = readFileSync(CLIENT_SCHEMA_PATH, 'utf8');
  // One readable assertion, not a 700-line diff, when only the message matters.
  if (committed !== generated) {
    expect.fail('packages/client/src/schema.d.ts is out of date with /openapi.json: run `npm run client:generate` and commit the result');
  }
});

it('notices a change of the document (the comparison is not vacuous)', async () => {
  const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
  const changed = { ...doc, paths: { ...doc.paths, '/v1/extra': doc.paths['/health'] } };
  expect(await renderClientSchema(changed)).not.toBe(readFileSync(CLIENT_SCHEMA_PATH, 'utf8'));
});
