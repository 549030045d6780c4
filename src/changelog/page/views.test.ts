import { describe, expect, it } from 'vitest';
import type { EntryRow } from '../../db/schema.js';
import { renderMarkdown } from '../../html/markdown.js';
import { contrastRatio, textColorOn } from '../../projects/theme.js';
import type { ChangelogView } from './public-page.service.js';
import { changelogPage, DEFAULT_ACCENT, entryPage, PALETTE } from './views.js';

const project = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Acme <App>',
  slug: 'acme-app',
  theme_color: null,
  logo_url: null,
  published_entry_count: 1,
  published_commit_count: 0,
  published_daily_count: 0,
  published_weekly_count: 1,
  published_monthly_count: 0,
  published_release_count: 0,
  published_changed_at: new Date('2026-01-01T00:00:00Z'),
  public_view: null,
};
const entry = {
  id: '00000000-0000-4000-8000-000000000002',
  project_id: project.id,
  entry_type: 'weekly',
  status: 'published',
  title: 'Week one',
  content: '# Big\n\n## Features\n\n- thing',
  generated_json: null,
  version_label: null,
  team_attribution: null,
  component_tags: ['api'],
  commit_id: null,
  commit_shas: [],
  period_start: null,
  period_end: null,
  published_at: new Date('2026-01-02T00:00:00Z'),
  created_at: new Date('2026-01-02T00:00:00Z'),
  updated_at: new Date('2026-01-02T00:00:00Z'),
} as EntryRow;
const view: ChangelogView = { project, entries: [entry], hasMore: false, components: ['api'], types: ['weekly'], view: 'weekly' };

describe('public page views', () => {
  it('text colours meet WCAG AA (4.5:1) on every background they sit on', () => {
    for (const fg of [PALETTE.text, PALETTE.muted, PALETTE.link]) {
      for (const bg of [PALETTE.page, PALETTE.card]) expect(contrastRatio(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastRatio(PALETTE.text, PALETTE.chip)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(DEFAULT_ACCENT, textColorOn(DEFAULT_ACCENT))).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps one h1 and a heading order without gaps under it', () => {
    // Pages take their entries' Markdown already rendered (the routes render it, large sources in a thread).
    const content = renderMarkdown(entry.content!);
    const list = changelogPage('https://x.example', view, { type: undefined, component: undefined, page: 1 }, [content]);
    expect(list.match(/<h1[ >]/g)).toHaveLength(1);
    // The entry is an h2; its Markdown's top heading (#) becomes h3 and ## becomes h4.
    expect(list).toContain('<h3>Big</h3>');
    expect(list).toContain('<h4>Features</h4>');
    expect(list).toContain('<title>Acme &lt;App&gt; changelog</title>');
    const single = entryPage('https://x.example', project, entry, content);
    expect(single.match(/<h1[ >]/g)).toHaveLength(1);
    expect(single).toContain('<h2>Big</h2>');
  });

  it('dates a single change, not a rollup whose title already names its period', () => {
    const rollup = { ...entry, period_start: new Date('2026-11-16T00:00:00Z'), period_end: new Date('2026-11-23T00:00:00Z'), published_at: new Date('2026-11-23T00:00:00Z') };
    const change = { ...entry, id: '00000000-0000-4000-8000-000000000003', entry_type: 'commit', title: 'One change', published_at: new Date('2026-11-19T10:00:00Z') } as EntryRow;
    const page = changelogPage('https://x.example', { ...view, entries: [rollup, change], types: ['weekly', 'commit'] }, { type: undefined, component: undefined, page: 1 }, [
      renderMarkdown(rollup.content!),
      renderMarkdown(change.content!),
    ]);
    expect(page).toContain('<time datetime="2026-11-19T10:00:00.000Z">19 November 2026</time>');
    expect(page).not.toContain('23 November 2026');
  });
});
