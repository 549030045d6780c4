import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  // A private project exists: the front page must not name it (nor any other).
  const owner = await buildUser(ctx.services);
  await buildProject(ctx.services, { type: 'user', email: owner.email });
});
afterAll(() => ctx?.close());

describe('GET /', () => {
  it('sends the visitor to the dashboard, listing no project', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/dashboard');
    expect(res.body).toBe('');
  });

  it('is not part of the API description', async () => {
    const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(spec.paths)).not.toContain('/');
    expect(Object.keys(spec.paths)).not.toContain('/favicon.ico');
  });
});

describe('favicon', () => {
  it.each(['/favicon.ico', '/favicon.svg'])('%s is served as SVG and cached', async (url) => {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.body).toMatch(/^<svg /);
    const again = await ctx.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('is linked from dashboard pages', async () => {
    // Every page has the layout's head, the sign-up page (where /login sends the first visitor) included.
    const page = await ctx.app.inject({ method: 'GET', url: '/dashboard/signup' });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });
});
