import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { classifyCommit } from './classify.js';
import { formatNames, isBot } from './people.js';
import { attribute, createTeamResolver, parseCodeowners } from './teams.js';
import type { Change } from './types.js';

const commit = (name: string, email: string, message = 'feat: x', changes: Change[] = [['M', 'src/a.ts']]) =>
  classifyCommit(buildCommit({ name, email, message, changes }));

describe('people', () => {
  it('formats two names, then "and N others"', () => {
    expect(formatNames([])).toBeNull();
    expect(formatNames(['A'])).toBe('A');
    expect(formatNames(['A', 'B'])).toBe('A and B');
    expect(formatNames(['A', 'B', 'C'])).toBe('A, B and 1 other');
    expect(formatNames(['A', 'B', 'C', 'D', 'E'])).toBe('A, B and 3 others');
  });

  it('recognises bots', () => {
    expect(isBot({ name: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' })).toBe(true);
    expect(isBot({ name: 'Renovate Bot', email: 'bot@renovateapp.com' })).toBe(true);
    expect(isBot({ name: 'github-actions', email: 'x@example.com' })).toBe(true);
    expect(isBot({ name: 'Abbot Smith', email: 'abbot@example.com' })).toBe(false);
    expect(isBot({ name: 'Ada', email: 'ada@example.com' })).toBe(false);
  });
});

describe('attribution by people', () => {
  it('lists authors and co-authors, most commits first, bots left out', () => {
    const commits = [
      commit('Bea', 'bea@x.io'),
      commit('Al', 'al@x.io', 'feat: y\n\nCo-authored-by: Bea <bea@x.io>\nCo-authored-by: Cy <cy@x.io>'),
      commit('dependabot[bot]', '1+dependabot[bot]@users.noreply.github.com', 'Bump a from 1 to 2'),
      commit('Al', 'al@x.io'),
      commit('Di', 'di@x.io'),
    ];
    expect(attribute(commits.map((c) => ({ commit: c, teams: [] })))).toBe('Al, Bea and 2 others');
    expect(attribute([{ commit: commits[1]!, teams: [] }])).toBe('Al, Bea and 1 other');
  });

  it('counts one person once per commit even if they co-author themselves', () => {
    const c = commit('Al', 'al@x.io', 'feat: y\n\nCo-authored-by: Al <AL@x.io>');
    expect(attribute([{ commit: c, teams: [] }])).toBe('Al');
  });

  it('is null when only bots contributed', () => {
    const c = commit('renovate[bot]', 'bot@renovateapp.com', 'Update dependency a to v2');
    expect(attribute([{ commit: c, teams: [] }])).toBeNull();
  });
});

describe('teams', () => {
  it('maps paths and authors to teams', () => {
    const resolver = createTeamResolver(
      [
        { team: 'Web', paths: ['apps/web/**'] },
        { team: 'Platform', authors: ['*@platform.example'] },
      ],
      null,
    );
    const web = commit('Al', 'al@x.io', 'feat: ui', [['M', 'apps/web/src/a.tsx']]);
    const platform = commit('Bo', 'bo@platform.example', 'fix: x', [['M', 'infra/main.tf']]);
    const both = commit('Bo', 'bo@platform.example', 'fix: y', [['M', 'apps/web/b.ts']]);
    expect(resolver.teamsOf(web, [['M', 'apps/web/src/a.tsx']])).toEqual(['Web']);
    expect(resolver.teamsOf(platform, [['M', 'infra/main.tf']])).toEqual(['Platform']);
    expect(resolver.teamsOf(both, [['M', 'apps/web/b.ts']])).toEqual(['Platform', 'Web']);
    expect(resolver.teamsOf(web, [['M', 'README.md']])).toEqual([]);
  });

  it('uses CODEOWNERS when the mapping names no team: last matching pattern wins', () => {
    const codeowners = [
      '# owners',
      '*           @acme/core',
      '/docs/      @acme/docs-team',
      '*.css       @acme/design',
      'apps/api    @acme/api alice@example.com',
      '/docs/legal/',
    ].join('\n');
    const resolver = createTeamResolver([], codeowners);
    const c = commit('Al', 'al@x.io');
    expect(resolver.teamsOf(c, [['M', 'src/index.ts']])).toEqual(['acme/core']);
    expect(resolver.teamsOf(c, [['M', 'docs/guide.md']])).toEqual(['acme/docs-team']);
    expect(resolver.teamsOf(c, [['M', 'web/styles/site.css']])).toEqual(['acme/design']);
    expect(resolver.teamsOf(c, [['M', 'apps/api/server.ts']])).toEqual(['acme/api']);
    expect(resolver.teamsOf(c, [['M', 'docs/legal/terms.md']])).toEqual([]);
    expect(resolver.teamsOf(c, [['M', 'docs/a.md'], ['M', 'src/b.ts']])).toEqual(['acme/core', 'acme/docs-team']);
  });

  it('keeps only teams from CODEOWNERS: a person or e-mail owner is a reviewer, and the authors sign instead', () => {
    const resolver = createTeamResolver([], '* @orhun @kondanta\n/docs/ docs@example.com @acme/docs\n');
    const c = commit('Al', 'al@x.io');
    expect(resolver.teamsOf(c, [['M', 'src/lib.rs']])).toEqual([]);
    expect(resolver.teamsOf(c, [['M', 'docs/a.md']])).toEqual(['acme/docs']);
    expect(attribute([{ commit: c, teams: resolver.teamsOf(c, [['M', 'src/lib.rs']]) }])).toBe('Al');
  });

  it('prefers the mapping over CODEOWNERS', () => {
    const resolver = createTeamResolver([{ team: 'Docs', paths: ['docs/**'] }], '* @acme/core');
    expect(resolver.teamsOf(commit('Al', 'al@x.io'), [['M', 'docs/a.md']])).toEqual(['Docs']);
  });

  it('ignores owners that are not handles or e-mails', () => {
    expect(parseCodeowners('.github/CODEOWNERS\nrevision 3')[1]!.owners).toEqual([]);
  });

  it('attributes to teams when any commit has one', () => {
    const c = commit('Al', 'al@x.io');
    expect(attribute([{ commit: c, teams: ['Web'] }, { commit: c, teams: ['Web', 'API'] }, { commit: c, teams: ['Infra'] }])).toBe('Web, API and 1 other');
  });
});
