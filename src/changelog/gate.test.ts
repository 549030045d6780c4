import { describe, expect, it } from 'vitest';
import { Gate } from './gate.js';

/** A batch that ends when told to. */
function controllable() {
  let finish!: (ok: boolean) => void;
  const done = new Promise<void>((resolve, reject) => (finish = (ok) => (ok ? resolve() : reject(new Error('batch failed')))));
  return { done, finish };
}

describe('Gate', () => {
  it('dispatches at once while slots are free, then one waiting batch per slot freed, in order', async () => {
    const gate = new Gate(2);
    const started: string[] = [];
    const batches = { a: controllable(), b: controllable(), c: controllable(), d: controllable() };
    const runs: Promise<unknown>[] = [];
    for (const name of ['a', 'b', 'c', 'd'] as const) {
      gate.enter(() => {
        started.push(name);
        runs.push(gate.run(() => batches[name].done).catch(() => undefined));
      });
    }
    expect(started).toEqual(['a', 'b']);
    expect([gate.inFlight, gate.waiting]).toEqual([2, 2]);

    batches.b.finish(true);
    await runs[1];
    expect(started).toEqual(['a', 'b', 'c']);
    expect([gate.inFlight, gate.waiting]).toEqual([2, 1]);

    // A failed batch frees its slot too.
    batches.a.finish(false);
    await runs[0];
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    batches.c.finish(true);
    batches.d.finish(true);
    await Promise.all(runs);
    expect([gate.inFlight, gate.waiting]).toEqual([0, 0]);
  });

  it('passes on what the batch returns or throws', async () => {
    const gate = new Gate(1);
    await expect(gate.run(async () => 42)).resolves.toBe(42);
    await expect(gate.run(async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(gate.inFlight).toBe(0);
  });
});
