import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { classifyCommit } from './classify.js';
import { docsAreWebsite } from './rules.js';
import type { Change } from './types.js';

const classify = (message: string, extra: Parameters<typeof buildCommit>[0] = {}, options = {}) => classifyCommit(buildCommit({ message, ...extra }), options);
const section = (message: string, changes?: Change[]) => classify(message, changes ? { changes } : {}).section;

describe('Conventional Commits', () => {
  it.each([
    ['feat: a', 'feature'],
    ['fix: a', 'fix'],
    ['perf: a', 'performance'],
    ['docs: a', 'documentation'],
    ['refactor: a', 'internal'],
    ['build: a', 'build'],
    ['ci: a', 'build'],
    ['test: a', 'test'],
    ['chore: a', 'chore'],
    ['style: a', 'chore'],
    ['workflow: a', 'build'],
    ['dx: a', 'feature'],
    ['revert: a', 'revert'],
    ['security: a', 'security'],
    ['deprecate: a', 'deprecation'],
    ['deps: a', 'dependencies'],
  ])('%s → %s', (message, expected) => {
    expect(section(message)).toBe(expected);
  });

  it('compares types case-insensitively', () => {
    expect(section('FEAT: shout')).toBe('feature');
    expect(section('Fix(Parser): capital')).toBe('fix');
  });

  it('removes the prefix, capitalises, keeps the PR suffix and reads the PR number', () => {
    const c = classify('feat(api): add pagination to lists (#123)');
    expect(c).toMatchObject({ title: 'Add pagination to lists (#123)', scope: 'api', pr: 123, section: 'feature', rule: 'conventional:feat' });
  });

  it('puts breaking changes (! or footer) in the breaking section and flags them', () => {
    expect(classify('feat!: drop node 18')).toMatchObject({ section: 'breaking', breaking: true });
    expect(classify('refactor(core)!: rename')).toMatchObject({ section: 'breaking', breaking: true, scope: 'core' });
    expect(classify('fix: x\n\nBREAKING CHANGE: config moved')).toMatchObject({ section: 'breaking', breaking: true, breakingDescription: 'config moved' });
  });

  it('sends maintenance types scoped to dependencies to the dependencies section', () => {
    expect(section('chore(deps): bump serde from 1.0.1 to 1.0.2')).toBe('dependencies');
    expect(section('Build(deps-dev): Bump rollup from 2.16.1 to 2.17.1 (#8598)')).toBe('dependencies');
    expect(section('feat(deps): support a new plugin API')).toBe('feature');
  });

  it('treats an unknown type as an area prefix and classifies the rest', () => {
    expect(classify('TypeScript: fix parens around satisfies (#9)')).toMatchObject({
      section: 'fix',
      scope: 'TypeScript',
      title: 'Fix parens around satisfies (#9)',
    });
    expect(classify('Playground: add support for rangeStart')).toMatchObject({ section: 'feature', scope: 'Playground' });
  });
});

