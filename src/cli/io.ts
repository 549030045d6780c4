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
}
