/**
 * npm run bench:scale — what a sync, a push and a read cost as the history grows (issue 27), on
 * PostgreSQL. Histories of 10k, 100k and 300k commits (BENCH_SCALE_SIZES; `--million` adds 1M) are
 * built with git fast-import (scale-history.ts: Conventional Commits with scopes and `(#N)`, merges,
 * ten packages, a tag every 100 commits) and cached in .cache/scale.
 *
 * Each step runs in a process of its own, as a worker would run it (services wired as the CLI wires
 * them), so that its peak RSS (every thread: the engine's too) is its own; the time is the step's alone,
 * without the process's start. Per size, on a fresh database with every entry type and release notes
 * published as generated (`auto`):
 *
 * 1. **first sync**: link, ingest, generate;
 * 2. **no-op sync**: ingest again, nothing new;
 * 3. **push of 1 commit**: ingest and generate (published by the auto policy);
 * 4. **push with a tag**: the same with a new release;
 * 5. **preview**: `changelog preview --type release` of the repository (no database);
 * 6. **listing**: the public listing at offset 0 and at the deepest offset, uncached (median of 9);
 * 7. git-cliff (default configuration) on the same repository, stopped after BENCH_SCALE_CLIFF_SECONDS (600).
 *
 * Printed, and written into docs/benchmarks.md between the `bench:scale` markers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminQuery, ADMIN_URL, gitCliffBinary } from './bench-support.js';
import { copyRepo, ensureScaleRepo, pushCommit, tagOf } from './scale-history.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const CACHE = join(ROOT, '.cache', 'scale');
const SIZES = (process.env.BENCH_SCALE_SIZES ?? '10000,100000,300000').split(',').map(Number).concat(process.argv.includes('--million') ? [1_000_000] : []);
const CLIFF_SECONDS = Number(process.env.BENCH_SCALE_CLIFF_SECONDS ?? 600);
const SLUG = 'scale';

interface StepResult {
  ms: number;
  rssMb: number;
  detail?: Record<string, unknown>;
}

const fmtMs = (v: number) => (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v).toLocaleString('en')} ms`);

/** Runs `step` in a process of its own; its JSON result line. */
function runStep(step: string, args: Record<string, unknown>): StepResult {
  const result = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--step', step, JSON.stringify(args)], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'warn' },
    maxBuffer: 64 << 20,
  });
  const line = result.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (result.status !== 0 || !line) throw new Error(`step ${step} failed (${result.status}): ${result.stderr.slice(-2000)}`);
  return JSON.parse(line.slice('RESULT '.length)) as StepResult;
}

/** git-cliff in `repo` (a bare repository), or null when it did not finish within the limit. */
function gitCliff(repo: string, work: string): { ms: number; rssMb: number | null } | null {
  const { path } = gitCliffBinary();
  const out = join(work, 'CHANGELOG.md');
  const timeFile = join(work, 'cliff.time');
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-o', timeFile, '-f', '%M', path, '-o', out], {
    cwd: repo,
    env: { ...process.env, GIT_DIR: repo },
    stdio: 'ignore',
    timeout: CLIFF_SECONDS * 1000,
    killSignal: 'SIGKILL',
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) return null;
  const kb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1));
  return { ms, rssMb: Number.isFinite(kb) ? Math.round(kb / 1024) : null };
}

interface SizeResult {
  commits: number;
  first: StepResult;
  noop: StepResult;
  push: StepResult;
  tag: StepResult;
  preview: StepResult;
  listing: StepResult;
  cliff: { ms: number; rssMb: number | null } | null;
}

