/**
 * What the simulated acquirers behind sim-a and sim-b remember, rebuilt from
 * the ledger's entries at start and kept up to date as entries reach the
 * disk. The entries' shape ("payment", "fence", "challenge") is the ledger's
 * format since the simulator's first version: older ledgers read back as is.
 */
import type { Entry } from "./ledger.ts";

/** One payment the simulator answered. `status` is its first answer; `challenge` what the customer did (3-D Secure). */
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

export type SimEntry =
  | { t: "payment"; p: Payment }
  | { t: "fence"; acquirer: string; key: string; at: number }
  | { t: "challenge"; acquirer: string; id: string; passed: boolean };

export class SimBook {
  /** By acquirer and idempotency key: a payment, or "fenced" (never taken; a late request is refused). */
  readonly byKey = new Map<string, Payment | "fenced">();
  /** By acquirer and payment id. */
  readonly byId = new Map<string, Payment>();

  /** Takes the ledger's sim entries; the first word on a key or a challenge stands. */
  apply(entry: Entry): void {
    const e = entry as SimEntry;
    if (e.t === "payment") {
      const k = `${e.p.acquirer}/${e.p.key}`;
      if (typeof this.byKey.get(k) === "object") return;
      this.byKey.set(k, e.p);
      if (e.p.id) this.byId.set(`${e.p.acquirer}/${e.p.id}`, e.p);
    } else if (e.t === "fence") {
      if (!this.byKey.has(`${e.acquirer}/${e.key}`)) this.byKey.set(`${e.acquirer}/${e.key}`, "fenced");
    } else if (e.t === "challenge") {
      const p = this.byId.get(`${e.acquirer}/${e.id}`);
      if (p && !p.challenge) p.challenge = e.passed ? "passed" : "failed";
    }
  }
}
