/**
 * Synthetic but realistic histories for `npm run bench:scale`, written with `git fast-import` (a 300k-commit
 * repository in seconds): Conventional Commits with scopes and `(#N)`, ten packages under `packages/`, a
 * merge of a two-commit branch every 50 commits, dependency updates, docs and CI changes, 40 authors, a
 * tag every 100 commits (a minor every tenth, else a patch). Deterministic for a given size.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PACKAGES = 10;
const AUTHORS = 40;
const START = Date.UTC(2015, 0, 1) / 1000;
/** About 20 minutes apart: 300k commits span about 11 years. */
const STEP_SECONDS = 1_200;

const KINDS = [
  { type: 'feat', words: 'add support for option' },
  { type: 'fix', words: 'handle an empty value in' },
  { type: 'fix', words: 'keep the order of' },
  { type: 'perf', words: 'cache the result of' },
  { type: 'refactor', words: 'split the parser of' },
  { type: 'docs', words: 'explain' },
  { type: 'test', words: 'cover' },
  { type: 'chore(deps)', words: 'bump lodash in' },
  { type: 'ci', words: 'run the tests of' },
] as const;

/** What commit `i` changes and says (the same for every build of a size). */
function commitOf(i: number): { message: string; path: string; author: number } {
  const kind = KINDS[(i * 7) % KINDS.length]!;
  const pkg = `p${i % PACKAGES}`;
  const type = kind.type.includes('(') ? kind.type : `${kind.type}(${pkg})`;
  const path =
    kind.type === 'docs'
      ? `docs/${pkg}/page-${i % 40}.md`
      : kind.type === 'ci'
        ? `.github/workflows/ci-${i % 5}.yml`
        : kind.type === 'test'
          ? `packages/${pkg}/test/t-${i % 60}.test.ts`
          : kind.type === 'chore(deps)'
            ? `packages/${pkg}/package.json`
            : `packages/${pkg}/src/f-${i % 80}.ts`;
  return { message: `${type}: ${kind.words} ${pkg} item ${i} (#${i + 1})`, path, author: (i * 13) % AUTHORS };
}

/** One commit's fast-import command, on `ref`, after `from` (a mark or a ref), merging `merge` when given. */
function commitCommand(ref: string, mark: number, i: number, from: string | null, merge: string | null, seconds: number, branchCommit = 0): string {
  const { message, path, author } = commitOf(i);
  const who = `Dev ${author} <dev${author}@example.com> ${seconds} +0000`;
  const subject = merge ? `Merge pull request #${i + 1} from dev${author}/topic-${i}` : branchCommit === 2 ? `${message.replace(/ \(#\d+\)$/, '')} (tests)` : message.replace(/ \(#\d+\)$/, branchCommit ? '' : '$&');
  const text = `${subject}\n`;
  const content = `export const value${i} = ${i};\n`;
  return (
    `commit ${ref}\nmark :${mark}\nauthor ${who}\ncommitter ${who}\ndata ${Buffer.byteLength(text)}\n${text}` +
    (from ? `from ${from}\n` : '') +
    (merge ? `merge ${merge}\n` : '') +
    `M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\n`
  );
}

/** Runs git fast-import in `repo` on the stream `write` produces (chunks, with back-pressure). */
async function fastImport(repo: string, write: (emit: (chunk: string) => Promise<void>) => Promise<void>): Promise<void> {
  const child = spawn('git', ['-C', repo, 'fast-import', '--quiet', '--force'], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import failed (${code}): ${stderr}`))));
  });
  let buffer = '';
  const emit = async (chunk: string) => {
    buffer += chunk;
    if (buffer.length < 1 << 20) return;
    const out = buffer;
    buffer = '';
    if (!child.stdin.write(out)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  };
  await write(emit);
  child.stdin.end(buffer);
  await done;
}

/** The tag of commit `i` (every 100th), or null. */
export function tagOf(i: number): string | null {
  if ((i + 1) % 100 !== 0) return null;
  const n = (i + 1) / 100;
  return `v1.${Math.floor(n / 10)}.${n % 10}`;
}

/** A bare repository of `commits` commits on main, built once into `cacheDir` and reused. */
export async function ensureScaleRepo(cacheDir: string, commits: number): Promise<string> {
  const target = join(cacheDir, `scale-${commits}.git`);
  if (existsSync(join(target, '.complete'))) return target;
  mkdirSync(cacheDir, { recursive: true });
  const scratch = `${target}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', scratch]);
  let mark = 0;
  let main: number | null = null;
  await fastImport(scratch, async (emit) => {
    for (let i = 0; i < commits; i++) {
      const seconds = START + i * STEP_SECONDS;
      if (i % 50 === 49 && main !== null) {
        // A branch of two commits off main, merged back: the merge is commit i.
        const base = main;
        const a = ++mark;
        await emit(commitCommand('refs/heads/topic', a, i, `:${base}`, null, seconds - 2, 1));
        const b = ++mark;
        await emit(commitCommand('refs/heads/topic', b, i, `:${a}`, null, seconds - 1, 2));
        const m = ++mark;
        await emit(commitCommand('refs/heads/main', m, i, `:${base}`, `:${b}`, seconds));
        main = m;
      } else {
        const m = ++mark;
        await emit(commitCommand('refs/heads/main', m, i, main === null ? null : `:${main}`, null, seconds));
        main = m;
      }
      const tag = tagOf(i);
      if (tag) await emit(`reset refs/tags/${tag}\nfrom :${main}\n\n`);
    }
    await emit('reset refs/heads/topic\nfrom 0000000000000000000000000000000000000000\n\n');
  });
  writeFileSync(join(scratch, '.complete'), '');
  renameSync(scratch, target);
  return target;
}

/** A working copy of a cached repository, for runs that push to it. */
export function copyRepo(source: string, target: string): string {
  rmSync(target, { recursive: true, force: true });
  execFileSync('git', ['clone', '-q', '--bare', '--no-local', source, target], { stdio: 'ignore' });
  rmSync(join(target, '.complete'), { force: true });
  return target;
}

/** Pushes one commit (commit number `i` of the series) onto main of `repo`, with `tag` on it when given. */
export async function pushCommit(repo: string, i: number, tag: string | null = null): Promise<void> {
  const seconds = START + i * STEP_SECONDS;
  await fastImport(repo, async (emit) => {
    await emit(commitCommand('refs/heads/main', 1, i, 'refs/heads/main^0', null, seconds));
    if (tag) await emit(`reset refs/tags/${tag}\nfrom :1\n\n`);
  });
}
