/**
 * The floor plan's rules, checked by `npm run lint` (dependency-cruiser): the modules of src/ stand in
 * layers and import only from layers below their own; nothing but an entry point imports an entry point
 * or the composition root; no import cycles among source files; a domain reaches another's tables only
 * through that domain's service, never its repository; scripts (benchmarks, soak) stay out of the
 * server build. See docs/architecture.md.
 */

/**
 * The modules of src/ (a folder, or a file at its top), bottom-up. A module imports only from layers
 * below its own, never from another module of its layer nor from above, so the folders can form no
 * loop. A new folder or top-level file is placed here, or lint fails.
 */
const LAYERS = [
  ['config.ts', 'errors.ts', 'ids.ts', 'slug.ts', 'private-dir.ts', 'worker-threads.ts', 'git'],
  ['db', 'html'],
  ['context.ts', 'queue', 'cli-kit'],
  ['http'],
  ['cache', 'health', 'ops'],
  ['auth'],
  ['orgs'],
  ['projects'],
  ['entries', 'keys'],
  ['changelog', 'webhooks', 'generation'],
  ['repos', 'demo'],
  // automation/: the API for CI (publish-scoped keys), through entries, repos and generation.
  ['github', 'automation'],
  ['dashboard'],
  // The composition root (its core, what row-only CLI commands build alone, first), then the entry points.
  ['core-services.ts'],
  ['services.ts'],
  ['app.ts', 'jobs'],
  ['server.ts'],
  ['cli'],
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A module's files: a top-level file itself, or everything under a folder. */
const filesOf = (module) => `^src/${escape(module)}${module.endsWith('.ts') ? '$' : '/'}`;

const layerRules = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  const rules = [];
  if (above.length) {
    rules.push({
      name: `layer-${i + 1}-reaches-only-down`,
      severity: 'error',
      comment: `Layer ${i + 1} of LAYERS (${layer.join(', ')}) imports only from the layers below it: dependencies point down.`,
      from: { path: layer.map(filesOf) },
      to: { path: above.map(filesOf) },
    });
  }
  if (layer.length > 1) {
    rules.push({
      name: `layer-${i + 1}-modules-apart`,
      severity: 'error',
      comment: `${layer.join(', ')} share layer ${i + 1} of LAYERS: none imports another (move one down a layer if it must).`,
      // $1 is the importing module, which may import itself.
      from: { path: `^src/(${layer.map(escape).join('|')})(/|$)` },
      to: { path: layer.map(filesOf), pathNot: '^src/$1(/|$)' },
    });
  }
  return rules;
});

/** The composition root and the entry points: the top of the house, which nothing else may import. */
const ENTRY_POINTS = ['^src/core-services\\.ts$', '^src/services\\.ts$', '^src/app\\.ts$', '^src/server\\.ts$', '^src/cli/main\\.ts$', '^src/jobs/worker(\\.cli)?\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle ties modules together so neither can be understood or changed alone.',
      from: { path: '^src' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'layered-modules-only',
      severity: 'error',
      comment: 'Every module of src/ stands in a layer: add a new folder or top-level file to LAYERS in .dependency-cruiser.cjs.',
      from: { path: '^src/', pathNot: LAYERS.flat().map(filesOf) },
      to: {},
    },
    {
      name: 'entry-points-only-from-entry-points',
      severity: 'error',
      comment:
        'services.ts wires every domain, and the entry points (app, server, CLI main, the worker and its command) start ' +
        'them: only another of these imports one (tests aside), types included. A module that needs services names ' +
        'those it uses and is handed them.',
      from: { path: '^src/', pathNot: [...ENTRY_POINTS, '\\.test\\.ts$'] },
      to: { path: ENTRY_POINTS },
    },
    {
      name: 'only-src-git-runs-processes',
      severity: 'error',
      comment: 'git runs in one place, with one sanitized environment (src/git/git.ts); nothing else spawns processes.',
      from: { path: '^src', pathNot: ['^src/git/git\\.ts$', '\\.test\\.ts$'] },
      to: { path: '^(node:)?child_process$' },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment:
        "A domain's tables are written and read through its own service: a file outside a domain folder (another " +
        "domain, or a top-level module) never imports that domain's *.repository.ts.",
      // $1 is the importing file's folder under src/ (or its file name, for a top-level module).
      // Row types are a domain's vocabulary and may be shared (type-only imports).
      from: { path: '^src/([^/]+)' },
      to: { path: '^src/[^/]+/[^/]+\\.repository\\.ts$', pathNot: '^src/$1/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'repos-never-imports-github',
      severity: 'error',
      comment: 'The GitHub App drives links through the repos service; repos learns what it needs from GitHub through what it is handed (InstallationTokens, repos/installation-tokens.ts).',
      from: { path: '^src/repos/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/github/' },
    },
    {
      name: 'repositories-only-reach-down',
      severity: 'error',
      comment: 'Dependencies point down: a repository (SQL) never imports a service, route, CLI command, job or the dashboard.',
      from: { path: '\\.repository\\.ts$' },
      to: { path: ['\\.(service|routes|cli|job)\\.ts$', '^src/dashboard/', '^src/http/plugins/', '^src/(app|server)\\.ts$'] },
    },
    {
      name: 'services-never-reach-up',
      severity: 'error',
      comment: 'A service holds the rules; it never imports a route, CLI command, job or the dashboard (they call it).',
      from: { path: '\\.service\\.ts$' },
      to: { path: ['\\.(routes|cli|job)\\.ts$', '^src/dashboard/', '^src/http/plugins/', '^src/(app|server)\\.ts$'] },
    },
    {
      name: 'routes-and-cli-call-services',
      severity: 'error',
      comment: 'Routes and CLI commands are thin: they reach data through services, never a repository (row types excepted).',
      from: { path: ['\\.(routes|cli)\\.ts$', '^src/dashboard/'] },
      to: { path: '\\.repository\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'generation-engine-is-pure',
      severity: 'error',
      comment:
        'The engine (src/generation/engine/) is commits + settings → entries, pure and deterministic: it imports only ' +
        'itself, the commit record (src/git/commit-record.ts), which manifests are tooling (src/git/manifest-paths.ts), node:crypto (hashing), semver and yaml (the release configuration of a repository, parsed in the thread). No database, files, ' +
        'threads or services: what it needs is handed in (src/generation/engine-thread.ts runs it).',
      from: { path: '^src/generation/engine/' },
      to: { pathNot: ['^src/generation/engine/', '^src/git/commit-record\\.ts$', '^src/git/manifest-paths\\.ts$', '^(node:)?crypto$', '^node_modules/semver/', '^node_modules/yaml/'] },
    },
    {
      name: 'src-never-imports-scripts-or-tests',
      severity: 'error',
      from: { path: '^src', pathNot: '\\.test\\.ts$' },
      to: { path: '^(scripts|test)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '(^dist/|^packages/|\\.test\\.ts$)' },
  },
};
