import { AppError } from '../errors.js';

/**
 * A password hash (scrypt, N = 2^17: 128 MiB and about half a second of a core) is the costliest thing
 * an anonymous client can make this process do, and it runs on libuv's thread pool, which file system
 * calls and DNS lookups share. The gate lets `concurrency` hashes run at once; the others wait their
 * turn, taken round-robin across keys (client addresses), so a few addresses sending many sign-ins wait
 * behind each other rather than in front of everyone else. A request whose wait would exceed `maxWaitMs`
 * (from the hashes ahead of it and their recent duration) is refused at once, and one still waiting
 * after `maxWaitMs` is refused then: 503 with Retry-After, nothing hashed.
 */
export interface PasswordGateOptions {
  concurrency: number;
  maxWaitMs: number;
  /** Waiting requests at most, whatever their estimated wait (before any hash has been timed). */
  maxWaiting?: number;
}

export interface PasswordGateStats {
  running: number;
  waiting: number;
  /** The most hashes that ran at once since the gate was made. */
  peakRunning: number;
  /** Requests refused (never admitted, or not served within maxWaitMs). */
  refused: number;
}

/** A place in line: `run` hashes when its turn comes (or throws the busy error); `cancel` gives the place up. */
export interface GateTicket {
  run<T>(work: () => Promise<T>): Promise<T>;
  cancel(): void;
}

interface Waiter {
  key: string;
  start: () => void;
  fail: (error: AppError) => void;
  timer: NodeJS.Timeout;
}

const DEFAULT_MAX_WAITING = 256;
/** Weight of the newest hash in the running mean of hash durations. */
const MEAN_WEIGHT = 0.2;

export function busyError(retryAfterSeconds: number): AppError {
  const seconds = Math.min(60, Math.max(1, Math.ceil(retryAfterSeconds)));
  return new AppError('unavailable', `Too many sign-ins are being checked right now; try again in ${seconds} second${seconds === 1 ? '' : 's'}`, undefined, {
    retryAfterSeconds: seconds,
  });
}

export function createPasswordGate(options: PasswordGateOptions) {
  const maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
  let running = 0;
  let waiting = 0;
  let peakRunning = 0;
  let refused = 0;
  let meanMs: number | null = null;
  // Insertion order is the round-robin order: a key served moves to the end.
  const queues = new Map<string, Waiter[]>();

  /** How long a newcomer with this key would wait: every key's waiters up to one more than this key has are ahead. */
  function estimatedWaitMs(key: string): number {
    if (meanMs === null) return 0;
    const own = queues.get(key)?.length ?? 0;
    let ahead = 0;
    for (const list of queues.values()) ahead += Math.min(list.length, own + 1);
    const free = options.concurrency - running;
    if (ahead < free) return 0;
    return Math.ceil((ahead - free + 1) / options.concurrency) * meanMs;
  }

  function remove(waiter: Waiter): boolean {
    const list = queues.get(waiter.key);
    const at = list?.indexOf(waiter) ?? -1;
    if (!list || at === -1) return false;
    list.splice(at, 1);
    if (list.length === 0) queues.delete(waiter.key);
    waiting--;
    clearTimeout(waiter.timer);
    return true;
  }

  function next(): void {
    while (running < options.concurrency) {
      const first = queues.entries().next();
      if (first.done) return;
      const [key, list] = first.value;
      const waiter = list[0]!;
      remove(waiter);
      // Its key goes to the back of the line.
      if (queues.has(key)) {
        const rest = queues.get(key)!;
        queues.delete(key);
        queues.set(key, rest);
      }
      waiter.start();
    }
  }

  function refuse(waitMs: number): AppError {
    refused++;
    return busyError(waitMs / 1000);
  }

  return {
    /** Takes a place in line for `key`, or throws the busy error (503) when the wait would be too long. */
    admit(key: string): GateTicket {
      const estimate = estimatedWaitMs(key);
      if (estimate > options.maxWaitMs || waiting >= maxWaiting) throw refuse(Math.max(estimate, options.maxWaitMs));
      let turn: Promise<void>;
      let waiter: Waiter | undefined;
      if (running < options.concurrency && waiting === 0) {
        running++;
        peakRunning = Math.max(peakRunning, running);
        turn = Promise.resolve();
      } else {
        turn = new Promise<void>((resolve, reject) => {
          const entry: Waiter = {
            key,
            start: () => {
              running++;
              peakRunning = Math.max(peakRunning, running);
              resolve();
            },
            fail: reject,
            timer: setTimeout(() => {
              if (remove(entry)) entry.fail(refuse(options.maxWaitMs));
            }, options.maxWaitMs),
          };
          waiter = entry;
          const list = queues.get(key);
          if (list) list.push(entry);
          else queues.set(key, [entry]);
          waiting++;
        });
        // A ticket cancelled or refused before anyone awaited it must not surface as unhandled.
        turn.catch(() => {});
      }
      let settled = false;
      const release = () => {
        running--;
        next();
      };
      return {
        async run<T>(work: () => Promise<T>): Promise<T> {
          if (settled) throw new Error('a gate ticket runs once');
          settled = true;
          await turn;
          const started = performance.now();
          try {
            return await work();
          } finally {
            const ms = performance.now() - started;
            meanMs = meanMs === null ? ms : meanMs + MEAN_WEIGHT * (ms - meanMs);
            release();
          }
        },
        cancel() {
          if (settled) return;
          settled = true;
          if (waiter && remove(waiter)) return;
          // Its turn had come (or was given at once): hand it on.
          void turn.then(release, () => {});
        },
      };
    },

    /** Hashes `work` in line for `key` (admit, then run). */
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      return this.admit(key).run(work);
    },

    stats(): PasswordGateStats {
      return { running, waiting, peakRunning, refused };
    },
  };
}

export type PasswordGate = ReturnType<typeof createPasswordGate>;
