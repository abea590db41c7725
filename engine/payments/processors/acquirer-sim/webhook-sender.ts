/**
 * The simulator's acquirer webhooks, as the acquirers send theirs: an event
 * is written to the ledger in the same write as the change it reports
 * (signed then, so the ledger holds signatures, never secrets), and sent
 * once that write is on disk, with retries and a growing pause until the
 * receiver acknowledges it (Checkout.com: any 2xx; Adyen: a 2xx whose body
 * says "[accepted]"); the acknowledgement is written too. After a restart the
 * events not yet acknowledged are sent again. Events to one URL go one at a
 * time, in the order they were written.
 */
import type { Entry, Ledger, LedgerLog } from "./ledger.ts";

/** An event to deliver, as the ledger keeps it. */
export interface WebhookEntry extends Entry {
  t: "webhook";
  id: string;
  url: string;
  headers: Record<string, string>;
  /** The raw body, exactly as signed. */
  body: string;
  /** What acknowledges it: any 2xx, or a 2xx with "[accepted]" in its body (Adyen). */
  expect: "2xx" | "accepted";
}

export interface WebhookDeliveredEntry extends Entry {
  t: "webhook.delivered";
  id: string;
  at: number;
}

export interface WebhookTiming {
  /** Before the first attempt (the API answer goes out first). */
  firstDelayMs: number;
  /** The pause after a failed attempt doubles up to this. */
  maxDelayMs: number;
  /** One attempt's time limit. */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_TIMING: WebhookTiming = { firstDelayMs: 500, maxDelayMs: 60_000, timeoutMs: 10_000 };

interface Queue {
  events: WebhookEntry[];
  running: boolean;
}

export class WebhookSender {
  readonly #ledger: Ledger;
  readonly #timing: WebhookTiming;
  readonly #log: LedgerLog;
  readonly #now: () => number;
  readonly #queues = new Map<string, Queue>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #aborts = new Set<AbortController>();
  #started = false;
  #closed = false;

  constructor(ledger: Ledger, opts: { timing?: Partial<WebhookTiming>; log: LedgerLog; now?: () => number }) {
    this.#ledger = ledger;
    this.#timing = { ...DEFAULT_WEBHOOK_TIMING, ...opts.timing };
    this.#log = opts.log;
    this.#now = opts.now ?? Date.now;
  }

  /** Takes the ledger's webhook entries: a new event joins its URL's queue, an acknowledgement removes one. */
  apply(entry: Entry): void {
    if (entry.t === "webhook") {
      const e = entry as WebhookEntry;
      const q = this.#queues.get(e.url) ?? { events: [], running: false };
      this.#queues.set(e.url, q);
      if (!q.events.some((x) => x.id === e.id)) q.events.push(e);
      if (this.#started) this.#kick(e.url, this.#timing.firstDelayMs);
    } else if (entry.t === "webhook.delivered") {
      const id = (entry as WebhookDeliveredEntry).id;
      for (const q of this.#queues.values()) q.events = q.events.filter((x) => x.id !== id);
    }
  }

  /** Starts sending what the ledger holds unacknowledged (after it was read back). */
  start(): void {
    this.#started = true;
    for (const url of this.#queues.keys()) this.#kick(url, this.#timing.firstDelayMs);
  }

  /** Events written but not acknowledged yet, oldest first (tests wait on it). */
  pending(): WebhookEntry[] {
    return [...this.#queues.values()].flatMap((q) => q.events);
  }

  close(): void {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    for (const a of this.#aborts) a.abort();
  }

  #kick(url: string, delayMs: number): void {
    const q = this.#queues.get(url);
    if (!q || q.running || q.events.length === 0 || this.#closed) return;
    q.running = true;
    this.#later(delayMs, () => void this.#drain(url, q, 0));
  }

  #later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.#timers.add(t);
  }

  async #drain(url: string, q: Queue, failures: number): Promise<void> {
    if (this.#closed) return;
    const e = q.events[0];
    if (!e) {
      q.running = false;
      return;
    }
    if (await this.#attempt(e)) {
      q.events = q.events.filter((x) => x.id !== e.id);
      if (this.#closed) return;
      // At least once: if the acknowledgement cannot be written, a restart sends the event again.
      await this.#ledger.append({ t: "webhook.delivered", id: e.id, at: this.#now() } satisfies WebhookDeliveredEntry).catch(() => {});
      return this.#drain(url, q, 0);
    }
    const pause = Math.min(this.#timing.firstDelayMs * 2 ** failures, this.#timing.maxDelayMs);
    this.#later(pause, () => void this.#drain(url, q, failures + 1));
  }

  async #attempt(e: WebhookEntry): Promise<boolean> {
    const abort = new AbortController();
    this.#aborts.add(abort);
    const timer = setTimeout(() => abort.abort(), this.#timing.timeoutMs);
    try {
      const res = await fetch(e.url, { method: "POST", headers: { "content-type": "application/json", ...e.headers }, body: e.body, signal: abort.signal });
      const text = await res.text();
      const ok = res.status >= 200 && res.status < 300 && (e.expect === "2xx" || text.includes("[accepted]"));
      if (!ok) this.#log.warn({ event: e.id, url: e.url, status: res.status }, "webhook not acknowledged; it will be sent again");
      return ok;
    } catch (err) {
      if (!this.#closed) this.#log.warn({ event: e.id, url: e.url, err: (err as Error).message }, "webhook not delivered; it will be sent again");
      return false;
    } finally {
      clearTimeout(timer);
      this.#aborts.delete(abort);
    }
  }
}
