// Issue 14, "Classification that holds on any history": each class on made-up commits.
import { describe, expect, it } from 'vitest';
import { buildCommit } from '../../../test/helpers/commits.js';
import { classifyCommit, cleanTitle } from './classify.js';
import type { Change } from './types.js';

const bot = { name: 'renovate[bot]', email: '29139614+renovate[bot]@users.noreply.github.com' };
const classify = (message: string, changes: Change[] = [['M', 'src/index.ts']], extra: Parameters<typeof buildCommit>[0] = {}) =>
  classifyCommit(buildCommit({ message, changes, ...extra }));
const section = (message: string, changes?: Change[], extra?: Parameters<typeof buildCommit>[0]) => classify(message, changes, extra).section;

describe('a scope naming a non-code area beats the type', () => {
  it.each([
    ['fix(docs): broken link to the API page', 'documentation'],
    ['fix(readme): typo in install command', 'documentation'],
    ['feat(docs): add a search box', 'documentation'],
    ['fix(ci): cache the cargo registry', 'build'],
    ['refactor(ci): split the release job', 'build'],
    ['fix(build): pin the nightly toolchain', 'build'],
    ['fix(test): flaky timer in the scheduler spec', 'test'],
    ['chore(deps): update rust crate serde to 1.0.200', 'dependencies'],
    ['build(deps-dev): bump vitest from 1.0.0 to 1.1.0', 'dependencies'],
    ['refactor(deps): replace dirs with etcetera', 'dependencies'],
  ])('%s → %s', (message, expected) => {
    expect(section(message, [['M', 'ci/setup.sh']])).toBe(expected);
  });

  it('keeps a fix(build) that changes library code a fix (the bundle users get)', () => {
    expect(section('fix(build): avoid const enum conflicts', [['M', 'packages/runtime-core/src/index.ts']])).toBe('fix');
    expect(section('fix(build): enable safari10 option for terser', [['M', 'rollup.config.js']])).toBe('build');
  });

  it('keeps breaking and code scopes as they were', () => {
    expect(section('feat(docs)!: drop the v1 docs site')).toBe('breaking');
    expect(section('feat(parser): add a docs option')).toBe('feature');
    expect(section('feat(deps): support a new plugin API')).toBe('feature');
  });
});

describe('dependency changes in every form', () => {
  it.each([
    ['chore: upgrade foo to 1.2'],
    ['chore: update dependency foo to ^1.2'],
    ['lodash@^4.17.21'],
    ['@babel/core@7.1.0 (#12)'],
    ['typescript@3.6.4 update (#6704)'],
    ['Upgrade to eslint@9'],
    ['Update to yaml@2 (#18419)'],
    ['Updated the docs-theme submodule'],
    ['Update submodule vendor/libgit2'],
    ['Added "chalk" dep'],
    ['Add lodash as a dev dependency'],
    ['Update `postcss` from v8.2.7 to v8.3.6 (#11342)'],
    ['chore(ci): update actions/checkout to v4'],
    ['chore(npm): update yarn.lock'],
    ['chore: bump dev dependencies'],
  ])('%s → dependencies', (message) => {
    expect(section(message, [['M', 'package.json']])).toBe('dependencies');
  });

  it('reads a commit that only moves a submodule pointer as a dependency update', () => {
    expect(classify('Sync', [['M', 'vendor/libgit2']])).toMatchObject({ section: 'dependencies', rule: 'submodule' });
    expect(
      classify('Point at the new release', [
        ['M', '.gitmodules'],
        ['M', 'third_party/zlib'],
      ]).section,
    ).toBe('dependencies');
    // Extension-less files that are not submodules stay what they are.
    expect(section('Tidy', [['M', 'Makefile']])).not.toBe('dependencies');
    expect(section('Add redirect', [['M', 'website/static/_redirects']])).not.toBe('dependencies');
  });

  it('reads a removed package as a dependency change, not a removed API', () => {
    expect(
      section('Remove `lodash` (#12628)', [
        ['M', 'package.json'],
        ['M', 'src/cli/usage.js'],
        ['M', 'yarn.lock'],
      ]),
    ).toBe('dependencies');
  });
});

