/**
 * First-come, first-served turn on the embedded database's single session. The query builder,
 * raw SQL (pg-boss, migrations) and clients connected through the server's socket all take their
 * turn here, so a transaction owns the session from BEGIN to COMMIT and nobody else's statement
 * lands inside it.
 */
export class SessionLock {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves once it is the caller's turn, with the function that ends the turn. */
  async acquire(): Promise<() => void> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
