// The machine-written summary in the release editor (issue 26, docs/summaries.md): shown with each
// sentence's sources and what verification dropped, used or dismissed by someone who may manage the
// project, never public before a publish; the per-project switch in the generation settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommit } from '../../test/helpers/commits.js';
import { createTestContext, type TestContext } from '../../test/helpers/context.js';
import { dashboardCast } from '../../test/helpers/dashboard-cast.js';
import { eventually } from '../../test/helpers/eventually.js';
import type { DashboardClient } from '../../test/helpers/dashboard-client.js';
import { answer, FakeLlm } from '../../test/helpers/fake-llm.js';
import { storeCommits } from '../../test/helpers/releases.js';

let llm: FakeLlm;
let ctx: TestContext;
let alice: DashboardClient;
let carol: DashboardClient;
let dave: DashboardClient;
let app: { id: string; slug: string };

const editor = (slug = app.slug) => `/dashboard/projects/${slug}/releases/v1.1.0`;
const publicNote = async () => (await ctx.app.inject({ method: 'GET', url: `/v1/changelog/${app.slug}/releases/v1.1.0` })).body;

function history() {
  const a = buildCommit({ message: 'feat: first feature (#10)', tags: ['v1.0.0'], date: '2024-03-01T10:00:00Z' });
  const b = buildCommit({ parents: [a.sha], message: 'fix: crash on start when the config file is empty (#12)', date: '2024-03-02T10:00:00Z' });
  const c = buildCommit({ parents: [b.sha], message: 'feat: dark mode for the settings page (#13)', tags: ['v1.1.0'], date: '2024-03-03T10:00:00Z' });
  return [a, b, c];
}

beforeAll(async () => {
  llm = await new FakeLlm().start();
  ctx = await createTestContext({ SIGNUP_OPEN: 'true', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'stand-in-7b', LLM_RELEASES_PER_RUN: '1' });
  ({ alice, carol, dave, app } = await dashboardCast(ctx, 'dave-lib'));
  await storeCommits(ctx.services, app.id, history());
  await ctx.services.generation.generate(app.slug);
  await ctx.services.entries.publishRelease(app.slug, 'v1.1.0');
}, 60_000);

afterAll(async () => {
  await ctx?.close();
  await llm?.stop();
});

describe('summaries in the dashboard', () => {
  it('are switched on per project in the generation settings, and off by default', async () => {
    const page = await alice.get(`/dashboard/projects/${app.slug}/generation`);
    expect(page.body).toContain('<option value="off" selected>');
    expect(page.body).toContain('Written by stand-in-7b');
    const settings = (await ctx.services.generation.settings(app.slug)).input;
    // The form posts every setting; only `summaries` differs from what is stored.
    await ctx.services.generation.configure(app.slug, { ...settings, summaries: 'review' });
    expect((await ctx.services.generation.settings(app.slug)).resolved.summaries).toBe('review');
  });

  it('shows each sentence with its sources and what was dropped; dismiss and use are for managers only', async () => {
    llm.respond = () =>
      answer({
        introduction: [
          { text: 'This release adds dark mode for the settings page and fixes a crash on start.', items: ['pr:13', 'pr:12'] },
          { text: 'It also fixes CVE-2024-1234.', items: ['pr:12'] },
        ],
        items: [{ id: 'pr:12', text: 'Fix a crash on start when the config file is empty' }],
      });
    const before = await publicNote();
    expect(await ctx.services.summarizer!.summarizeProject(app.id)).toMatchObject({ summarized: 1 });

    const page = await alice.get(editor());
    expect(page.status).toBe(200);
    expect(page.body).toContain('Machine-written summary');
    expect(page.body).toContain('This release adds dark mode for the settings page and fixes a crash on start.');
    expect(page.body).toMatch(/Sources \(2\)[\s\S]*Dark mode for the settings page \(#13\)[\s\S]*Crash on start when the config file is empty \(#12\)/i);
    expect(page.body).toContain('1 dropped by verification');
    expect(page.body).toContain('names what its sources do not: &quot;CVE-2024-1234&quot;');
    expect(await publicNote()).toBe(before);

    // Another tenant, and a member who may only look: no summary action, nothing changed.
    await dave.get('/dashboard');
    await carol.get('/dashboard');
    expect((await dave.post(`${editor()}/status`, { action: 'summary-accept' })).status).toBe(404);
    expect((await carol.post(`${editor()}/status`, { action: 'summary-accept' })).status).toBe(403);
    // No CSRF token.
    expect((await alice.post(`${editor()}/status`, { _csrf: null, action: 'summary-accept' })).status).toBe(403);
    expect((await ctx.services.entries.releaseEditor(app.id, 'v1.1.0')).summary).toMatchObject({ status: 'pending' });

    const used = await alice.post(`${editor()}/status`, { action: 'summary-accept' });
    expect(used.status).toBe(303);
    const after = await alice.get(used.headers.location as string);
    expect(after.body).toContain('The summary is in the note, marked machine-written');
    expect(after.body).toMatch(/Introduction <span class="badge pending machine">machine-written<\/span>/);
    expect(after.body).toContain('changes waiting');
    // Public only once published.
    expect(await publicNote()).toBe(before);
    await alice.post(`${editor()}/status`, { action: 'publish' });
    // Change notifications reach the response cache a moment after the commit.
    const published = await eventually(publicNote, (body) => body !== before);
    expect(published).toContain('This release adds dark mode for the settings page and fixes a crash on start.');
    expect(published).toContain('Fix a crash on start when the config file is empty (#12)');
    expect(published).not.toContain('CVE-2024-1234');

    // Used once: a second use finds no summary waiting.
    const again = await alice.post(`${editor()}/status`, { action: 'summary-accept' });
    expect(again.status).toBe(404);
  });
});