describe('near-conventional prefixes: understood, never in the title', () => {
  it.each([
    ['fix:   extra spaces after the colon', 'fix', 'Extra spaces after the colon', null],
    ['fix(parser):  two spaces', 'fix', 'Two spaces', 'parser'],
    ['Fix (deps): bump serde to 1.0.200', 'fix', 'Bump serde to 1.0.200', 'deps'],
    ['fix (types): do not unwrap refs in `toRefs` (#4966)', 'fix', 'Do not unwrap refs in `toRefs` (#4966)', 'types'],
    ['[fix] handle empty input', 'fix', 'Handle empty input', null],
    ['[Fix]: handle empty input', 'fix', 'Handle empty input', null],
    ['fix - handle empty input', 'fix', 'Handle empty input', null],
    ['Feat - dark mode', 'feature', 'Dark mode', null],
    ['FEAT: shout', 'feature', 'Shout', null],
    ['Docs: clarify install', 'documentation', 'Clarify install', null],
    ['[WIP] feat: html support (#4753)', 'feature', 'Html support (#4753)', null],
    ['(refactor): Move common options out of JS plugin (#4445)', 'internal', 'Move common options out of JS plugin (#4445)', null],
    ['feat(types): feat(types): add `ComponentCustomProperties` interface (#982)', 'feature', 'Add `ComponentCustomProperties` interface (#982)', 'types'],
  ])('%s → %s, "%s"', (message, expected, title, scope) => {
    expect(classify(message)).toMatchObject({ section: expected, title, scope });
  });

  it('keeps an event name that only looks like a prefix', () => {
    expect(classify('fix(v-model): update:camelCase events should trigger kebab case equivalent').title).toBe(
      'update:camelCase events should trigger kebab case equivalent',
    );
  });

  it('titles reverts by what they revert, without its prefix', () => {
    expect(classify('Revert "feat: add cache" (#77)').title).toBe('Revert "Add cache" (#77)');
    expect(classify('revert: chore(config): update template to include commit ids').title).toBe('Revert "Update template to include commit ids"');
    expect(classify('revert: "wip: handle value assignment"').title).toBe('Revert "Handle value assignment"');
  });

  it('does not take prose with a dash for a type', () => {
    expect(classify('Travis - allow failures in Node 6', [['M', '.travis.yml']])).toMatchObject({ section: 'build', scope: null });
  });
});

describe('paths as evidence on free-form histories', () => {
  it.each<[string, Change[], string]>([
    [
      'Make it pass on Windows',
      [
        ['M', 'tests/format/jsfmt.spec.js'],
        ['M', 'tests/format/__snapshots__/jsfmt.spec.js.snap'],
      ],
      'test',
    ],
    [
      'Wording',
      [
        ['M', 'docs/options.md'],
        ['M', 'README.md'],
      ],
      'documentation',
    ],
    ['Playground link', [['A', 'examples/basic/index.html']], 'documentation'],
    [
      'Cache the build',
      [
        ['M', '.github/workflows/ci.yml'],
        ['M', 'rollup.config.js'],
      ],
      'build',
    ],
    [
      'Compile for Node 18 targets',
      [
        ['M', 'tsconfig.build.json'],
        ['M', 'Makefile'],
      ],
      'build',
    ],
    ['Bump version', [['M', 'package.json']], 'chore'],
    [
      'Update versions',
      [
        ['M', 'packages/a/package.json'],
        ['M', 'packages/b/package.json'],
        ['M', 'lerna.json'],
      ],
      'chore',
    ],
  ])('%s → %s', (message, changes, expected) => {
    expect(section(message, changes)).toBe(expected);
  });

  it('reads "misc refactor(ing)" as refactoring', () => {
    expect(section('misc refactor')).toBe('refactor');
    expect(section('Misc refactoring (#12)')).toBe('refactor');
    expect(section('Minor refactor (#11566)')).toBe('refactor');
  });

  it('places a noun phrase that adds to the library as a feature, a defect as a fix', () => {
    expect(
      classify('request-level render()', [
        ['A', 'lib/render.js'],
        ['M', 'lib/request.js'],
      ]),
    ).toMatchObject({ section: 'feature', rule: 'paths:library', title: 'request-level render()' });
    expect(
      section('Persistent cookies', [
        ['M', 'src/cookies.ts'],
        ['M', 'test/cookies.test.ts'],
      ]),
    ).toBe('feature');
    expect(
      section('Numeric literal callees should keep parens (#141)', [
        ['M', 'src/printer.js'],
        ['M', 'tests/literal/number.js'],
      ]),
    ).toBe('fix');
    // Without library code (or without tests beside a change), the words alone decide: other.
    // The website's own code: its content, not the library's (issue 24).
    expect(section('Persistent cookies', [['M', 'website/playground/Playground.js']])).toBe('website');
    expect(
      section('Something else', [
        ['M', 'src/a.ts'],
        ['M', 'docs/a.md'],
      ]),
    ).toBe('other');
  });
});

