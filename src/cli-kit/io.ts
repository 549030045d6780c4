import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';

/** What every command module gets to talk to the terminal, and what a command returns. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** A terminal to draw progress bars on (absent when output is not a terminal). */
  progress?: NodeJS.WriteStream;
}

/** What a command returns: the JSON object for `--json`, and the lines for people. */
export interface Output {
  json: Record<string, unknown>;
  text: string;
  /**
   * Part of the work failed (one link of several, say): the output is printed as usual, then this
   * goes to stderr as an error (one JSON object with --json) and the command exits with code 1.
   */
  failure?: { message: string; code: string; details: { message: string }[] };
}

/** Declares a subcommand whose action returns an Output, printed as text or JSON. */
export const command = (parent: Command, name: string, description: string): Command =>
  parent.command(name).description(description).option('--json', 'print one JSON object instead of text');

/**
 * Wraps an action that returns an Output: prints it as one JSON object with --json, else as text;
 * an output with a `failure` also prints that on stderr and sets the exit code to 1.
 */
export const outputRunner =
  (io: CliIo, setExitCode: (code: number) => void = () => {}) =>
  <A extends unknown[]>(fn: (...args: A) => Promise<Output>) =>
  async (...args: A): Promise<void> => {
    // Commander passes the command itself last; its options say whether --json was given.
    const cmd = args[args.length - 1] as Command;
    const output = await fn(...args);
    const json = cmd.opts().json === true;
    io.stdout(json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
    if (!output.failure) return;
    const { message, code, details } = output.failure;
    io.stderr(json ? `${JSON.stringify({ error: message, code, details })}\n` : `error: ${message}\n${details.map((d) => `  - ${d.message}\n`).join('')}`);
    setExitCode(1);
  };

/**
 * Where links printed for people point: the server this command reached the database through, when
 * it says its address (the invite of a server started with PORT=8080 from a shell without it), else
 * this process's settings (PUBLIC_URL, or PORT's).
 */
export const publicUrlOf = (database: Database, config: Config): string => database.via?.publicUrl ?? config.publicUrl;

/**
 * What main() hands each domain's `register…Commands`: the program to add to, the helpers above,
 * the services (opened per command, with pending migrations applied) and the configuration. `S` is
 * what a module's commands use of the services, named by that module: main() builds only the core
 * services (core-services.ts) for a module that needs no more, and no command module depends on the
 * composition root.
 */
export interface CliParts<S = unknown> {
  program: Command;
  command: typeof command;
  run: ReturnType<typeof outputRunner>;
  withServices: <T>(fn: (services: S) => Promise<T>) => Promise<T>;
  getConfig: () => Config;
  io: CliIo;
}
