import type { CliParts } from '../cli-kit/io.js';
import type { Services } from '../services.js';

/**
 * `changelog worker`: the background jobs without the HTTP server. On the embedded database it goes
 * through the server's socket when a server runs; started alone, it holds DATA_DIR itself and
 * shares it over its own socket as the server does, so CLI commands (`changelog sync`, `repos
 * link`, …) run beside it as they do beside a server. A server started afterwards refuses, naming
 * the worker: the server runs the worker itself, so the worker is to be stopped first.
 */
export function registerWorkerCommand({ program, command, withServices, io }: CliParts<Services>): void {
  command(program, 'worker', 'run the background worker (repository ingestion) without the HTTP server').action(async () => {
    // Listening from the start: a signal while the worker starts still stops it cleanly once started
    // (its jobs and database closed), and a second signal ends the process at once.
    let signalled = false;
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
      signalled = true;
      stop();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const [{ requireSafeGit }, { startWorker }] = await Promise.all([import('../git/version.js'), import('./worker.js')]);
    // It fetches the repositories dashboard users linked: no git that lets one run commands.
    const git = await requireSafeGit();
    await withServices(async (services) => {
      const { database } = services;
      let where = '';
      if (database.via) {
        where =
          database.via.holder === 'worker'
            ? ` on the embedded database of another \`changelog worker\` (pid ${database.via.pid})`
            : ` on the server's embedded database (pid ${database.via.pid})`;
      } else if (database.shareOverSocket) {
        try {
          const socket = await database.shareOverSocket({ holder: 'worker' });
          where = ` on the embedded database, shared with local processes at ${socket.path} (stop it before starting the server, which runs the worker itself)`;
        } catch (error) {
          // Working matters more: CLI commands then refuse while the worker runs, as before sharing.
          io.stderr(`Could not share the embedded database (${(error as Error).message}); CLI commands refuse while the worker runs\n`);
        }
      }
      const { resumed } = await startWorker(services);
      io.stderr(`Worker running${where} with git ${git}${resumed ? ` (resumed ${resumed} unfinished ingests)` : ''}; stop with Ctrl-C\n`);
      await stopped;
    });
  });
}