describe('removed public API and raised minimum runtime are breaking', () => {
  it.each<[string, Change[]]>([
    ['Removed app.foo(callback)', [['M', 'lib/application.js']]],
    ['Delete `x` as a magic string', [['M', 'src/parse.ts']]],
    [
      'Remove `--flow-parser` option',
      [
        ['M', 'src/cli/options.js'],
        ['A', 'changelog_unreleased/cli/1.md'],
      ],
    ],
    [
      'Remove `prettier.doc.builders.concat` (#13203)',
      [
        ['M', 'src/document/builders.js'],
        ['A', 'changelog_unreleased/api/13203.md'],
      ],
    ],
  ])('%s → breaking', (message, changes) => {
    expect(classify(message, changes)).toMatchObject({ section: 'breaking', breaking: true });
  });

  it('does not call an internal helper, a file or a leftover a public API', () => {
    expect(
      section('Remove `getDocParts` (#16026)', [
        ['M', 'src/document/printer.js'],
        ['M', 'src/document/utils.js'],
      ]),
    ).not.toBe('breaking');
    // Library code changed without tests or a changelog entry: refactoring (not maintenance, not breaking).
    expect(section('Remove unused helper')).toBe('refactor');
    expect(section('Delete fuzzer2.js', [['D', 'fuzzer2.js']])).not.toBe('breaking');
    expect(
      section('Remove `.flowconfig` (#9286)', [
        ['D', '.flowconfig'],
        ['M', 'src/index.js'],
      ]),
    ).not.toBe('breaking');
  });

  it.each([
    ['Drop support for Node.js 10 (#11830)'],
    ['Require Node.js >= 18'],
    ['chore: set node engine to v16'],
    ['chore(project): bump MSRV to 1.74.1'],
    ['Bump minimum Python version to 3.9'],
  ])('%s → breaking', (message) => {
    expect(
      section(message, [
        ['M', 'package.json'],
        ['M', 'src/index.js'],
      ]),
    ).toBe('breaking');
  });

  it("leaves the project's own pipeline and dev environment alone", () => {
    expect(
      section('Drop Node.js 14 for development build (#13439)', [
        ['M', 'package.json'],
        ['M', 'scripts/build.js'],
      ]),
    ).not.toBe('breaking');
    expect(section('Drop node 16 from the CI matrix', [['M', '.github/workflows/ci.yml']])).toBe('build');
  });
});

describe('security only for security fixes', () => {
  it.each([
    ['Fix ReDoS vulnerability (#17246)'],
    ['Escape titles to prevent XSS'],
    ['Patch CVE-2024-1234 in the URL parser'],
    ['Fix open redirect after login'],
    ['Reject GHSA-abcd-efgh-ijkl payloads'],
    ['Security fix: sanitize paths'],
  ])('%s → security', (message) => {
    expect(section(message)).toBe('security');
  });

  it('never for SECURITY.md edits or dev-dependency bumps', () => {
    expect(section('Create SECURITY.md', [['A', 'SECURITY.md']])).toBe('governance');
    expect(section('Update security policy', [['M', '.github/SECURITY.md']])).not.toBe('security');
    // Only the lock file moves: the project's own installs, a development dependency update.
    expect(section('chore(deps): update dependency vite to v5.4.12 [security] (#12793)', [['M', 'pnpm-lock.yaml']], bot)).toBe('dev-dependencies');
    expect(
      section('build(deps-dev): [security] bump webpack from 5.1.0 to 5.94.0', [
        ['M', 'package.json'],
        ['M', 'yarn.lock'],
      ]),
    ).toBe('dependencies');
    expect(section('[Security] Bump acorn from 6.3.0 to 6.4.1 in /website (#7765)', [['M', 'website/yarn.lock']])).toBe('dev-dependencies');
    // A flagged update of a runtime dependency is a security fix.
    expect(
      section(
        'chore(deps): update dependency minimatch to ~10.2.0 [security]',
        [
          ['M', 'packages/compiler-sfc/package.json'],
          ['M', 'pnpm-lock.yaml'],
        ],
        bot,
      ),
    ).toBe('security');
  });
});

