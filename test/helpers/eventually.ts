/**
 * Reads until `ok` holds or about a second has passed (the contract's bound for a change to be
 * visible: change notifications reach the cache a moment after the commit); returns the last read.
 */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 50 && !ok(value); i++) {
    await new Promise((r) => setTimeout(r, 20));
    value = await read();
  }
  return value;
}
