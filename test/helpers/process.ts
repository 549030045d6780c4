import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { TEST_ENV } from './config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));
/** The command as installed: the compiled CLI (dist/), which `npm ci` builds. */
const BIN = fileURLToPath(new URL('../../bin/changelog.js', import.meta.url));

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server running in a child process of the test. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, and wait for it to exit (at once if it already has). */
  stop(): Promise<void>;
}

/** Spawns `node --import tsx ...args` and collects what it prints. */
const spawnTsx = (args: string[], options: { cwd?: string; env: Record<string, string | undefined> }) => spawnNode(['--import', 'tsx', ...args], options);

/** Spawns `node ...args` and collects what it prints. */
function spawnNode(args: string[], options: { cwd?: string; env: Record<string, string | undefined> }) {
  let output = '';
  const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exit = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exit;
  };
  return { child, output: () => output, exited, stop };
}

/**
 * Starts `changelog serve` (the CLI, as a shell runs it: production mode, only the given settings)
 * as a real child process and waits until it answers /health. Load shedding is off unless `env` turns
 * it on, as in every test process (test/helpers/config.ts): a loaded CI machine lags a child's event
 * loop past the 1 s default, and a 503 there is the machine's, not the code's.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { built?: boolean; cwd?: string; startSeconds?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const processEnv = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  };
  // `built`: bin/changelog.js serve, exactly what a user runs after `npm ci` (see buildIfStale).
  const server = options.built
    ? spawnNode([BIN, 'serve'], { cwd: options.cwd ?? ROOT, env: processEnv })
    : spawnTsx(['test/helpers/run-cli.ts', 'serve'], { cwd: ROOT, env: processEnv });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startSeconds ?? 30) * 1000;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      server.child.kill('SIGKILL');
      throw new Error(`server did not start:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ...server, url };
}

/**
 * Runs `changelog ...args` from the sources (as `startServerProcess` does, production mode, only the
 * given settings and PATH unless `env` names its own) until it exits: for commands that are expected
 * to stop by themselves, such as a server refusing to start. Killed after `seconds`.
 */
export async function runSourceCli(args: string[], env: Record<string, string>, seconds = 60): Promise<{ code: number | null; output: string }> {
  const run = spawnTsx(['test/helpers/run-cli.ts', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...env } });
  const timer = setTimeout(() => run.child.kill('SIGKILL'), seconds * 1000);
  try {
    const { code } = await run.exited;
    return { code, output: run.output() };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the server alone (test/helpers/serve.ts, with the test settings and any free port) in a
 * child process and resolves once it prints its port. `migrate: false` for processes that share a
 * database already migrated.
 */
export async function startServerScript(env: Record<string, string>, options: { migrate?: boolean } = {}): Promise<ServerProcess> {
  const server = spawnTsx([SERVE, ...(options.migrate === false ? ['--no-migrate'] : [])], {
    env: { ...process.env, ...TEST_ENV, LOG_LEVEL: 'warn', DEMO_SEED: 'false', HOST: '127.0.0.1', PORT: '0', ...env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.child.stdout!.on('data', () => {
      const match = /\{"port":(\d+)\}/.exec(server.output());
      if (match) resolve(Number(match[1]));
    });
    server.child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${server.output()}`)));
    setTimeout(() => reject(new Error(`server did not start in 60 s: ${server.output()}`)), 60_000).unref();
  });
  return { ...server, url: `http://127.0.0.1:${port}` };
}

/**
 * Compiles src/ into dist/ when the build is older than the sources (npm start's own check, a no-op
 * when current), so that tests of bin/changelog.js run the code under test.
 */
export function buildIfStale(): void {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, stdio: 'ignore' });
}

export interface BuiltCliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  json<T = Record<string, unknown>>(): T;
}

/** Runs `node bin/changelog.js ...args` as a shell would, with only the given environment (and PATH). */
export function runBuiltCli(args: string[], env: Record<string, string>, cwd = ROOT): Promise<BuiltCliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, json: <T,>() => JSON.parse(stdout) as T }));
  });
}