describe('unconventional styles', () => {
  it.each([
    ['Fix: crash on empty file', 'fix'],
    ['Update: make rule configurable', 'feature'],
    ['New: add no-foo rule', 'feature'],
    ['Breaking: drop old API', 'breaking'],
    ['Docs: clarify install', 'documentation'],
    ['Upgrade: espree to 9', 'dependencies'],
    ['Chore: tidy scripts', 'chore'],
    ['Fix:no space after the colon', 'fix'],
    ['[BUGFIX] Handle nulls', 'fix'],
  ])('legacy tag %s → %s', (message, expected) => {
    expect(section(message)).toBe(expected);
  });

  it('strips a legacy tag from the title', () => {
    expect(classify('Fix: crash on empty file').title).toBe('Crash on empty file');
    expect(classify('Breaking: drop old API')).toMatchObject({ breaking: true, title: 'Drop old API' });
  });

  it.each([
    ['Add ability to call as API', 'feature'],
    ['Implement range formatting', 'feature'],
    ['Support TypeScript 5.4 syntax', 'feature'],
    ['Improve error messages', 'feature'],
    ['Fix crash with empty objects', 'fix'],
    ['Fixed a typo in the README', 'documentation'],
    ['Prevent breaking inside template literals', 'fix'],
    ["Don't print parens around arrow bodies", 'fix'],
    ['Remove unused helper', 'refactor'], // library code, no tests or changelog entry beside it
    ['Bump babylon to 7.0.0-beta.8 (#1118)', 'dependencies'],
    ['Upgrade to Jest 19 (#762)', 'dependencies'],
    ['Deprecate the --foo flag', 'deprecation'],
    ['Optimize the printer loop', 'performance'],
    ['Speed up glob expansion', 'performance'],
    ['Refactor traversal (#442)', 'refactor'],
    ['Rename quotes option', 'refactor'],
    ['Update README.md', 'documentation'],
    ['Document the API', 'documentation'],
    ['Update travis config', 'build'],
    ['Release 1.13.5', 'chore'],
    ['Fix XSS in the playground share link', 'security'],
  ])('leading verb: %s → %s', (message, expected) => {
    expect(section(message)).toBe(expected);
  });

  it('reads a test topic from the words only when tests change, or nothing else does', () => {
    expect(section('Update snapshots', [['M', 'tests/__snapshots__/format.test.ts.snap']])).toBe('test');
    expect(
      section('Add tests for decorators', [
        ['A', 'tests/decorators.test.ts'],
        ['M', 'src/decorators.ts'],
      ]),
    ).toBe('test');
    expect(section('Add tests for decorators', [['A', 'notes/decorators.txt']])).toBe('test');
    // "test" names the regex here: library code changes and no test does.
    expect(
      section('Update `isSCSS` test regex (#7922)', [
        ['M', 'src/language-css/utils.js'],
        ['M', 'tests_config/run_spec.js'],
      ]),
    ).toBe('refactor');
  });

  it("takes a clear verb's topic only from the words right after it", () => {
    expect(section('Stop mutating `doc.parts` when printing fill')).toBe('fix');
    expect(section('Preserve parentheses for JSDoc type casts')).toBe('fix');
    expect(section('Fix crash when the readme option is set in a long config')).toBe('fix');
    expect(section('Fix readme links')).toBe('documentation');
    expect(section('Update the logic that prints changelog entries')).toBe('documentation'); // ambiguous verb: whole subject
  });

  it('reads [Area] prefixes as the scope and classifies the rest', () => {
    expect(classify('[JSX] Fix whitespace around comments')).toMatchObject({ scope: 'JSX', section: 'fix', title: 'Fix whitespace around comments' });
    expect(classify('[WIP] experiments')).toMatchObject({ section: 'chore', scope: null });
  });

  it('recognises dependency updates written with code spans', () => {
    expect(section('Update `@prettier/cli` to `1.0.5` (#15739)')).toBe('dependencies');
  });

  it('uses the changed paths when the words do not say (docs-only, tests-only, CI-only)', () => {
    expect(section('Tweak wording', [['M', 'docs/options.md']])).toBe('documentation');
    expect(
      section('Change things', [
        ['M', 'tests/format/jsfmt.spec.js'],
        ['A', 'tests/format/__snapshots__/a.snap'],
      ]),
    ).toBe('test');
    expect(section('Something', [['M', '.github/workflows/ci.yml']])).toBe('build');
    expect(
      section('Something else', [
        ['M', 'src/a.ts'],
        ['M', 'docs/a.md'],
      ]),
    ).toBe('other');
  });

  it('files a feature or fix that changes only the website, tests, docs or CI by what it changes (issue 24)', () => {
    // prettier's `Add Dropbox as a user`, `Add cursorOffset to Playground`: the website, hidden by default.
    expect(section('Add Dropbox as a user (#5965)', [['M', 'website/data/users.yml'], ['A', 'website/static/images/users/dropbox.svg']])).toBe('website');
    expect(section('feat: add sponsors page', [['A', 'website/pages/sponsors.jsx']])).toBe('website');
    expect(section('fix: flaky snapshot', [['M', 'tests/format/__snapshots__/a.snap']])).toBe('test');
    expect(section('Fix release workflow', [['M', '.github/workflows/release.yml'], ['M', 'scripts/release.js']])).toBe('build');
    expect(section('Add examples for every option', [['A', 'docs/options.md'], ['A', 'examples/a.md']])).toBe('documentation');
    // A declared type stands unless only the website or tests change: examples may ship, `feat(docker):` is distribution.
    expect(section('feat(examples): add GitLab templates', [['A', 'examples/gitlab.toml']])).toBe('feature');
    expect(section('Fix playground and its docs', [['M', 'website/playground/Playground.jsx'], ['M', 'docs/playground.md']])).toBe('website');
    // A project's own feature of how it ships (`feat(docker):`) stays one; a mixture of kinds keeps its words.
    expect(section('feat(docker): build arm64 images', [['M', 'Dockerfile'], ['M', '.github/workflows/docker.yml']])).toBe('feature');
    expect(section('Add arm64 images', [['M', 'Dockerfile'], ['M', '.github/workflows/docker.yml']])).toBe('build');
    expect(section('fix: the example and its test', [['M', 'examples/a.md'], ['M', 'tests/a.test.js']])).toBe('fix');
    // What users may get stays as its words say: library code, a manifest, a lock file a binary is built from.
    expect(section('feat: add exports field', [['M', 'package.json']])).toBe('feature');
    expect(section('Fix panic with unicode characters (#5674)', [['M', 'rust/Cargo.lock'], ['A', 'test/function/samples/unicode-string/main.js']])).not.toBe('test');
    expect(section('fix: crash on empty input', [['M', 'src/parse.ts'], ['M', 'tests/parse.test.ts']])).toBe('fix');
    expect(section('feat!: drop the website build from the package', [['M', 'website/build.js']])).toBe('breaking');
  });

  it.each([
    ['✨ add dark mode', 'feature', 'Add dark mode'],
    [':bug: fix login redirect', 'fix', 'Fix login redirect'],
    ['🐛 Fix login redirect', 'fix', 'Fix login redirect'],
    ['⚡️ faster startup', 'performance', 'Faster startup'],
    ['📝 update docs', 'documentation', 'Update docs'],
    ['⬆️ upgrade react', 'dependencies', 'Upgrade react'],
    ['💥 remove v1 endpoints', 'breaking', 'Remove v1 endpoints'],
    [':lock: patch token leak', 'security', 'Patch token leak'],
    ['♻️ split the parser', 'refactor', 'Split the parser'],
    ['✅ cover edge cases', 'test', 'Cover edge cases'],
    ['⏪ revert the cache', 'revert', 'Revert the cache'],
  ])('gitmoji %s → %s', (message, expected, title) => {
    expect(classify(message)).toMatchObject({ section: expected, title, rule: 'gitmoji' });
  });

  it('sends Dependabot and Renovate titles to dependencies', () => {
    const bot = { name: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' };
    expect(classify('Bump lodash from 4.17.20 to 4.17.21', bot)).toMatchObject({ section: 'dependencies', byBot: true });
    expect(classify('Bump the minor group across 1 directory with 4 updates (#1357)', bot).section).toBe('dependencies');
    const renovate = { name: 'renovate[bot]', email: 'bot@renovateapp.com' };
    expect(classify('Update dependency eslint to v8.57.0', renovate).section).toBe('dependencies');
    expect(classify('Update babel monorepo to v7.24.0 (#123)', renovate).section).toBe('dependencies');
    expect(classify('Lock file maintenance', renovate).section).toBe('dependencies');
    expect(classify('Pin dependencies', renovate).section).toBe('dependencies');
    expect(classify('Update actions/checkout action to v4', renovate).section).toBe('dependencies');
    expect(classify('chore(deps): update dependency postcss to v8.5.23 [security] (#15209)', renovate).section).toBe('security');
  });

  it('reads Revert "…" commits and what they revert', () => {
    const c = classify('Revert "feat: add cache" (#77)\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.');
    expect(c).toMatchObject({ section: 'revert', pr: 77, reverts: { shas: ['0123456789abcdef0123456789abcdef01234567'], subject: 'feat: add cache' } });
    expect(classify('revert: feat: add cache\n\nRefs: 0123abc')).toMatchObject({
      section: 'revert',
      reverts: { shas: ['0123abc'], subject: 'feat: add cache' },
    });
  });

  it('sends what no rule recognises to other, never dropping it', () => {
    expect(classify('Bootstrapped!')).toMatchObject({ section: 'other', skip: null, title: 'Bootstrapped!' });
  });
});

describe('skipping, merges and squashes', () => {
  it('skips [skip changelog]-style markers anywhere in the message', () => {
    for (const marker of ['[skip changelog]', '[changelog skip]', '[no changelog]', '[skip-changelog]', '[SKIP CHANGELOG]']) {
      expect(classify(`fix: x ${marker}`).skip).toBe('marker');
      expect(classify(`fix: x\n\nbody ${marker}`).skip).toBe('marker');
    }
    expect(classify('fix: x [skip ci]')).toMatchObject({ skip: null, title: 'X' });
  });

  it('skips excluded authors by e-mail, name or pattern, case-insensitively', () => {
    const author = { name: 'Release Robot', email: 'release@corp.example' };
    expect(classify('chore: release', author, { excludeAuthors: ['RELEASE@corp.example'] }).skip).toBe('excluded-author');
    expect(classify('chore: release', author, { excludeAuthors: ['release robot'] }).skip).toBe('excluded-author');
    expect(classify('chore: release', author, { excludeAuthors: ['*@corp.example'] }).skip).toBe('excluded-author');
    expect(classify('chore: release', author, { excludeAuthors: ['someone@else.example'] }).skip).toBeNull();
  });

  it('keeps bot commits unless bots are excluded', () => {
    const bot = { name: 'renovate[bot]', email: '29139614+renovate[bot]@users.noreply.github.com' };
    expect(classify('Update dependency a to v2', bot).skip).toBeNull();
    expect(classify('Update dependency a to v2', bot, { excludeBots: true }).skip).toBe('bot');
  });

  it('skips a merge commit whose branch commits are in the history', () => {
    const merge = classify('Merge pull request #4 from o/feat/x\n\nfeat(logs): set up logging', { parents: ['a', 'b'] }, { mergedCommitsPresent: true });
    expect(merge.skip).toBe('merge');
  });

  it('lets a merge whose branch is not in the history stand for its pull request', () => {
    const merge = classify('Merge pull request #4 from o/feat/x\n\nfeat(logs): set up logging', { parents: ['a', 'b'] }, { mergedCommitsPresent: false });
    expect(merge).toMatchObject({ skip: null, section: 'feature', scope: 'logs', title: 'Set up logging', pr: 4 });
  });

  it('keeps the footers of a pull request merged without its branch', () => {
    const merge = classify(
      'Merge pull request #9 from o/x\n\nfeat: new config\n\nBREAKING CHANGE: old keys are gone',
      { parents: ['a', 'b'] },
      { mergedCommitsPresent: false },
    );
    expect(merge).toMatchObject({ section: 'breaking', breaking: true, breakingDescription: 'old keys are gone', pr: 9, title: 'New config' });
  });

  it('skips a commit with an empty message rather than listing a blank line', () => {
    expect(classify('\n\n').skip).toBe('empty');
  });

  it('classifies a squash merge by its title, not its body lines', () => {
    const c = classify('fix(parser): handle BOM (#88)\n\n* feat: add bom option\n* docs: mention it\n* chore: lint');
    expect(c).toMatchObject({ section: 'fix', title: 'Handle BOM (#88)', pr: 88 });
  });

  it('reads co-authors from Co-authored-by trailers', () => {
    const c = classify('feat: pair work\n\nCo-authored-by: Grace Hopper <grace@example.com>\nco-authored-by: Alan Turing <alan@example.com>');
    expect(c.coAuthors).toEqual([
      { name: 'Grace Hopper', email: 'grace@example.com' },
      { name: 'Alan Turing', email: 'alan@example.com' },
    ]);
  });

  it('takes the last PR reference of a subject as the PR number', () => {
    expect(classify('feat(git): support x (#804) (#1121)').pr).toBe(1121);
  });

  it('takes the PR number and co-authors stored with the commit, never re-reading the message', () => {
    const stored = { prNumber: 177, coAuthors: [{ name: 'Grace Hopper', email: 'grace@example.com' }] };
    expect(classify('chore(pull): merge #177', stored)).toMatchObject({ pr: 177, coAuthors: stored.coAuthors });
    expect(classify('feat: x (#5)\n\nCo-authored-by: Alan Turing <alan@example.com>', { prNumber: null, coAuthors: [] })).toMatchObject({
      pr: null,
      coAuthors: [],
    });
  });
});

describe('dependency updates by what their manifests change', () => {
  const manifest: Change[] = [
    ['M', 'package.json'],
    ['M', 'pnpm-lock.yaml'],
  ];
  const withDeps = (message: string, dependencies: { runtime: string[]; dev: string[] } | undefined, changes: Change[] = manifest) =>
    classify(message, { changes, ...(dependencies ? { dependencies } : {}) }).section;

  it('files a devDependencies-only bump as a development dependency (hidden by default), whatever its type', () => {
    expect(withDeps('chore(deps): update dependency vitest to v2', { runtime: [], dev: ['vitest'] })).toBe('dev-dependencies');
    expect(withDeps('Bump Prettier dependency to 3.9.5', { runtime: [], dev: ['prettier'] })).toBe('dev-dependencies');
    expect(withDeps('fix(deps): update dependency vite to v7', { runtime: [], dev: ['vite'] })).toBe('dev-dependencies');
    // The package manager itself (`packageManager`), no declared dependency: tooling too.
    expect(
      withDeps('Update yarn to v4.3.1 (#16449)', { runtime: [], dev: [] }, [
        ['M', 'package.json'],
        ['A', '.yarn/releases/yarn-4.3.1.cjs'],
      ]),
    ).toBe('dev-dependencies');
  });

  it('lists a runtime dependency change under Dependencies, whatever its type', () => {
    expect(withDeps('fix(deps): update dependency postcss to ^8.4.44', { runtime: ['postcss'], dev: [] })).toBe('dependencies');
    expect(withDeps('chore(deps): update dependency qs to 6.11', { runtime: ['qs'], dev: ['vitest'] })).toBe('dependencies');
    // A maintenance commit that names the runtime package it drops or updates.
    expect(
      withDeps('chore: replace `methods` dependency with standard library', { runtime: ['methods'], dev: [] }, [
        ['M', 'package.json'],
        ['M', 'lib/router.js'],
      ]),
    ).toBe('dependencies');
    expect(withDeps('chore: update qs', { runtime: ['qs'], dev: [] })).toBe('dependencies');
    // …but not one whose subject names none of them.
    expect(withDeps('chore: tidy the build', { runtime: ['qs'], dev: [] })).toBe('chore');
  });

  it('never hides a fix or a feature by its title alone', () => {
    const code: Change[] = [
      ['M', 'packages/server-renderer/package.json'],
      ['M', 'packages/server-renderer/src/render.ts'],
    ];
    expect(withDeps('fix(server-renderer): remove package dependency cycle (#15063)', { runtime: [], dev: [] }, code)).toBe('fix');
  });

  it('files GitHub Actions updates as Build and CI, and lock-file-only updates as development dependencies', () => {
    expect(section('chore(deps): update actions/checkout action to v4', [['M', '.github/workflows/ci.yml']])).toBe('build');
    expect(section('ci: bump pnpm/action-setup from 2 to 4', [['M', '.github/workflows/release.yml']])).toBe('build');
    expect(section('chore(deps): lock file maintenance', [['M', 'pnpm-lock.yaml']])).toBe('dev-dependencies');
    expect(section('Deduplicate yarn.lock', [['M', 'yarn.lock']])).toBe('dev-dependencies');
  });

  it('goes by the words when the manifests were not read', () => {
    expect(withDeps('chore(deps): update dependency vitest to v2', undefined)).toBe('dependencies');
    expect(withDeps('fix(deps): update dependency postcss to ^8.4.44', undefined)).toBe('fix');
  });
});

describe('noise classes hidden by default (one section each)', () => {
  it('files website and blog content as Website and blog', () => {
    expect(section('Add blog post for v3.8.0 (#18639)', [['A', 'website/blog/2026-01-01-3.8.0.md']])).toBe('website');
    expect(
      section('docs: fix the playground header', [
        ['M', 'website/static/playground.js'],
        ['M', 'website/src/pages/index.jsx'],
      ]),
    ).toBe('website');
    expect(section('docs: polish the theme', [['M', 'docs/.vitepress/theme/index.ts']])).toBe('website');
  });

  it('files governance and team documents as Project governance', () => {
    expect(section('Add Ben to the list of security researchers in SECURITY.md', [['M', 'SECURITY.md']])).toBe('governance');
    expect(section('docs: adopt the Contributor Covenant', [['A', 'CODE_OF_CONDUCT.md']])).toBe('governance');
    expect(section('Add @jane to the triage team', [['M', 'docs/team.md']])).toBe('governance');
    expect(section('Update sponsors', [['M', 'README.md']])).not.toBe('documentation');
  });

  it('files refactorings the project types as such as Internal refactoring, and guesses from words as Refactoring', () => {
    expect(section('refactor(runtime-core): extract the scheduler queue', [['M', 'packages/runtime-core/src/scheduler.ts']])).toBe('internal');
    expect(section('[refactor] share the printer', [['M', 'src/printer.js']])).toBe('internal');
    expect(section('Refactor: share the printer', [['M', 'src/printer.js']])).toBe('internal');
    // Words only: maintainers who write such subjects list them (`Inline template literals as arrow body`).
    expect(section('Inline template literals as arrow body (#1485)', [['M', 'src/printer.js']])).toBe('refactor');
    expect(section('Refactor traversal (#442)', [['M', 'src/traverse.js']])).toBe('refactor');
    // The type's other readings still win: a breaking refactor, one touching only tests or CI.
    expect(section('refactor!: drop the legacy API', [['M', 'src/api.ts']])).toBe('breaking');
    expect(section('refactor: share fixtures', [['M', 'test/fixtures.ts']])).toBe('test');
  });

  it('tells a docs/ folder a site generator builds (the website) from plain documentation', () => {
    expect(docsAreWebsite(['src/a.ts', 'docs/.vitepress/config.ts'])).toBe(true);
    expect(docsAreWebsite(['mkdocs.yml', 'docs/index.md'])).toBe(true);
    expect(docsAreWebsite(['website/siteConfig.js'])).toBe(true);
    expect(docsAreWebsite(['docs/docusaurus.config.ts'])).toBe(true);
    // Docusaurus in website/ reads ../docs unless it ever had docs of its own.
    expect(docsAreWebsite(['website/docusaurus.config.js', 'docs/intro.md'])).toBe(true);
    expect(docsAreWebsite(['website/docusaurus.config.js', 'website/docs/intro.md', 'docs/intro.md'])).toBe(false);
    // Sphinx, or no generator at all: docs/ is documentation.
    expect(docsAreWebsite(['docs/conf.py', 'docs/index.rst'])).toBe(false);
    expect(docsAreWebsite(['docs/options.md', 'README.md'])).toBe(false);
  });

  it('files docs/ changes as Website and blog when the history builds docs/ into its site', () => {
    const site = (message: string, changes: Change[], siteDocs: boolean) => classify(message, { changes }, { siteDocs }).section;
    expect(site('docs: explain the cache option', [['M', 'docs/options.md']], true)).toBe('website');
    expect(site('Fix typo in docs (#19561)', [['M', 'docs/options.md']], true)).toBe('website');
    expect(site('docs: explain the cache option', [['M', 'docs/options.md']], false)).toBe('documentation');
    // Governance wins over the site; library code and documentation elsewhere are not the site.
    expect(site('Add @jane to the triage team', [['M', 'docs/team.md']], true)).toBe('governance');
    expect(
      site(
        'fix: the cache option',
        [
          ['M', 'docs/options.md'],
          ['M', 'src/cache.ts'],
        ],
        true,
      ),
    ).toBe('fix');
    expect(
      site(
        'docs: explain the cache option',
        [
          ['M', 'docs/options.md'],
          ['M', 'README.md'],
        ],
        true,
      ),
    ).toBe('documentation');
    expect(site('docs(pkg): explain it', [['M', 'packages/pkg/docs/options.md']], true)).toBe('documentation');
    // A feature is never noise.
    expect(site('feat: document every option', [['M', 'docs/options.md']], true)).not.toBe('website');
    // A fix in words only, of the site's docs alone, is the site's (jest: "Fix link to constraints"); elsewhere, documentation.
    expect(site('Fix link to constraints (#15732)', [['M', 'docs/Configuration.md']], true)).toBe('website');
    expect(site('Fix link to constraints (#15732)', [['M', 'docs/Configuration.md']], false)).toBe('documentation');
  });

  it('reads a .txt file as documentation only by its name or folder: requirements.txt and CMakeLists.txt ship', () => {
    const site = (message: string, changes: Change[], siteDocs: boolean) => classify(message, { changes }, { siteDocs }).section;
    expect(site('Fix the pinned parser version', [['M', 'requirements.txt']], false)).not.toBe('documentation');
    expect(site('Fix the build on Windows', [['M', 'CMakeLists.txt']], false)).not.toBe('documentation');
    expect(site('Fix a typo in the notice', [['M', 'NOTICE.txt']], false)).toBe('documentation');
    expect(site('Fix a typo in the guide', [['M', 'docs/guide.txt']], false)).toBe('documentation');
  });

  it('leaves library changes and user documentation where they were', () => {
    expect(section('fix: warn about the triage option', [['M', 'src/options.ts']])).toBe('fix');
    expect(section('docs: explain the cache option', [['M', 'docs/options.md']])).toBe('documentation');
    expect(section('Fix typo in docs (#19561)', [['M', 'docs/options.md']])).toBe('documentation');
  });
});

describe('release commits', () => {
  it('take an arrow before the version (`-> v0.47.2`, `→ 1.0.1`) for a release commit, as housekeeping', () => {
    expect(section('-> v0.47.2', [['M', 'package.json']])).toBe('chore');
    expect(section('-> 0.22.2', [['M', 'package.json']])).toBe('chore');
    expect(section('→ 1.0.1', [['M', 'package.json']])).toBe('chore');
    expect(section('-> use the new parser', [['M', 'src/parse.ts']])).not.toBe('chore');
  });
});
