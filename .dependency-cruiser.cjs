/**
 * The floor plan's rules, checked by `npm run lint` (dependency-cruiser): no import cycles among source
 * files; only entry points import the composition root; a domain reaches another's tables only through
 * that domain's service, never its repository; scripts (benchmarks, soak) stay out of the server build.
 * See docs/architecture.md.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle ties modules together so neither can be understood or changed alone.',
      from: { path: '^src' },
      to: { circular: true },
    },
    {
      name: 'composition-root-only-from-entry-points',
      severity: 'error',
      comment: 'services.ts (and core-services.ts, the part the CLI may build alone) wires every domain; only entry points (app, server, CLI, worker) may import it.',
      from: { path: '^src', pathNot: ['^src/(app|server|services)\\.ts$', '^src/cli/', '\\.test\\.ts$', '^src/jobs/worker\\.ts$'] },
      to: { path: '^src/(core-)?services\\.ts$', dependencyTypesNot: ['type-only'] },
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
      comment: 'The GitHub App drives links through the repos service; repos learns what it needs from GitHub through what it is handed (an installation token function).',
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
      name: 'foundations-know-no-domain',
      severity: 'error',
      comment: 'The foundations (database, errors, ids, config, git, html, http plumbing) are used by every domain and import none.',
      from: { path: '^src/(db/|git/|html/|errors\\.ts|ids\\.ts|config\\.ts|worker-threads\\.ts)' },
      to: { path: '^src/(auth|cache|changelog|cli|dashboard|demo|entries|generation|github|health|jobs|keys|ops|orgs|projects|repos|webhooks)/' },
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
