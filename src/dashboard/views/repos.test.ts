import { describe, expect, it } from 'vitest';
import { reposPanel, type ReposPanel } from './repos.js';

const panel = (overrides: Partial<ReposPanel>) =>
  reposPanel({ slug: 'my-app', links: [], commits: new Map(), canManage: true, csrf: 'token', generating: false, pathsAllowed: [], localPaths: true, ...overrides }).toString();

describe('the Repositories panel', () => {
  it('tells a server without REPO_PATHS_ALLOWED how to link a local checkout anyway: the CLI, with this project', () => {
    const body = panel({});
    expect(body).toContain('<code>changelog repos link --project my-app --path DIR</code>');
    expect(body).toContain('<code>REPO_PATHS_ALLOWED</code>');
  });

  it('names the allowed directories when there are some, and escapes the slug it repeats', () => {
    expect(panel({ pathsAllowed: ['/srv/git'] })).toContain('or a directory inside /srv/git.');
    expect(panel({ slug: '<b>' })).toContain('--project &lt;b&gt; --path DIR');
  });

  it('offers local paths only to whom may link them, without naming the directories to others', () => {
    const body = panel({ pathsAllowed: ['/srv/git'], localPaths: false });
    expect(body).toContain('only by the installation owner');
    expect(body).not.toContain('/srv/git');
  });
});
