import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser } from '../../test/helpers/factories.js';

// Fixed cases for what the property-based tests found (each was a 500 or a non-contract answer).
let ctx: TestContext;
let slug: string;
let secret: string;

beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_ENABLED: 'false' });
  const user = await buildUser(ctx.services);
  slug = (await buildProject(ctx.services, { type: 'user', email: user.email })).slug;
  secret = (await ctx.services.keys.create({ name: 'k', context: { type: 'user', email: user.email } })).secret;
});
afterAll(async () => ctx?.close());

describe('hostile parameters', () => {
  it.each([
    ['Infinity', 'limit'],
    ['-Infinity', 'offset'],
    ['1e309', 'limit'],
    ['1e309', 'offset'],
    ['9'.repeat(400), 'offset'],
    ['99999999999999999999', 'offset'],
  ])('%s as %s is a 400 naming the parameter', async (value, parameter) => {
    const res = await ctx.app.inject({ url: `/v1/changelog/${slug}?${parameter}=${value}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ parameter })] });
  });

  it('entries_limit=Infinity on the authenticated listing is a 400', async () => {
    const res = await ctx.app.inject({ url: '/v1/projects?entries_limit=Infinity', headers: { authorization: `Bearer ${secret}` } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0]).toMatchObject({ parameter: 'entries_limit', message: 'must be an integer in decimal digits' });
  });

  it.each([
    ['an over-long path parameter', `/v1/changelog/${'a'.repeat(150)}`],
    ['an over-long uuid parameter', `/v1/changelog/${slug}/entries/${'é'.repeat(150)}`],
    ['a malformed percent-encoding', '/v1/changelog/%E0%A4%A'],
  ])('%s is a 400 in the ErrorResponse shape, with a request id', async (_name, url) => {
    const res = await ctx.app.inject({ url });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-request-id']).toBeDefined();
    expect(Object.keys(res.json()).sort()).toEqual(['code', 'error']);
    expect(res.json().code).toBe('invalid_request');
  });
});
