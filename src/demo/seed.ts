import type { GeneratedJson } from '../db/schema.js';
import type { UsersService } from '../auth/users.service.js';
import type { EntriesService } from '../entries/entries.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { renderMarkdown } from '../generation/engine/render.js';

export const DEMO_SLUG = 'demo';
export const DEMO_EMAIL = 'demo@example.com';

interface DemoEntry {
  entry_type: 'commit' | 'weekly';
  title: string;
  version_label?: string;
  sections: { key: string; label: string; items: [string, string | null][] }[];
  daysAgo: number;
  team: string;
}

const ENTRIES: DemoEntry[] = [
  {
    entry_type: 'weekly',
    title: 'Week of faster exports and a safer login',
    version_label: 'v2.4.0',
    team: 'Platform and Identity',
    daysAgo: 1,
    sections: [
      { key: 'feature', label: 'Features', items: [['Export changelogs as RSS and JSON Feed', 'api'], ['Dark mode for the dashboard', 'dashboard']] },
      { key: 'fix', label: 'Bug fixes', items: [['Session cookies now expire after sign-out everywhere', 'auth']] },
      { key: 'performance', label: 'Performance', items: [['Listing pages render 3× faster on large projects', 'api']] },
    ],
  },
  {
    entry_type: 'commit',
    title: 'Support Conventional Commit scopes as component tags',
    version_label: 'v2.4.0',
    team: 'Ada Lovelace',
    daysAgo: 2,
    sections: [{ key: 'feature', label: 'Features', items: [['A scope such as `feat(api):` tags the entry with the `api` component', 'generator']] }],
  },
  {
    entry_type: 'weekly',
    title: 'Week of breaking cleanups',
    version_label: 'v2.3.0',
    team: 'Platform',
    daysAgo: 8,
    sections: [
      { key: 'breaking', label: 'Breaking changes', items: [['The `v0` endpoints are removed; use `/v1`', 'api']] },
      { key: 'deprecation', label: 'Deprecations', items: [['`X-Legacy-Token` is deprecated in favour of API keys', 'auth']] },
      { key: 'fix', label: 'Bug fixes', items: [['Time-zone boundaries of weekly rollups', 'generator'], ['Escaping of HTML in commit messages', null]] },
    ],
  },
  {
    entry_type: 'commit',
    title: 'Fix pagination when two entries share a publish time',
    version_label: 'v2.2.1',
    team: 'Grace Hopper and Linus Torvalds',
    daysAgo: 12,
    sections: [{ key: 'fix', label: 'Bug fixes', items: [['Entries published in the same second are no longer skipped or repeated between pages', 'api']] }],
  },
  {
    entry_type: 'weekly',
    title: 'Week of API keys',
    version_label: 'v2.2.0',
    team: 'Identity',
    daysAgo: 15,
    sections: [
      { key: 'feature', label: 'Features', items: [['Scoped API keys limited to selected projects', 'auth'], ['Key rotation with a grace period', 'auth']] },
      { key: 'security', label: 'Security', items: [['Keys are stored as SHA-256 hashes only', 'auth']] },
      { key: 'documentation', label: 'Documentation', items: [['API reference at /docs', 'docs']] },
    ],
  },
];

function toGeneratedJson(entry: DemoEntry): GeneratedJson {
  const headline = entry.sections.filter((s) => s.key === 'breaking' || s.key === 'feature');
  return {
    title: entry.title,
    headline_items: headline.flatMap((s) => s.items.slice(0, 2).map(([text]) => ({ section_type_key: s.key, title: text, body: null }))),
    sections: entry.sections.map((s) => ({
      section_type_key: s.key,
      label: s.label,
      items: s.items.map(([text, component]) => ({ text, component })),
    })),
    component_tags: [...new Set(entry.sections.flatMap((s) => s.items.map(([, c]) => c).filter((c): c is string => !!c)))].sort(),
    team_attribution: entry.team,
  };
}

/**
 * On an empty installation, creates a demo user and a `demo` project whose published entries
 * make every public route show something real. Returns false when there was anything already.
 */
export async function seedDemo(services: { users: UsersService; projects: ProjectsService; entries: EntriesService }, now = new Date()): Promise<boolean> {
  if ((await services.users.count()) > 0 || (await services.projects.count()) > 0) return false;
  const user = await services.users.create({ email: DEMO_EMAIL, name: 'Demo User' });
  await services.projects.create({ name: 'Demo', slug: DEMO_SLUG, owner: { type: 'user', email: user.email } });
  const day = 86_400_000;
  const entries = ENTRIES.map((entry) => {
    const json = toGeneratedJson(entry);
    const at = new Date(now.getTime() - entry.daysAgo * day);
    return {
      entry_type: entry.entry_type,
      status: 'published' as const,
      title: entry.title,
      // Rendered as generated entries are: the title is its own field, not repeated in the content.
      content: renderMarkdown(json),
      generated_json: json,
      version_label: entry.version_label ?? null,
      team_attribution: entry.team,
      component_tags: json.component_tags,
      commit_shas: [],
      period_start: entry.entry_type === 'weekly' ? new Date(at.getTime() - 7 * day).toISOString() : null,
      period_end: entry.entry_type === 'weekly' ? at.toISOString() : null,
      published_at: at.toISOString(),
    };
  });
  const draft = { entry_type: 'weekly' as const, status: 'draft' as const, title: 'Upcoming: this week (draft, not public)' };
  await services.entries.import(DEMO_SLUG, [...entries, draft]);
  return true;
}