describe('automated housekeeping is maintenance', () => {
  it.each([
    ['chore: update sponsors [ci skip]', [['M', 'README.md']]],
    ['Update contributors list', [['M', 'README.md']]],
    ['fix(readme): update contributors image (#13068)', [['M', 'README.md']]],
    ['docs: sync backers', [['M', 'BACKERS.md']]],
    ['1.2.0-beta.1', [['M', 'package.json']]],
    ['0.2.0-dev', [['M', 'package.json']]],
    [
      'v4.0.0-rc1',
      [
        ['M', 'package.json'],
        ['M', 'CHANGELOG.md'],
      ],
    ],
    ['Release 1.2.0-beta.1', [['M', 'package.json']]],
    ['chore(release): 2.0.0', [['M', 'package.json']]],
    ['release: v1.2.3', [['M', 'package.json']]],
    ['Prepare 3.1 release', [['M', 'package.json']]],
  ] as Array<[string, Change[]]>)('%s → chore', (message, changes) => {
    expect(section(message, changes)).toBe('chore');
  });

  it("counts a bot's README sync as maintenance", () => {
    expect(
      section('Update README with the latest sponsors', [['M', 'README.md']], {
        name: 'github-actions[bot]',
        email: '41898282+github-actions[bot]@users.noreply.github.com',
      }),
    ).toBe('chore');
  });
});

describe("titles never change an identifier's case", () => {
  it.each([
    ['no-unused-vars: report unused catch bindings', 'no-unused-vars: report unused catch bindings'],
    ['lodash@^4.17.21', 'lodash@^4.17.21'],
    ['parseQuery() now keeps empty values', 'parseQuery() now keeps empty values'],
    ['v2.3.1', 'v2.3.1'],
    ['eslint 8.57 support', 'eslint 8.57 support'],
    ['`--cache` is faster', '`--cache` is faster'],
    ['useFetch handles aborts', 'useFetch handles aborts'],
    ['__proto__ keys are kept', '__proto__ keys are kept'],
    ['src/cli: exit with 2', 'src/cli: exit with 2'],
    ['i18n strings', 'i18n strings'],
    ['add pagination', 'Add pagination'],
    ["don't crash on empty input", "Don't crash on empty input"],
    ['explain v2', 'Explain v2'],
  ])('%s → %s', (text, title) => {
    expect(cleanTitle(text)).toBe(title);
  });

  it('keeps the identifier through classification', () => {
    expect(classify('fix: `no-unused-vars` reports catch bindings').title).toBe('`no-unused-vars` reports catch bindings');
    expect(classify('feat(router): parseQuery() keeps empty values').title).toBe('parseQuery() keeps empty values');
  });
});

describe('fix(deps): the runtime dependency update a project ships as a fix', () => {
  it('files fix(deps) under fixes, every other dependency scope and type under dependencies', () => {
    expect(
      section(
        'fix(deps): update dependency postcss to ^8.4.48 (#201)',
        [
          ['M', 'packages/sfc/package.json'],
          ['M', 'pnpm-lock.yaml'],
        ],
        bot,
      ),
    ).toBe('fix');
    expect(section('fix(dependencies): pin left-pad to 1.3.0', [['M', 'package.json']])).toBe('fix');
    expect(section('fix(deps-dev): update dependency vitest to ^2.1.0', [['M', 'package.json']], bot)).toBe('dependencies');
    expect(section('chore(deps): update dependency postcss to ^8.4.48', [['M', 'package.json']], bot)).toBe('dependencies');
    expect(section('build(deps-dev): bump rollup from 4.1.0 to 4.2.0', [['M', 'package.json']])).toBe('dependencies');
    expect(section('chore(deps-dev): bump eslint from 9.0.0 to 9.1.0', [['M', 'package.json']])).toBe('dependencies');
  });

  it('keeps a flagged fix(deps) of a runtime dependency a security fix', () => {
    expect(
      section(
        'fix(deps): update dependency undici to ^6.21.1 [security]',
        [
          ['M', 'packages/net/package.json'],
          ['M', 'pnpm-lock.yaml'],
        ],
        bot,
      ),
    ).toBe('security');
  });
});

