import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { buildProject, buildUser, generatedJson } from '../../test/helpers/factories.js';

/**
 * Entry text comes from commit messages: anyone who can push a commit writes it. The API stores it as
 * given and must hand it back as exactly that string, inside JSON that stays valid and inert however
 * hostile the text (the rendering engine's own escaping is tested with the engine).
 */
const CONTROL = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');
const HOSTILE: Record<string, string> = {
  html: '<h1>Hi</h1><img src=x onerror=alert(1)><iframe src="javascript:alert(2)"></iframe>',
  script: '</script><script>alert(document.cookie)</script><!--',
  markdown: '[click](javascript:alert(1)) [x](data:text/html;base64,PHNjcmlwdD4=) ![i](https://evil.example/t.png "t") <https://a.b>',
  control: `before${CONTROL}\u007f\u0085\u2028\u2029after`,
  quotes: '"}, "status": "draft", "x": {"\\"\\\\\'`',
  unicode: '\u202egnp.exe \ufeff 😀 e\u0301 \ud83d\ude00 𝕏',
  json: '{"entries":[],"meta":{}}',
  huge: `${'A commit message line that goes on. '.repeat(27_000)}`.slice(0, 999_000) + '<script>end</script>',
};

let ctx: TestContext;
let slug: string;
let secret: string;
const ids = new Map<string, string>();

beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_ENABLED: 'false' });
  const user = await buildUser(ctx.services);
  slug = (await buildProject(ctx.services, { type: 'user', email: user.email })).slug;
  secret = (await ctx.services.keys.create({ name: 'k', context: { type: 'user', email: user.email } })).secret;
  const names = Object.keys(HOSTILE);
  // Through the real import path (what `changelog entries import` runs), as published entries.
  const result = await ctx.services.entries.import(
    slug,
    names.map((name, i) => ({
      entry_type: 'commit',
      status: 'published',
      published_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      title: HOSTILE[name]!.slice(0, 1000),
      content: HOSTILE[name],
      generated_json: { ...generatedJson(name), title: HOSTILE[name]!.slice(0, 500) },
      component_tags: [HOSTILE[name]!.slice(0, 200)],
    })),
  );
  names.forEach((name, i) => ids.set(name, result.ids[i]!));
});

afterAll(async () => ctx?.close());

function expectInertJson(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  // No raw control character survives into the bytes: JSON escapes them all.
  expect([...res.body].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
  return JSON.parse(res.body);
}

describe('untrusted entry text', () => {
  it.each(Object.keys(HOSTILE))('hands %s text back verbatim inside valid, inert JSON', async (name) => {
    const res = await ctx.app.inject({ url: `/v1/changelog/${slug}/entries/${ids.get(name)}` });
    const body = expectInertJson(res);
    expect(body.entry.content).toBe(HOSTILE[name]);
    expect(body.entry.title).toBe(HOSTILE[name]!.slice(0, 1000));
    expect(body.entry.generated_json.title).toBe(HOSTILE[name]!.slice(0, 500));
    expect(body.entry.component_tags).toEqual([HOSTILE[name]!.slice(0, 200)]);
  });

  it('keeps pages, ETags and the authenticated listing intact around a 1 MB message', async () => {
    const page = await ctx.app.inject({ url: `/v1/changelog/${slug}?limit=100` });
    const body = expectInertJson(page);
    expect(body.entries).toHaveLength(Object.keys(HOSTILE).length);
    expect(body.entries.map((e: { content: string }) => e.content).sort()).toEqual(Object.values(HOSTILE).sort());
    const etag = String(page.headers.etag);
    expect((await ctx.app.inject({ url: `/v1/changelog/${slug}?limit=100`, headers: { 'if-none-match': etag } })).statusCode).toBe(304);

    const listing = await ctx.app.inject({ url: '/v1/projects?entries_limit=200', headers: { authorization: `Bearer ${secret}` } });
    const projects = expectInertJson(listing).projects;
    expect(projects[0].changelog_entries.find((e: { id: string }) => e.id === ids.get('huge')).content).toBe(HOSTILE.huge);
  });
});
