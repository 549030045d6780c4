import type { Command } from 'commander';
import type { CliIo } from '../cli/io.js';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import { startWorker } from './worker.js';

interface CliParts {
  program: Command;
  command: (parent: Command, name: string, description: string) => Command;
  withServices: <T>(fn: (services: Services) => Promise<T>) => Promise<T>;
  getConfig: () => Config;
  io: CliIo;
}

/** `changelog worker`: the background jobs without the HTTP server. */
export function registerWorkerCommand({ program, command, withServices, getConfig, io }: CliParts): void {
  command(program, 'worker', 'run the background worker (repository ingestion) without the HTTP server').action(async () => {
    await withServices(async (services) => {
      const { resumed } = await startWorker(services, { pollIntervalSeconds: getConfig().repoLinks.pollIntervalSeconds });
      const via = services.database.via;
      // On the embedded database while the server runs, the worker works through the server's socket.
      const where = via ? ` on the server's embedded database (pid ${via.pid})` : '';
      io.stderr(`Worker running${where}${resumed ? ` (resumed ${resumed} unfinished ingests)` : ''}; stop with Ctrl-C\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
    });
  });
}
