/**
 * One request at a time per key (an idempotency key, a payment): the ledger
 * applies an entry only once it is on disk, so a second request for the same
 * key must not decide while the first one's entry is still being written.
 * sim-a and sim-b make the second wait; Checkout.com and Adyen refuse it, as
 * they document for concurrent requests with one idempotency key.
 */
export class KeyLock {
  readonly #held = new Map<string, Promise<unknown>>();

  /** Whether a request holds the key now. */
  busy(key: string): boolean {
    return this.#held.has(key);
  }

  /** Runs `fn` once every earlier holder of the key is done. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    while (this.#held.has(key)) await this.#held.get(key)?.catch(() => {});
    const running = fn();
    this.#held.set(key, running);
    try {
      return await running;
    } finally {
      if (this.#held.get(key) === running) this.#held.delete(key);
    }
  }

  /** Runs `fn` if nobody holds the key; undefined (and `fn` not run) if somebody does. */
  async tryRun<T>(key: string, fn: () => Promise<T>): Promise<T | undefined> {
    if (this.#held.has(key)) return undefined;
    return this.run(key, fn);
  }
}
