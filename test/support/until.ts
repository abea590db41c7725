/**
 * Waits for something the service does in the background (a worker, a probe):
 * calls `fn` every `everyMs` until it returns a value other than undefined or
 * false, for at most `ms`; then that value, or undefined when time ran out.
 */
export async function until<T>(fn: () => Promise<T | undefined | false>, ms = 5000, everyMs = 100): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) return undefined;
    await new Promise((res) => setTimeout(res, everyMs));
  }
}