async function measure(size: number, work: string): Promise<SizeResult> {
  const cached = await ensureScaleRepo(CACHE, size);
  const repo = copyRepo(cached, join(work, `repo-${size}.git`));
  const name = `changelog_bench_scale_${process.pid}_${size}`;
  await adminQuery(`DROP DATABASE IF EXISTS ${name}`);
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const base = { databaseUrl: url.toString(), reposDir: join(work, `mirrors-${size}`), repo };
  try {
    const first = runStep('first', base);
    console.log(`  ${size.toLocaleString('en')}: first sync ${fmtMs(first.ms)}, ${first.rssMb} MB`);
    const noop = runStep('sync', base);
    console.log(`  ${size.toLocaleString('en')}: no-op sync ${fmtMs(noop.ms)}, ${noop.rssMb} MB`);
    await pushCommit(repo, size);
    const push = runStep('sync', base);
    console.log(`  ${size.toLocaleString('en')}: push of 1 commit ${fmtMs(push.ms)}, ${push.rssMb} MB`);
    await pushCommit(repo, size + 1, tagOf(size + 99) ?? `v9.${size}.0`);
    const tag = runStep('sync', base);
    console.log(`  ${size.toLocaleString('en')}: push with a tag ${fmtMs(tag.ms)}, ${tag.rssMb} MB`);
    const preview = runStep('preview', base);
    console.log(`  ${size.toLocaleString('en')}: preview ${fmtMs(preview.ms)}, ${preview.rssMb} MB`);
    const listing = runStep('listing', base);
    console.log(`  ${size.toLocaleString('en')}: listing ${JSON.stringify(listing.detail)}`);
    const cliff = gitCliff(repo, work);
    console.log(`  ${size.toLocaleString('en')}: git-cliff ${cliff ? `${fmtMs(cliff.ms)}, ${cliff.rssMb} MB` : `did not finish in ${CLIFF_SECONDS} s`}`);
    return { commits: size, first, noop, push, tag, preview, listing, cliff };
  } finally {
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(base.reposDir, { recursive: true, force: true });
    rmSync(repo, { recursive: true, force: true });
  }
}

