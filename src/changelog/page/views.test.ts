import { describe, expect, it } from 'vitest';
import type { EntryRow } from '../../db/schema.js';
import { renderInlineMarkdown, renderMarkdown } from '../../html/markdown.js';
import type { PublishedRelease } from '../changelog.repository.js';
import { contrastRatio, textColorOn } from '../../projects/theme.js';
import type { ChangelogView } from './public-page.service.js';
import { bodyOf, changelogPage, DEFAULT_ACCENT, entryPage, PALETTE } from './views.js';

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
const view: ChangelogView = { project, entries: [entry], releases: [], hasMore: false, components: ['api'], types: ['weekly'], view: 'weekly' };
const NO_FILTER = { type: undefined, component: undefined, page: 1 };
/** The page's inputs rendered as the routes render them (in the calling thread here: the sources are small). */
const rendered = (items: { content: string | null; title: string }[]) => ({
  // What the route renders: the body, less a sole item (bodyOf).
  contents: items.map((i) => renderMarkdown(i.content ?? '')),
  titles: items.map((i) => renderInlineMarkdown(i.title)),
});

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
    const list = changelogPage('https://x.example', view, NO_FILTER, { contents: [content], titles: [renderInlineMarkdown(entry.title!)] });
    expect(list.match(/<h1[ >]/g)).toHaveLength(1);
    // The entry is an h2; its Markdown's top heading (#) becomes h3 and ## becomes h4.
    expect(list).toContain('<h3>Big</h3>');
    expect(list).toContain('<h4>Features</h4>');
    expect(list).toContain('<title>Acme &lt;App&gt; changelog</title>');
    const single = entryPage('https://x.example', project, entry, content, renderInlineMarkdown(entry.title!));
    expect(single.match(/<h1[ >]/g)).toHaveLength(1);
    expect(single).toContain('<h2>Big</h2>');
  });

  it('dates a rollup by the start of its period and a single change by its publication', () => {
    const rollup = { ...entry, period_start: new Date('2026-11-16T00:00:00Z'), period_end: new Date('2026-11-23T00:00:00Z'), published_at: new Date('2026-11-23T00:00:00Z') };
    const change = { ...entry, id: '00000000-0000-4000-8000-000000000003', entry_type: 'commit', title: 'One change', published_at: new Date('2026-11-19T10:00:00Z') } as EntryRow;
    const page = changelogPage('https://x.example', { ...view, entries: [rollup, change], types: ['weekly', 'commit'] }, NO_FILTER, rendered([rollup, change].map((e) => ({ content: e.content, title: e.title! }))));
    expect(page).toContain('<time datetime="2026-11-16T00:00:00.000Z">16 November 2026</time>');
    expect(page).toContain('<time datetime="2026-11-19T10:00:00.000Z">19 November 2026</time>');
    expect(page).not.toContain('23 November 2026');
  });

  it("shows a single change's one item once: as its title, with its section, not again as the body", () => {
    const title = 'Fix `parser` on empty input';
    const sole = {
      ...entry,
      entry_type: 'commit',
      title,
      content: '### Bug fixes\n\n- **api:** Fix `parser` on empty input\n\n_By Ada_\n',
      generated_json: { title, headline_items: [], sections: [{ section_type_key: 'fix', label: 'Bug fixes', items: [{ text: title, component: 'api' }] }], component_tags: ['api'], team_attribution: null },
    } as EntryRow;
    const page = changelogPage('https://x.example', { ...view, entries: [sole] }, NO_FILTER, rendered([{ content: bodyOf(sole), title }]));
    expect(page.match(/on empty input/g)).toHaveLength(1);
    expect(page).toContain('Fix <code>parser</code> on empty input</a></h2>');
    expect(page).toContain('<span class="section">Bug fixes · api</span>');
    // The team's attribution stays.
    expect(page).toContain('<em>By Ada</em>');
    // Edited content (more than the one item) is shown as it is.
    const edited = { ...sole, content: `${sole.content}\nA longer story, written by a person.\n` };
    const full = changelogPage('https://x.example', { ...view, entries: [edited] }, NO_FILTER, rendered([{ content: bodyOf(edited), title }]));
    expect(full).toContain('A longer story');
    expect(full.match(/on empty input/g)).toHaveLength(2);
  });

  it("renders a title's inline Markdown, never an attacker's markup or script link", () => {
    const title = '<script>alert(1)</script> [click](javascript:alert(1)) **bold** `code` <img src=x onerror=alert(1)>';
    const evil = { ...entry, title };
    const page = changelogPage('https://x.example', { ...view, entries: [evil] }, NO_FILTER, rendered([{ content: evil.content, title }]));
    expect(page).not.toMatch(/<script|<img|href="javascript:/i);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('<strong>bold</strong> <code>code</code>');
    const single = entryPage('https://x.example', project, evil, renderMarkdown(evil.content!), renderInlineMarkdown(title));
    // The document title is text: tags dropped, then escaped again.
    expect(single).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; [click](javascript:alert(1)) bold code &lt;img src=x onerror=alert(1)&gt; · Acme &lt;App&gt; changelog</title>');
    expect(single).not.toMatch(/<script|<img|href="javascript:/i);
  });

  it('lists release notes in the releases view, dated by their release, with the releases feed', () => {
    const release = {
      id: '00000000-0000-4000-8000-000000000009',
      project_id: project.id,
      key: 'v1.2.0',
      tag: 'v1.2.0',
      package: null,
      version: '1.2.0',
      prerelease: false,
      previous_tag: 'v1.1.0',
      released_at: new Date('2026-10-05T12:00:00Z'),
      title: 'v1.2.0: `--fast` mode',
      content: '### Features\n\n- Faster\n',
      generated_json: { title: 'v1.2.0', headline_items: [], sections: [], component_tags: [], team_attribution: null },
      team_attribution: null,
      component_tags: [],
      commit_shas: [],
      published_at: new Date('2026-10-06T00:00:00Z'),
      updated_at: new Date('2026-10-06T00:00:00Z'),
      sort_key: '2026-10-05T12:00:00.000000Z',
    } as unknown as PublishedRelease;
    const releasesView: ChangelogView = { ...view, entries: [], releases: [release], view: 'releases', hasReleases: true };
    const page = changelogPage('https://x.example', releasesView, { ...NO_FILTER, view: 'releases' }, rendered([{ content: release.content, title: release.title }]));
    expect(page).toContain('<a href="/c/acme-app/releases/v1.2.0">v1.2.0: <code>--fast</code> mode</a>');
    expect(page).toContain('<time datetime="2026-10-05T12:00:00.000Z">5 October 2026</time>');
    expect(page).toContain('href="/v1/changelog/acme-app/feed.atom?view=releases"');
    expect(page).toMatch(/<a href="\/c\/acme-app\?view=releases" aria-current="page">Releases<\/a>/);
    // No component filter: release notes have none.
    expect(page).not.toContain('filter-component');
  });
});
