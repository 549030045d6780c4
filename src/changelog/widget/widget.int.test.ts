import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helpers/context.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

describe('GET /widget.js', () => {
  it('serves the script to any origin with an ETag, and 304 on revalidation', async () => {
    const res = await ctx.app.inject({ url: '/widget.js', headers: { origin: 'https://customer.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.body).toContain("customElements.define('changelog-feed'");
    const again = await ctx.app.inject({ url: '/widget.js', headers: { 'if-none-match': res.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });

  it('the reads the widget makes answer any origin, including a preflight', async () => {
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/v1/changelog/some-project?limit=10',
      headers: { origin: 'https://customer.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'accept' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });
});
