import { spawn } from 'node:child_process';

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

export interface GitOptions {
  /** The repository (a bare mirror) to run in. */
  gitDir?: string;
  /** A directory inside a work tree (or a bare repository) to run in, as `git -C`; for local checkouts. */
  cwd?: string;
  /**
   * Settings for this invocation only, passed in the environment (GIT_CONFIG_COUNT…), so that a
   * credential lands neither in a config file nor in the process list.
   */
  config?: Record<string, string>;
  /** Stops git (SIGKILL) after this long and fails with a GitError: a remote that never answers must not hang a request. */
  timeoutMs?: number;
}

// No prompts for credentials, no pager, no locale-dependent output, no user or system config
// that could change what we parse.
const GIT_ENV = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  LC_ALL: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ASKPASS: 'echo',
};

function gitArgs(args: string[], options: GitOptions): string[] {
  const at = options.cwd ? ['-C', options.cwd] : [];
  return options.gitDir ? [...at, '--git-dir', options.gitDir, ...args] : [...at, ...args];
}

/**
 * A mirror (`gitDir`) is a partial clone: a command that needs an object it lacks fetches it from
 * `origin` by itself, with this invocation's settings. Unless the caller passes a source's settings
 * (mirror.ts: pinned address, https only, no redirects, the token), no protocol is allowed, so such
 * a fetch fails instead of going out with git's defaults (a new DNS lookup, redirects followed).
 */
const NO_NETWORK = { 'protocol.allow': 'never' };

/**
 * Variables that tell git which repository, object store or configuration to use. They never come
 * from this process's environment: a server started with GIT_ALTERNATE_OBJECT_DIRECTORIES (or
 * GIT_COMMON_DIR, GIT_OBJECT_DIRECTORY…) set would make every mirror, and every local source's
 * upload-pack, read objects from wherever they name. GIT_CONFIG_KEY_n/VALUE_n left over beyond our
 * own count are dropped too.
 */
const INHERITED_GIT_VARIABLE =
  /^GIT_(DIR|WORK_TREE|COMMON_DIR|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|INDEX_FILE|GRAFT_FILE|SHALLOW_FILE|NAMESPACE|REPLACE_REF_BASE|NO_REPLACE_OBJECTS|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|IMPLICIT_WORK_TREE|PREFIX|QUARANTINE_PATH|CONFIG|CONFIG_PARAMETERS|CONFIG_SYSTEM|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|ALLOW_PROTOCOL|PROTOCOL_FROM_USER|NO_LAZY_FETCH)$/;

function gitEnv(options: GitOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...GIT_ENV };
  for (const [name, value] of Object.entries(process.env)) if (!INHERITED_GIT_VARIABLE.test(name) && !(name in GIT_ENV)) env[name] = value;
  const entries = Object.entries({ ...(options.gitDir ? NO_NETWORK : {}), ...options.config });
  env.GIT_CONFIG_COUNT = String(entries.length);
  entries.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** Strips anything that looks like a credential from git's messages before they reach a log or a client. */
export function redactGitOutput(text: string): string {
  return redactUrls(text)
    .replace(/(authorization:\s*\w+\s+)\S+/gi, '$1[redacted]')
    .slice(0, 2000);
}

/**
 * Replaces the user information of every URL in `text` (`https://user:token@host` →
 * `https://[redacted]@host`): a URL with credentials is never shown or logged as given.
 */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1[redacted]@');
}

/** Runs git to completion and returns its stdout; a non-zero exit becomes a GitError with git's message. */
export function runGit(args: string[], options: GitOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', gitArgs(args, options), {
      env: gitEnv(options),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    let timedOut = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, options.timeoutMs)
      : null;
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      if (timedOut) reject(new GitError(`git ${args[0]} failed: no answer within ${Math.round(options.timeoutMs! / 1000)} s`, code, ''));
      else if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else {
        const stderr = redactGitOutput(Buffer.concat(err).toString('utf8').trim());
        reject(new GitError(`git ${args[0]} failed: ${stderr || `exit code ${code}`}`, code, stderr));
      }
    });
  });
}

/**
 * Streams git's stdout as NUL-separated tokens (decoded as UTF-8), without holding the whole
 * output: the caller's pace is the pace git is read at. Tokens come in batches, every complete
 * token of a chunk of output at once (a chunk is decoded once and split natively; yielding each
 * of the hundreds of thousands of tokens of a large history on its own cost more than parsing
 * them). Throws a GitError after the last batch when git fails.
 */
export async function* streamGitTokens(args: string[], options: GitOptions = {}): AsyncGenerator<string[]> {
  const child = spawn('git', gitArgs(args, options), {
    env: gitEnv(options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const err: Buffer[] = [];
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  let rest: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      // Up to the last NUL: never half a token, nor half a UTF-8 character.
      const end = buffer.lastIndexOf(0);
      if (end === -1) {
        rest = Buffer.from(buffer);
        continue;
      }
      rest = Buffer.from(buffer.subarray(end + 1));
      yield buffer.toString('utf8', 0, end).split('\0');
    }
    if (rest.length) yield [rest.toString('utf8')];
    const code = await exited;
    if (code !== 0) {
      const stderr = redactGitOutput(Buffer.concat(err).toString('utf8').trim());
      throw new GitError(`git ${args[0]} failed: ${stderr || `exit code ${code}`}`, code, stderr);
    }
  } finally {
    // The consumer stopped early (an error while storing): do not leave git running.
    if (child.exitCode === null) child.kill();
  }
}