describe('ambiguous verbs on library code', () => {
  it('reads a change the project tests or announces as behaviour users see', () => {
    const tested: Change[] = [
      ['M', 'src/printer/objects.js'],
      ['M', 'tests/objects/__snapshots__/format.test.js.snap'],
    ];
    expect(classify('Remove space in empty object literal', tested)).toMatchObject({ section: 'fix', rule: 'verb-ambiguous+behaviour' });
    expect(section('Make nested ternaries indent consistently', tested)).toBe('fix');
    expect(section('Make the `wrap` option support two modes', tested)).toBe('feature');
    // A changelog entry is the project saying users see it, even when only type declarations changed.
    expect(
      section('Include the exported printers in plugin typings', [
        ['A', 'changelog_unreleased/api/77.md'],
        ['M', 'scripts/build/types.js'],
      ]),
    ).toBe('feature');
    expect(
      section('Change the default quote style', [
        ['A', '.changeset/blue-cats.md'],
        ['M', 'packages/core/config.json'],
      ]),
    ).toBe('fix');
  });

  it('reads library code changed alone as refactoring, and no library code as maintenance', () => {
    expect(
      classify('Remove the concept of a preceding node', [
        ['M', 'src/comments.js'],
        ['M', 'src/printer.js'],
      ]),
    ).toMatchObject({ section: 'refactor', rule: 'verb-ambiguous+library' });
    expect(section('Update the editor settings', [['M', '.vscode/settings.json']])).toBe('chore');
    expect(
      section('Remove stray file', [
        ['D', 'notes.txt'],
        ['M', 'package.json'],
      ]),
    ).toBe('chore');
  });

  it('does not let a word naming tests hide a library change that also does something else', () => {
    const both: Change[] = [
      ['M', 'src/printer.js'],
      ['A', 'tests/abstract/format.test.js'],
    ];
    expect(section('Add abstract class tests and support abstract properties', both)).toBe('feature');
    expect(section("Don't break long it/test calls with a template literal", both)).toBe('fix');
    // The tests are what the subject names: a test change, library code beside it or not.
    expect(section('Add tests for keyword properties', both)).toBe('test');
    expect(section('Fix flaky css tests', both)).toBe('test');
    expect(section('Add tests for comments', [['A', 'tests/comments/format.test.js']])).toBe('test');
  });
});

describe('more paths and dependency forms', () => {
  it('reads a package moved to a version in a manifest-only commit as a dependency update', () => {
    expect(classify('Update package.json, use left-pad 1.3.0 (#45)', [['M', 'package.json']])).toMatchObject({
      section: 'dependencies',
      rule: 'dependency-manifest',
    });
    expect(
      section('Update to TypeScript 5.4', [
        ['M', 'package.json'],
        ['M', 'yarn.lock'],
      ]),
    ).toBe('dependencies');
    // Code beside the manifest: the words decide as before.
    expect(
      section('Update parser, use acorn 8.1', [
        ['M', 'package.json'],
        ['M', 'docs/x.md'],
      ]),
    ).not.toBe('dependencies');
  });
});

