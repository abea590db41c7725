/**
 * The engine's in-memory directory of merchants, on lru-cache: a merchant is
 * kept `ttlMs` (a change made through another engine takes effect here within
 * that time), an unknown merchant_id, which anyone can send, only
 * `unknownTtlMs`, and at most `max` entries, the least recently used going
 * first. The cache holds the load's promise, so concurrent requests for one
 * merchant read the database once; a load that fails is forgotten at once.
 * `fresh` (a signature that did not verify: the secret may have been rotated
 * elsewhere) reloads, at most once per `freshEveryMs` per merchant, so bad
 * signatures cannot drive the database.
 */
import { LRUCache } from "lru-cache";

interface Entry<V> {
  loadedAt: number;
  value: Promise<V | undefined>;
}

export interface MerchantCacheOptions {
  ttlMs: number;
  unknownTtlMs?: number;
  max?: number;
  freshEveryMs?: number;
  /** The clock, for tests; performance.now() otherwise. */
  now?: () => number;
}

export class MerchantCache<V> {
  readonly #load: (id: string) => Promise<V | undefined>;
  readonly #lru: LRUCache<string, Entry<V>>;
  readonly #now: () => number;
  readonly #unknownTtlMs: number;
  readonly #freshEveryMs: number;

  constructor(load: (id: string) => Promise<V | undefined>, opts: MerchantCacheOptions) {
    this.#load = load;
    this.#now = opts.now ?? (() => performance.now());
    this.#unknownTtlMs = opts.unknownTtlMs ?? 1000;
    this.#freshEveryMs = opts.freshEveryMs ?? 1000;
    this.#lru = new LRUCache<string, Entry<V>>({
      max: opts.max ?? 10_000,
      ttl: opts.ttlMs,
      // Exact expiry on the given clock (the default caches the time for 1 ms).
      ttlResolution: 0,
      perf: { now: this.#now },
    });
  }

  get(id: string, opts: { fresh?: boolean } = {}): Promise<V | undefined> {
    const hit = this.#lru.get(id);
    if (hit && !(opts.fresh && this.#now() - hit.loadedAt >= this.#freshEveryMs)) return hit.value;
    const entry: Entry<V> = { loadedAt: this.#now(), value: this.#load(id) };
    this.#lru.set(id, entry);
    entry.value.then(
      (v) => {
        if (v !== undefined || this.#lru.peek(id) !== entry) return;
        const ttl = Math.min(this.#lru.getRemainingTTL(id), this.#unknownTtlMs);
        this.#lru.set(id, entry, { ttl });
      },
      () => {
        if (this.#lru.peek(id) === entry) this.#lru.delete(id);
      },
    );
    return entry.value;
  }

  /** Forgets a merchant this engine changed, so its next request reads the change. */
  invalidate(id: string): void {
    this.#lru.delete(id);
  }

  get size(): number {
    return this.#lru.size;
  }
}
