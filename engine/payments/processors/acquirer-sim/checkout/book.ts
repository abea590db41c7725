/**
 * What the Checkout.com stand-in remembers of its payments and payouts,
 * rebuilt from the ledger's "cko.*" entries at start and kept up to date as
 * entries reach the disk. A payment is found by its id (pay_), its session
 * id (sid_, which the 3-D Secure redirect carries) or its reference.
 */
import type { Entry } from "../ledger.ts";
import type { CkoCode } from "./cards.ts";

export type CkoStatus = "Pending" | "Authorized" | "Captured" | "Declined" | "Paid" | "Partially Refunded" | "Refunded";

export interface CkoRefund {
  action_id: string;
  amount: number;
  reference?: string;
  at: number;
}

/** A payment (card sale) or a card payout, as decided; no card number, no CVV. */
export interface CkoPayment {
  /** The account's scope (accounts.ts). */
  scope: string;
  kind: "sale" | "payout";
  id: string;
  sid: string;
  /** The authorization's (or the payout's) action. */
  action_id: string;
  amount: number;
  currency: string;
  reference?: string;
  processing_channel_id?: string;
  metadata?: Record<string, unknown>;
  card: { bin: string; last4: string; expiry_month: number; expiry_year: number; scheme: string };
  /** Epoch ms of the request. */
  requested_on: number;
  status: CkoStatus;
  approved: boolean;
  /** The authorization's code; undefined while a 3-D Secure challenge is open. */
  response?: CkoCode;
  auth_code?: string;
  capture: boolean;
  /** The capture's action, once captured. */
  capture_action_id?: string;
  processed_on?: number;
  /** 3-D Secure: whether it was challenged, the customer's result, and what the authorization then answers. */
  three_ds?: { challenged: boolean; result?: "passed" | "failed"; after?: CkoCode };
  success_url?: string;
  failure_url?: string;
  /** payment_type MOTO (a mail or telephone order); absent: Regular. */
  moto?: boolean;
  refunds: CkoRefund[];
}

export type CkoEntry =
  | { t: "cko.payment"; p: CkoPayment }
  | { t: "cko.update"; scope: string; id: string; set: Partial<CkoPayment> }
  | { t: "cko.refund"; scope: string; id: string; refund: CkoRefund };

/** Refunded so far. */
export const refunded = (p: CkoPayment): number => p.refunds.reduce((n, r) => n + r.amount, 0);

export class CheckoutBook {
  readonly #byId = new Map<string, CkoPayment>();
  readonly #bySid = new Map<string, CkoPayment>();
  /** By session id alone: session ids are random and unique across accounts. */
  readonly #sessions = new Map<string, CkoPayment>();
  readonly #byReference = new Map<string, CkoPayment[]>();

  apply(entry: Entry): void {
    const e = entry as CkoEntry;
    if (e.t === "cko.payment") {
      const k = `${e.p.scope}/${e.p.id}`;
      if (this.#byId.has(k)) return;
      this.#byId.set(k, e.p);
      this.#bySid.set(`${e.p.scope}/${e.p.sid}`, e.p);
      this.#sessions.set(e.p.sid, e.p);
      if (e.p.reference !== undefined) {
        const r = `${e.p.scope}/${e.p.reference}`;
        this.#byReference.set(r, [...(this.#byReference.get(r) ?? []), e.p]);
      }
    } else if (e.t === "cko.update") {
      const p = this.#byId.get(`${e.scope}/${e.id}`);
      if (p) Object.assign(p, e.set);
    } else if (e.t === "cko.refund") {
      const p = this.#byId.get(`${e.scope}/${e.id}`);
      if (!p || p.refunds.some((r) => r.action_id === e.refund.action_id)) return;
      p.refunds.push(e.refund);
      p.status = refunded(p) >= p.amount ? "Refunded" : "Partially Refunded";
    }
  }

  /** By payment id (pay_) or session id (sid_). */
  find(scope: string, id: string): CkoPayment | undefined {
    return this.#byId.get(`${scope}/${id}`) ?? this.#bySid.get(`${scope}/${id}`);
  }

  /** The payments with this reference, newest first. */
  byReference(scope: string, reference: string): CkoPayment[] {
    return [...(this.#byReference.get(`${scope}/${reference}`) ?? [])].reverse();
  }

  /** The payment of a 3-D Secure session, whatever the account (the customer's browser carries no key). */
  bySession(sid: string): CkoPayment | undefined {
    return this.#sessions.get(sid);
  }
}
