/**
 * The acquirer simulator's durable record of what it answered, as an acquirer
 * keeps one: an append-only JSON-lines file, each answer written and fsync'ed
 * before it is sent (group commit: the lines that arrive while one fdatasync
 * runs share the next one). Read back whole at start, so a restarted simulator
 * answers lookups exactly as before. It holds no card number and no CVV
 * (CONTRACT section 8): only what was decided.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";

/** One payment the simulator answered. `status` is its first answer; `final` what it became (3-D Secure). */
export interface Payment {
  acquirer: string;
  /** The caller's idempotency key (Cashier's trace_id). */
  key: string;
  /** Null when nothing was taken (the "processor unavailable" card). */
  id: string | null;
  operation: "sale" | "payout" | "refund";
  status: "approved" | "declined" | "pending" | "action_required" | "failed";
  code: string | null;
  message: string | null;
  /** Epoch ms when it was answered; a pending one turns approved PENDING_SECONDS later. */
  at: number;
  /** The customer's 3-D Secure result, once given. */
  challenge?: "passed" | "failed";
}

export type Entry =
  | { t: "payment"; p: Payment }
  | { t: "fence"; acquirer: string; key: string; at: number }
  | { t: "challenge"; acquirer: string; id: string; passed: boolean };

export class Ledger {
  readonly #file: string;
  #fd: FileHandle | undefined;
  /** By acquirer and idempotency key: a payment, or "fenced" (never taken; a late request is refused). */
  readonly byKey = new Map<string, Payment | "fenced">();
  /** By acquirer and payment id. */
  readonly byId = new Map<string, Payment>();
  #queue: { line: string; done: (err?: Error) => void }[] = [];
  #flushing = false;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#file = join(dir, "ledger.jsonl");
    let text = "";
    try {
      text = readFileSync(this.#file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    for (const line of text.split("\n")) {
      // A torn last line (a crash mid-write) was never acknowledged: skip it.
      if (line.trim() === "") continue;
      try {
        this.#apply(JSON.parse(line) as Entry);
      } catch {}
    }
  }

  async open(): Promise<void> {
    this.#fd = await open(this.#file, "a", 0o600);
  }

  async close(): Promise<void> {
    while (this.#flushing || this.#queue.length > 0) await new Promise((r) => setTimeout(r, 5));
    await this.#fd?.close();
    this.#fd = undefined;
  }

  /** Applies the entry in memory and resolves once it is on disk. */
  append(entry: Entry): Promise<void> {
    this.#apply(entry);
    return new Promise((resolve, reject) => {
      this.#queue.push({ line: `${JSON.stringify(entry)}\n`, done: (err) => (err ? reject(err) : resolve()) });
      if (!this.#flushing) void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    this.#flushing = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      try {
        if (!this.#fd) throw new Error("the ledger is closed");
        await this.#fd.write(batch.map((b) => b.line).join(""));
        await this.#fd.datasync();
        for (const b of batch) b.done();
      } catch (err) {
        for (const b of batch) b.done(err as Error);
      }
    }
    this.#flushing = false;
  }

  #apply(e: Entry): void {
    if (e.t === "payment") {
      this.byKey.set(`${e.p.acquirer}/${e.p.key}`, e.p);
      if (e.p.id) this.byId.set(`${e.p.acquirer}/${e.p.id}`, e.p);
    } else if (e.t === "fence") {
      if (!this.byKey.has(`${e.acquirer}/${e.key}`)) this.byKey.set(`${e.acquirer}/${e.key}`, "fenced");
    } else {
      const p = this.byId.get(`${e.acquirer}/${e.id}`);
      if (p) p.challenge = e.passed ? "passed" : "failed";
    }
  }
}
