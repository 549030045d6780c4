import { spawn } from 'node:child_process';

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    /** Stopped by its time budget or its stall limit (GitLimits), not by git itself. */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/**
 * What every git process may spend: a remote that answers its advertisement and then nothing must
 * cost one link a few minutes at most, never a worker slot for good (security issue #21).
 */
export interface GitLimits {
  /** Longest one git process may run (GIT_TIMEOUT_MS). */
  timeoutMs: number;
  /**
   * Longest a transfer may stay under 1,000 bytes/s (curl's low-speed limit, for http and https),
   * and a streamed read may wait for git's next output (GIT_STALL_TIMEOUT_MS).
   */
  stallMs: number;
}

export const DEFAULT_GIT_LIMITS: Readonly<GitLimits> = Object.freeze({ timeoutMs: 600_000, stallMs: 60_000 });

let limits: Readonly<GitLimits> = DEFAULT_GIT_LIMITS;

/** Sets the limits of every git process started from now on (the configuration's, at start-up). */
export function setGitLimits(next: GitLimits): void {
  limits = Object.freeze({ timeoutMs: next.timeoutMs, stallMs: next.stallMs });
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
  /** A budget tighter than GitLimits.timeoutMs for this invocation (a request waiting on it). */
  timeoutMs?: number;
}

/** Options of a streamed read (`streamGitTokens`). */
export interface GitStreamOptions extends GitOptions {
  /** The byte that ends each token: NUL (git's `-z` output) unless given, `\n` for line output. */
  separator?: number;
  /**
   * Longest token kept, in bytes: the rest of a longer one is read and dropped, so memory and work
   * stay linear whatever a repository holds (a 40 MB commit message). No limit unless given.
   */
  maxTokenBytes?: number;
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
  // curl gives up on a transfer slower than 1,000 bytes/s for the stall limit: the remote that
  // advertises its refs and then never sends the pack ends here, with "curl 28" on stderr.
  const stall = { 'http.lowSpeedLimit': '1000', 'http.lowSpeedTime': String(Math.max(1, Math.ceil(limits.stallMs / 1000))) };
  const entries = Object.entries({ ...stall, ...(options.gitDir ? NO_NETWORK : {}), ...options.config });
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

/** Keeps the last `max` bytes written to it: git's error is at the end of what it printed. */
class Tail {
  private chunks: Buffer[] = [];
  private bytes = 0;
  constructor(private readonly max: number) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes - this.chunks[0]!.length >= this.max) this.bytes -= this.chunks.shift()!.length;
  }
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.max)).toString('utf8');
  }
}

const STDERR_KEPT_BYTES = 64 * 1024;
/** After SIGTERM (git removes its lock files and temporary packs), how long before SIGKILL. */
const KILL_GRACE_MS = 2_000;
const seconds = (ms: number) => (ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000));

/** git's own words for curl's low-speed abort (CURLE_OPERATION_TIMEDOUT) and other transport timeouts. */
const TRANSPORT_TIMEOUT = /curl 28|Operation too slow|Operation timed out|Connection timed out/i;

/**
 * git processes still running: their groups are stopped when this process exits, as they would have
 * been with it had they not been put in groups of their own (so that a timeout stops their helpers).
 */
const running = new Set<number>();
let stopOnExit = false;
function track(pid: number | undefined): void {
  if (pid === undefined) return;
  running.add(pid);
  if (stopOnExit) return;
  stopOnExit = true;
  process.once('exit', () => {
    for (const group of running) {
      try {
        process.kill(-group, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  });
}

/**
 * One git process under the limits: a time budget for the whole run, the stall limit while the
 * caller waits for output (`waitForOutput`), and on either the whole process group stopped (git's
 * helpers too: git-remote-https holds the connection), SIGTERM first so that git removes its lock files.
 */
function startGit(args: string[], options: GitOptions) {
  const child = spawn('git', gitArgs(args, options), { env: gitEnv(options), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  track(child.pid);
  const stderr = new Tail(STDERR_KEPT_BYTES);
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const { stallMs } = limits;
  const timeoutMs = Math.min(options.timeoutMs ?? Infinity, limits.timeoutMs);
  let stopped: 'budget' | 'stall' | 'caller' | null = null;
  let exitedAlready = false;
  const signal = (name: NodeJS.Signals) => {
    if (exitedAlready || child.pid === undefined) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      child.kill(name);
    }
  };
  let killTimer: NodeJS.Timeout | null = null;
  const stop = (why: 'budget' | 'stall' | 'caller') => {
    if (stopped || exitedAlready) return;
    stopped = why;
    signal('SIGTERM');
    killTimer = setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS);
    killTimer.unref();
  };
  const budget = setTimeout(() => stop('budget'), timeoutMs);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) => {
      exitedAlready = true;
      clearTimeout(budget);
      if (child.pid !== undefined) running.delete(child.pid);
      reject(error);
    });
    child.on('close', (code) => {
      exitedAlready = true;
      clearTimeout(budget);
      if (killTimer) clearTimeout(killTimer);
      if (child.pid !== undefined) running.delete(child.pid);
      resolve(code);
    });
  });
  exited.catch(() => {});

  return {
    child,
    stop: () => stop('caller'),
    /** Waits for `next` (the next output) at most the stall limit; past it git is stopped. */
    async waitForOutput<T>(next: Promise<T>): Promise<T> {
      const timer = setTimeout(() => stop('stall'), stallMs);
      try {
        return await next;
      } finally {
        clearTimeout(timer);
      }
    },
    /** Resolves when git exited 0; otherwise a GitError saying what happened (redacted). */
    async finished(): Promise<void> {
      const code = await exited;
      const text = redactGitOutput(stderr.text().trim());
      const command = `git ${args[0]}`;
      if (stopped === 'budget') throw new GitError(`${command} timed out: still running after ${seconds(timeoutMs)} s (the time budget of one git command)`, code, text, true);
      if (stopped === 'stall') throw new GitError(`${command} timed out: no output for ${seconds(stallMs)} s`, code, text, true);
      if (code === 0 && stopped === null) return;
      if (TRANSPORT_TIMEOUT.test(text)) {
        throw new GitError(`${command} timed out: the remote sent less than 1,000 bytes/s for ${seconds(stallMs)} s (${text})`, code, text, true);
      }
      throw new GitError(`${command} failed: ${text || `exit code ${code}`}`, code, text);
    },
  };
}

