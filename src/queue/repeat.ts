/**
 * Runs `pass` now, then again `intervalMs` after each pass ends (never two at once), until the returned
 * stop is called; stop waits for a pass under way. The dispatchers of outbound webhooks, GitHub Releases and
 * the CHANGELOG.md pull request run this way in the worker: a failed pass is reported and tried at the next tick.
 */
export function repeatPass(pass: () => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void = () => {}): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const tick = () => {
    if (stopped) return;
    running = pass()
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
