import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { createPasswordGate } from './password-gate.js';

/** A piece of work the test finishes by hand. */
function deferred() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

const busy = (error: unknown) => error instanceof AppError && error.code === 'unavailable' && error.status === 503 && (error.retryAfterSeconds ?? 0) >= 1;

describe('the password gate', () => {
  it('runs at most `concurrency` at once and serves keys round-robin: many from one address do not queue ahead of another', async () => {
    const gate = createPasswordGate({ concurrency: 2, maxWaitMs: 10_000 });
    const order: string[] = [];
    const work = new Map<string, ReturnType<typeof deferred>>();
    const submit = (key: string, name: string) => {
      const d = deferred();
      work.set(name, d);
      return gate.run(key, async () => {
        order.push(name);
        await d.done;
      });
    };
    const all = [
      ...['a1', 'a2', 'a3', 'a4', 'a5'].map((n) => submit('attacker', n)),
      ...['b1', 'b2', 'b3'].map((n) => submit('bot', n)),
      submit('user', 'u1'),
    ];
    await sleep(1);
    expect(order).toEqual(['a1', 'a2']);
    expect(gate.stats()).toMatchObject({ running: 2, waiting: 7 });
    // Each finished hash lets the next key in line go.
    for (const name of ['a1', 'a2', 'a3', 'b1', 'u1', 'a4', 'b2', 'a5', 'b3']) {
      work.get(name)!.finish();
      await sleep(1);
    }
    await Promise.all(all);
    expect(order).toEqual(['a1', 'a2', 'a3', 'b1', 'u1', 'a4', 'b2', 'a5', 'b3']);
    expect(gate.stats()).toEqual({ running: 0, waiting: 0, peakRunning: 2, refused: 0 });
  });

  it('refuses at once (503, Retry-After) a request whose turn would come too late, but not a newcomer from another address', async () => {
    const gate = createPasswordGate({ concurrency: 1, maxWaitMs: 200 });
    // One timed hash: the gate now expects about 60 ms a hash. (At 50 ms, four hashes sat on the 200 ms
    // boundary: a timer that fired a fraction early made them 199.6 ms, not over it.)
    await gate.run('a', () => sleep(60));
    const held = deferred();
    const running = gate.run('a', () => held.done);
    const queued = [1, 2, 3].map(() => gate.run('a', () => sleep(1)));
    queued.forEach((p) => p.catch(() => {}));
    // A fifth from the same address would wait about four hashes: refused before waiting.
    const started = performance.now();
    let refusal: unknown;
    try {
      gate.admit('a');
    } catch (error) {
      refusal = error;
    }
    expect(busy(refusal)).toBe(true);
    expect(performance.now() - started).toBeLessThan(20);
    // Another address is next in line after the one running.
    const other = gate.admit('b');
    held.finish();
    await running;
    await other.run(() => sleep(1));
    await Promise.allSettled(queued);
    expect(gate.stats().refused).toBeGreaterThanOrEqual(1);
  });

  it('refuses a request still waiting after maxWaitMs, and gives its place back', async () => {
    const gate = createPasswordGate({ concurrency: 1, maxWaitMs: 50 });
    const held = deferred();
    const running = gate.run('a', () => held.done);
    const late = gate.run('b', async () => 'ran');
    await expect(late).rejects.toSatisfy(busy);
    expect(gate.stats()).toMatchObject({ running: 1, waiting: 0, refused: 1 });
    held.finish();
    await running;
    expect(await gate.run('b', async () => 'ran')).toBe('ran');
  });

  it('a cancelled ticket never runs and holds no place, whether it was waiting or its turn had come', async () => {
    const gate = createPasswordGate({ concurrency: 1, maxWaitMs: 10_000 });
    const first = gate.admit('a');
    const second = gate.admit('b');
    first.cancel();
    second.cancel();
    await sleep(1);
    expect(gate.stats()).toMatchObject({ running: 0, waiting: 0 });
    expect(await gate.run('c', async () => 'ran')).toBe('ran');
  });
});