function report(results: SizeResult[], load: [number, number]): string {
  const cell = (s: StepResult) => `${fmtMs(s.ms)} · ${s.rssMb} MB`;
  const listingCell = (s: StepResult) => {
    const d = s.detail as { firstMs: number; deepestMs: number; offset: number };
    return `${d.firstMs.toFixed(1)} ms / ${d.deepestMs.toFixed(1)} ms (offset ${d.offset.toLocaleString('en')})`;
  };
  const rows = results.map(
    (r) =>
      `| ${r.commits.toLocaleString('en')} | ${cell(r.first)} | ${cell(r.push)} | ${cell(r.tag)} | ${cell(r.noop)} | ${cell(r.preview)} | ` +
      `${r.cliff ? `${fmtMs(r.cliff.ms)} · ${r.cliff.rssMb} MB` : `> ${CLIFF_SECONDS} s`} | ${listingCell(r.listing)} |`,
  );
  const table = [
    '| commits | first sync | push of 1 commit | push with a tag | no-op sync | preview (releases) | git-cliff | listing: offset 0 / deepest |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  const smallest = results[0];
  const largest = results.at(-1);
  const verdicts: string[] = [];
  if (smallest && largest && largest !== smallest) {
    const pushRatio = largest.push.ms / smallest.push.ms;
    const d = (r: SizeResult) => r.listing.detail as { firstMs: number; deepestMs: number };
    const peak = Math.max(largest.first.rssMb, largest.push.rssMb, largest.tag.rssMb, largest.noop.rssMb, largest.preview.rssMb);
    verdicts.push(
      `Against issue 27's targets at ${largest.commits.toLocaleString('en')} commits: a push of one commit ${fmtMs(largest.push.ms)} (target 2 s), ` +
        `${pushRatio.toFixed(1)}× the same push at ${smallest.commits.toLocaleString('en')} (target 2×); a no-op sync ${fmtMs(largest.noop.ms)} (target 0.5 s); ` +
        `peak RSS ${peak} MB (target 400 MB); the deepest listing ${(d(largest).deepestMs / d(largest).firstMs).toFixed(2)}× the first page (target 2×).`,
    );
  }
  return [
    '<!-- bench:scale -->',
    '## Cost as the history grows (`npm run bench:scale`)',
    '',
    'Synthetic histories built with `git fast-import` (`scripts/scale-history.ts`: Conventional Commits with scopes and `(#N)`, a merge of a',
    'two-commit branch every 50 commits, ten packages, a tag every 100 commits), on PostgreSQL, every entry type and release notes published as',
    'generated. Each step in a process of its own, as a worker runs it; time of the step alone · peak RSS of that process (all threads).',
    'The listing is the public API uncached (response cache off), median of 9 reads.',
    '',
    table,
    '',
    ...verdicts,
    '',
    `Measured ${new Date().toISOString().slice(0, 16)}Z on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}; load average ${load[0].toFixed(2)} at the start, ${load[1].toFixed(2)} at the end.`,
    '<!-- /bench:scale -->',
  ].join('\n');
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const loadStart = loadavg()[0]!;
  console.log(`sizes ${SIZES.join(', ')}; ${cpus().length} CPUs; load average ${loadStart.toFixed(2)}`);
  try {
    const results: SizeResult[] = [];
    for (const size of SIZES) results.push(await measure(size, work));
    const section = report(results, [loadStart, loadavg()[0]!]);
    console.log(`\n${section}`);
    let doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
    const marked = /<!-- bench:scale -->[\s\S]*?<!-- \/bench:scale -->/;
    doc = marked.test(doc) ? doc.replace(marked, section) : `${doc.trimEnd()}\n\n${section}\n`;
    writeFileSync(DOC, doc);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------
// One step, in its own process.

interface StepArgs {
  databaseUrl: string;
  reposDir: string;
  repo: string;
}

async function step(name: string, args: StepArgs): Promise<StepResult> {
  if (name === 'preview') {
    const { preview } = await import('../src/generation/preview.js');
    const started = process.hrtime.bigint();
    const result = await preview({ path: args.repo, type: 'release' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    return { ms, rssMb: peakRssMb(), detail: { chars: result.text.length } };
  }
  const { loadConfig } = await import('../src/config.js');
  const { openDatabase } = await import('../src/db/database.js');
  const { migrate } = await import('../src/db/migrate.js');
  const { createServices } = await import('../src/services.js');
  const config = loadConfig({ DATABASE_URL: args.databaseUrl, REPOS_DIR: args.reposDir, LOG_LEVEL: 'warn', RESPONSE_CACHE: 'false', RATE_LIMIT_ENABLED: 'false', UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' });
  const database = await openDatabase(config.database);
  try {
    if (name === 'first') await migrate(database);
    const services = createServices(database, config);
    try {
      if (name === 'listing') {
        const { buildApp } = await import('../src/app.js');
        const app = await buildApp({ config, database, services });
        const get = async (url: string) => {
          const res = await app.inject({ url });
          if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          return res.json() as { meta: { total: number } };
        };
        const total = (await get(`/v1/changelog/${SLUG}?limit=20`)).meta.total;
        const offset = Math.max(0, total - 20);
        const urls = { firstMs: `/v1/changelog/${SLUG}?limit=20`, deepestMs: `/v1/changelog/${SLUG}?offset=${offset}&limit=20` };
        for (let i = 0; i < 5; i++) for (const url of Object.values(urls)) await get(url);
        const samples: Record<string, number[]> = { firstMs: [], deepestMs: [] };
        for (let i = 0; i < 9; i++) {
          for (const [key, url] of Object.entries(urls)) {
            const started = process.hrtime.bigint();
            await get(url);
            samples[key]!.push(Number(process.hrtime.bigint() - started) / 1e6);
          }
        }
        const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
        await app.close();
        return { ms: 0, rssMb: peakRssMb(), detail: { total, offset, firstMs: median(samples.firstMs!), deepestMs: median(samples.deepestMs!) } };
      }
      const started = process.hrtime.bigint();
      let linkId: string;
      if (name === 'first') {
        const user = await database.db.insertInto('users').values({ email: 'bench@example.com', name: 'Bench' }).returning('id').executeTakeFirstOrThrow();
        await database.db.insertInto('projects').values({ name: SLUG, slug: SLUG, owner_type: 'user', owner_user_id: user.id }).execute();
        await services.generation.configure(SLUG, {
          entryTypes: ['commit', 'daily', 'weekly', 'monthly'],
          publish: 'auto',
          history: 'publish',
        });
        linkId = (await services.repos.linkLocalRepo({ projectSlug: SLUG, source: args.repo })).link.id;
      } else {
        linkId = (await database.db.selectFrom('repo_links').select('id').executeTakeFirstOrThrow()).id;
      }
      // What the ingest job does, then the generate job it queues (ingest.job.ts, generate.job.ts).
      const since = new Date(Date.now() - 60_000);
      let queued: { projectId: string; full: boolean; retagged: boolean } | null = null;
      await services.ingest.ingestLink(linkId, {
        beforeIdle: async (result) => {
          if (result.changed) queued = { projectId: result.projectId, full: result.unreachable > 0 || result.returned > 0, retagged: result.retagged > 0 };
        },
      });
      const job = queued as { projectId: string; full: boolean; retagged: boolean } | null;
      if (job) await services.generation.generateProject(job.projectId, job.full || name === 'first' ? {} : { storedSince: since, retagged: job.retagged });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      return { ms, rssMb: peakRssMb(), detail: { generated: job !== null } };
    } finally {
      await services.jobs.stop();
    }
  } finally {
    await database.close();
  }
}

/** This process's peak resident set (every thread), in MB. */
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

const stepAt = process.argv.indexOf('--step');
if (stepAt >= 0) {
  step(process.argv[stepAt + 1]!, JSON.parse(process.argv[stepAt + 2]!) as StepArgs)
    .then((r) => {
      console.log(`RESULT ${JSON.stringify(r)}`);
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
