/**
 * At most `limit` batches in flight; a batch ready to go waits its turn, and keeps taking in
 * requests while it waits (DataLoader adds to a batch until it is dispatched). As in a group commit,
 * the busier the server, the more each statement carries.
 */
export class Gate {
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Dispatches now if a slot is free, else when one frees up. */
  enter(dispatch: () => void): void {
    if (this.#inFlight < this.limit) dispatch();
    else this.#waiting.push(dispatch);
  }

  /** Runs a dispatched batch in its slot, which frees (and passes to the next batch) however it ends. */
  async run<T>(batch: () => Promise<T>): Promise<T> {
    this.#inFlight++;
    try {
      return await batch();
    } finally {
      this.#inFlight--;
      this.#waiting.shift()?.();
    }
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    return this.#waiting.length;
  }
}
