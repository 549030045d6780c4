import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { seedDemo } from '../demo/seed.js';

let ctx: TestContext;
let owner: DashboardClient;

beforeAll(async () => {
  // Open sign-up: a second account, of another tenant, tries the project's settings.
  ctx = await createTestContext({ SIGNUP_OPEN: 'true' });
  await seedDemo(ctx.services);
  owner = new DashboardClient(ctx.app);
  await owner.setUp(ctx.services, { name: 'Demo Owner', email: 'demo@example.com' });
});
afterAll(() => ctx?.close());

describe('public page theme in the project settings', () => {
  it('links the public page and feed, and saves a valid colour and https logo', async () => {
    const page = await owner.get('/dashboard/projects/demo');
    expect(page.body).toContain('<a href="/c/demo">/c/demo</a>');
    expect(page.body).toContain('href="/v1/changelog/demo/feed.atom"');
    expect(page.body).toContain('<label for="f-theme_color">Accent colour</label>');
    const saved = await owner.submit('/dashboard/projects/demo', '/dashboard/projects/demo/theme', {
      theme_color: '#1F6FEB',
      logo_url: 'https://cdn.example.com/logo.png',
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/dashboard/projects/demo?notice=theme-saved');
    const project = await ctx.services.projects.findBySlug('demo');
    expect(project).toMatchObject({ theme_color: '#1f6feb', logo_url: 'https://cdn.example.com/logo.png' });
    expect((await owner.get('/dashboard/projects/demo')).body).toContain('value="#1f6feb"');
    expect((await ctx.app.inject({ url: '/c/demo' })).body).toContain('--accent:#1f6feb');
  });

  it('refuses a bad colour and a non-https logo with messages by field, keeping what was typed', async () => {
    const refused = await owner.submit('/dashboard/projects/demo', '/dashboard/projects/demo/theme', {
      theme_color: 'red;}body{display:none',
      logo_url: 'http://cdn.example.com/logo.png',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Accent colour must be a colour like #1f6feb');
    expect(refused.body).toContain('Logo URL must be an https:// URL');
    expect(refused.body).toContain('value="http://cdn.example.com/logo.png"');
    expect(await ctx.services.projects.findBySlug('demo')).toMatchObject({ theme_color: '#1f6feb' });
  });

  it('refuses a logo whose host would change the public page\'s Content-Security-Policy, naming the field', async () => {
    for (const logo of ['https://a.com;sandbox', "https://a.com'unsafe-eval'/x.png", 'https://a.com,script-src/x.png', 'https://*/x.png', 'https://a.com\n;sandbox/x.png']) {
      const refused = await owner.submit('/dashboard/projects/demo', '/dashboard/projects/demo/theme', { theme_color: '', logo_url: logo });
      expect(refused.status, logo).toBe(400);
      expect(refused.body, logo).toMatch(/Logo URL must (name its host by a domain name|not contain spaces or control characters)/);
    }
    expect(await ctx.services.projects.findBySlug('demo')).toMatchObject({ theme_color: '#1f6feb', logo_url: 'https://cdn.example.com/logo.png' });
  });

  it('clears the theme with empty fields; the database refuses what the form would', async () => {
    await owner.submit('/dashboard/projects/demo', '/dashboard/projects/demo/theme', { theme_color: '', logo_url: '' });
    expect(await ctx.services.projects.findBySlug('demo')).toMatchObject({ theme_color: null, logo_url: null });
    const db = ctx.services.database.db;
    await expect(db.updateTable('projects').set({ logo_url: 'javascript:alert(1)' }).where('slug', '=', 'demo').execute()).rejects.toThrow();
    await expect(db.updateTable('projects').set({ theme_color: 'red' }).where('slug', '=', 'demo').execute()).rejects.toThrow();
  });

  it('saves the default view of the public page, and refuses one the page cannot show', async () => {
    expect((await owner.get('/dashboard/projects/demo')).body).toContain('<label for="f-public_view">Shown by default</label>');
    const saved = await owner.submit('/dashboard/projects/demo', '/dashboard/projects/demo/theme', { theme_color: '', logo_url: '', public_view: 'monthly' });
    expect(saved.status).toBe(303);
    expect(await ctx.services.projects.findBySlug('demo')).toMatchObject({ public_view: 'monthly' });
    expect((await owner.get('/dashboard/projects/demo')).body).toContain('<option value="monthly" selected>');
    for (const bad of ['Releases', 'yearly', '<b>']) {
      const refused = await owner.submit('/dashboard/projects/demo', '/dashboard/projects/demo/theme', { theme_color: '', logo_url: '', public_view: bad });
      expect(refused.status).toBe(400);
    }
    expect(await ctx.services.projects.findBySlug('demo')).toMatchObject({ public_view: 'monthly' });
    await owner.submit('/dashboard/projects/demo', '/dashboard/projects/demo/theme', { theme_color: '', logo_url: '', public_view: '' });
    expect(await ctx.services.projects.findBySlug('demo')).toMatchObject({ public_view: null });
  });

  it("another account cannot change the project's public view or history policy", async () => {
    const other = new DashboardClient(ctx.app);
    expect((await other.signUp({ email: 'mallory@example.com' })).location).toBe('/dashboard');
    const view = await other.post('/dashboard/projects/demo/theme', { theme_color: '', logo_url: '', public_view: 'commit' });
    expect([403, 404]).toContain(view.status);
    const history = await other.post('/dashboard/projects/demo/generation', {
      entry_types: ['commit'], time_zone: 'UTC', exclude_authors: '', path_rules: '', history: 'skip', history_since: '2020-01-01',
    });
    expect([403, 404]).toContain(history.status);
    expect(await ctx.services.projects.findBySlug('demo')).toMatchObject({ public_view: null });
    expect((await ctx.services.generation.settings('demo')).resolved).toMatchObject({ history: 'publish', historySince: null });
  });

  it('needs a manager: a signed-out visitor is sent to sign in', async () => {
    const stranger = new DashboardClient(ctx.app);
    const res = await stranger.post('/dashboard/projects/demo/theme', { theme_color: '#000000', logo_url: '' });
    expect([302, 303, 403]).toContain(res.status);
    expect(await ctx.services.projects.findBySlug('demo')).toMatchObject({ theme_color: null });
  });
});