/** Runs git to completion and returns its stdout; a non-zero exit becomes a GitError with git's message. */
export async function runGit(args: string[], options: GitOptions = {}): Promise<string> {
  const run = startGit(args, options);
  const out: Buffer[] = [];
  run.child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  await run.finished();
  return Buffer.concat(out).toString('utf8');
}

/**
 * Splits a byte stream into tokens at `separator`, decoded as UTF-8, in linear time and bounded
 * memory: a token longer than `maxTokenBytes` keeps its first `maxTokenBytes` bytes and the rest is
 * dropped as it arrives. Complete tokens inside a chunk are decoded at once and split natively (a
 * large history has hundreds of thousands of tokens); only the token a chunk ends in waits for the
 * next, and it is never copied again once it reached its cap.
 */
export class TokenSplitter {
  private parts: Buffer[] = [];
  private kept = 0;
  private readonly separatorText: string;

  constructor(
    private readonly separator = 0,
    private readonly maxTokenBytes = Infinity,
  ) {
    this.separatorText = String.fromCharCode(separator);
  }

  /** The tokens `chunk` completes (none when it holds no separator). */
  push(chunk: Buffer): string[] {
    const first = chunk.indexOf(this.separator);
    if (first === -1) {
      this.keep(chunk);
      return [];
    }
    this.keep(chunk.subarray(0, first));
    const tokens = [this.take()];
    const last = chunk.lastIndexOf(this.separator);
    if (last > first) {
      const whole = chunk.toString('utf8', first + 1, last).split(this.separatorText);
      // Only a run of whole tokens longer than the cap can hold a token over it.
      if (last - first - 1 > this.maxTokenBytes) {
        for (const token of whole) tokens.push(Buffer.byteLength(token) > this.maxTokenBytes ? Buffer.from(token).toString('utf8', 0, this.maxTokenBytes) : token);
      } else {
        for (const token of whole) tokens.push(token);
      }
    }
    this.keep(chunk.subarray(last + 1));
    return tokens;
  }

  /** What follows the last separator, if anything (git's output normally ends with one). */
  end(): string | null {
    return this.kept > 0 ? this.take() : null;
  }

  private keep(bytes: Buffer): void {
    const room = this.maxTokenBytes - this.kept;
    if (room <= 0 || bytes.length === 0) return;
    // A copy of what is kept only: the chunk itself is not held.
    const part = Buffer.from(bytes.subarray(0, Math.min(room, bytes.length)));
    this.parts.push(part);
    this.kept += part.length;
  }

  private take(): string {
    const text = this.parts.length === 1 ? this.parts[0]!.toString('utf8') : Buffer.concat(this.parts, this.kept).toString('utf8');
    this.parts = [];
    this.kept = 0;
    return text;
  }
}

/**
 * Streams git's stdout as tokens (NUL-separated unless told otherwise, decoded as UTF-8, each cut
 * to `maxTokenBytes`), without holding the whole output: the caller's pace is the pace git is read
 * at, and the stall limit counts only while the caller waits for git. Tokens come in batches, every
 * complete token of a chunk of output at once (yielding each of the hundreds of thousands of tokens
 * of a large history on its own cost more than parsing them). Throws a GitError after the last
 * batch when git fails or is stopped by its limits.
 */
export async function* streamGitTokens(args: string[], options: GitStreamOptions = {}): AsyncGenerator<string[]> {
  const run = startGit(args, options);
  const splitter = new TokenSplitter(options.separator ?? 0, options.maxTokenBytes ?? Infinity);
  const chunks = (run.child.stdout as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await run.waitForOutput(chunks.next());
      if (next.done) break;
      const tokens = splitter.push(next.value);
      if (tokens.length) yield tokens;
    }
    const last = splitter.end();
    if (last !== null) yield [last];
    await run.finished();
  } finally {
    // The consumer stopped early (an error while storing): do not leave git running.
    run.stop();
  }
}
