import { main } from '../../src/cli/main.js';

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `changelog ...args` in-process as a shell would (main() opens and closes its own database) with
 * only the given environment, and returns its exit code and what it printed.
 */
export async function runCli(args: string[], { env = {}, progress }: { env?: Record<string, string>; progress?: NodeJS.WriteStream } = {}): Promise<CliOutput> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'changelog', ...args], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env,
    ...(progress ? { progress } : {}),
  });
  return { code, stdout, stderr };
}