describe('release housekeeping and repository configuration', () => {
  it.each([
    ['Update changelog', [['M', 'changelog_unreleased/typescript/19624.md']]],
    [
      'Clean changelog_unreleased',
      [
        ['D', 'changelog_unreleased/javascript/19629.md'],
        ['D', 'changelog_unreleased/typescript/19621.md'],
      ],
    ],
    ['Clean released changelog', [['D', 'changelog_unreleased/typescript/19621.md']]],
    ['Add changelog entry for #9885 (#10133)', [['A', 'changelog_unreleased/handlebars/9885.md']]],
    ['Update CHANGELOG.md', [['M', 'CHANGELOG.md']]],
    ['docs: fix typo in CHANGELOG-3.3.md [ci-skip] (#14341)', [['M', 'changelogs/CHANGELOG-3.3.md']]],
    ['fix(changelog): remove outdated dependency update entry', [['M', 'CHANGELOG.md']]],
    ['Add changeset', [['A', '.changeset/blue-cats.md']]],
    [
      'Clean changelog_unreleased',
      [
        ['D', 'changelog_unreleased/api/17.md'],
        ['M', 'scripts/release/steps/clean-changelog.js'],
      ],
    ],
  ] as Array<[string, Change[]]>)('%s (only the changelog) → chore', (message, changes) => {
    expect(section(message, changes)).toBe('chore');
  });

  it('does not take code named after the changelog for the changelog', () => {
    expect(section('refactor(tera): remove bare unwrap', [['M', 'git-cliff-core/src/changelog.rs']])).toBe('internal');
    expect(section('feat(changelog): show debug log for skipped tags', [['M', 'git-cliff-core/src/changelog.rs']])).toBe('feature');
    // A changelog entry beside the change it announces is evidence, not housekeeping, even in a build script.
    expect(
      section('Fix comment around nullish coalescing (#19652)', [
        ['M', 'src/language-js/comments.js'],
        ['A', 'changelog_unreleased/javascript/19652.md'],
      ]),
    ).toBe('fix');
    expect(
      section('fix estree plugin type declaration (#15018)', [
        ['A', 'changelog_unreleased/api/15018.md'],
        ['M', 'scripts/build/build-types.js'],
      ]),
    ).not.toBe('chore');
  });

  it.each([
    ['Tweak renovate config (#19694)', [['M', '.github/renovate.json5']]],
    ['Enable `lockFileMaintenance` in renovate.json5', [['M', '.github/renovate.json5']]],
    ['Ignore `get-stdin` v10 in renovate.json5', [['M', '.github/renovate.json5']]],
    ['Add `paths` to codeql-config.yml', [['M', '.github/codeql/codeql-config.yml']]],
    ['Update the issue template', [['M', '.github/ISSUE_TEMPLATE/bug.yml']]],
    ['Update PULL_REQUEST_TEMPLATE.md (#9737)', [['M', '.github/PULL_REQUEST_TEMPLATE.md']]],
    ['Group minor updates', [['M', '.github/dependabot.yml']]],
    ['Remove sentence for copying from CHANGELOG (#11530)', [['M', 'scripts/release/steps/publish-to-npm.js']]],
    ['fix(project): use the correct branch for codecov (#65)', [['M', 'codecov.yml']]],
  ] as Array<[string, Change[]]>)('%s (bot and tool configuration) → build', (message, changes) => {
    expect(section(message, changes)).toBe('build');
  });

  it('keeps the prose under .github documentation, and test fixtures there tests', () => {
    expect(section('Clarify the contributing guide', [['M', '.github/contributing.md']])).toBe('documentation');
    expect(section('fix(fixtures): update expected changelog date', [['M', '.github/fixtures/test-commit-preprocessors/expected.md']])).toBe('test');
    expect(section('fix: flaky timer in the scheduler', [['M', 'tests/scheduler.test.ts']])).toBe('test');
  });

  it.each([
    ['Fix lock file', [['M', 'yarn.lock']]],
    ['Dedupe yarn.lock', [['M', 'yarn.lock']]],
    ['Regenerate the lockfile', [['M', 'pnpm-lock.yaml']]],
    ['Lock file maintenance (#19677)', [['M', 'yarn.lock']]],
  ] as Array<[string, Change[]]>)('%s (only lock files) → development dependencies', (message, changes) => {
    // The lock file pins the project's own installs; users of a package resolve its ranges themselves.
    expect(section(message, changes)).toBe('dev-dependencies');
  });
});

describe('bot labels never reach a title', () => {
  it.each([
    ['chore(deps): update dependency postcss to v8.5.23 [security] (#15209)', 'Update dependency postcss to v8.5.23 (#15209)'],
    ['Update dependency vite to v8.0.5 [SECURITY] (#19013)', 'Update dependency vite to v8.0.5 (#19013)'],
    ['chore: update contributors [bot]', 'Update contributors'],
    ['chore: format [auto] [skip ci]', 'Format'],
    ['docs: fix typo in CHANGELOG-3.3.md[ci-skip](#14341)', 'Fix typo in CHANGELOG-3.3.md (#14341)'],
    ['chore: sync [ci skip] (#3)', 'Sync (#3)'],
  ])('%s → %s', (message, title) => {
    expect(classify(message, [['M', 'package.json']]).title).toBe(title);
  });

  it('keeps brackets that are part of the text, and the [security] flag as evidence', () => {
    expect(cleanTitle('Read `options[bot]` before `options[auto]`')).toBe('Read `options[bot]` before `options[auto]`');
    expect(cleanTitle('Support a[security] index')).toBe('Support a[security] index');
    // The flag still files a runtime dependency's update under Security.
    expect(classify('fix(deps): update dependency postcss to v8.5.23 [security] (#15209)', [['M', 'packages/compiler-sfc/package.json']])).toMatchObject({
      section: 'security',
      title: 'Update dependency postcss to v8.5.23 (#15209)',
    });
  });

  it('strips them in linear time from hostile input', () => {
    const hostile = `${'[security'.repeat(20_000)} ${' ['.repeat(20_000)}bot`;
    expect(cleanTitle(hostile).length).toBeGreaterThan(0);
  });
});
