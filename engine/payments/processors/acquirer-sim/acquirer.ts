/**
 * What the simulated acquirers behind sim-a and sim-b answer, as HTTP status
 * and JSON body, from the card table (cards.ts) and the durable ledger. Every
 * payment request carries an idempotency key: a repeat gets the recorded
 * answer, and a key that a lookup found unseen is fenced, so the request, if
 * it arrives late, is refused and can never be taken after Cashier settled it.
 * Requests on one key take turns (KeyLock): an answer is given only once its
 * entry is on disk, and the next request on that key decides after it.
 */
import { randomBytes } from "node:crypto";
import { PENDING_SECONDS, RETRY_CODE, behaviourOf } from "./cards.ts";
import type { Answer } from "./http.ts";
import { KeyLock } from "./key-lock.ts";
import type { Ledger } from "./ledger.ts";
import type { Payment, SimBook } from "./sim-book.ts";

export type { Answer };

export interface PaymentRequest {
  operation: Payment["operation"];
  amount: number;
  currency: string;
  /** Absent only on a refund, which its sale decides (one made in the Backoffice has no card number). */
  card?: { number: string; expiry: string; cvv?: string };
  /** A refund's sale, by this acquirer's payment id. */
  original_payment_id?: string;
  /** A sale's channel: "ecommerce" (absent) or "moto", a mail or telephone order, which is never challenged. */
  channel?: "ecommerce" | "moto";
}

const OPERATIONS: ReadonlySet<string> = new Set(["sale", "payout", "refund"]);

/** The request's first fault, by field, or undefined. */
export function invalidField(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return "body";
  const b = body as Record<string, unknown>;
  if (typeof b.operation !== "string" || !OPERATIONS.has(b.operation)) return "operation";
  if (!Number.isSafeInteger(b.amount) || (b.amount as number) <= 0) return "amount";
  if (b.channel !== undefined && (b.operation !== "sale" || (b.channel !== "ecommerce" && b.channel !== "moto"))) return "channel";
  if (typeof b.currency !== "string" || !/^[A-Z]{3}$/.test(b.currency)) return "currency";
  // A refund is decided by its sale (original_payment_id): its card, when sent, is checked as any other.
  if (b.operation === "refund" && b.card === undefined) return typeof b.original_payment_id === "string" ? undefined : "original_payment_id";
  const card = b.card as Record<string, unknown> | undefined;
  if (typeof card !== "object" || card === null || typeof card.number !== "string" || !/^\d{12,19}$/.test(card.number)) return "card.number";
  if (typeof card.expiry !== "string") return "card.expiry";
  if (b.operation === "refund" && typeof b.original_payment_id !== "string") return "original_payment_id";
  return undefined;
}

type Decided = Pick<Payment, "status" | "code" | "message"> & { tag: string | null };

const approve: Decided = { status: "approved", code: null, message: null, tag: "a" };

/** The card table, for one acquirer and operation (a refund is decided by its sale, not its card). */
function decideCard(acquirer: string, operation: Payment["operation"], cardNumber: string, moto: boolean): Decided {
  const b = behaviourOf(cardNumber);
  const retry: Decided = { status: "declined", code: RETRY_CODE.code, message: RETRY_CODE.message, tag: "r" };
  switch (b.kind) {
    case "approve":
      return approve;
    case "decline":
      return { status: "declined", code: b.code, message: b.message, tag: "d" };
    case "unavailable":
      return { status: "failed", code: null, message: "Processor unavailable", tag: null };
    case "pending":
      return { status: "pending", code: null, message: null, tag: "p" };
    // A payout has no customer challenge and no cascade: a card that a cascade
    // would end approved simply approves, and one that every processor declines
    // (4000000000000341) answers retry there too, which a payout's one attempt
    // turns into declined (J), the end the card table promises.
    // A MOTO sale has no customer at a browser to challenge: the card approves, as on a payout.
    case "challenge":
      return operation === "payout" || moto ? approve : { status: "action_required", code: null, message: null, tag: "c" };
    case "retry-unless":
      return operation === "payout" || b.approvedBy === acquirer ? approve : retry;
    case "retry-always":
      return retry;
  }
}

export class Acquirers {
  readonly #ledger: Ledger;
  readonly #book: SimBook;
  readonly #now: () => number;
  readonly #keys = new KeyLock();

  constructor(ledger: Ledger, book: SimBook, now: () => number = Date.now) {
    this.#ledger = ledger;
    this.#book = book;
    this.#now = now;
  }

  /** The payment as the acquirer shows it now: a pending one turns approved after PENDING_SECONDS. */
  view(p: Payment): Record<string, unknown> {
    let { status, code, message } = p;
    if (status === "pending" && this.#now() - p.at >= PENDING_SECONDS * 1000) status = "approved";
    if (status === "action_required" && p.challenge === "passed") status = "approved";
    if (status === "action_required" && p.challenge === "failed") {
      status = "declined";
      code = "05";
      message = "3-D Secure authentication failed";
    }
    return { id: p.id, idempotency_key: p.key, operation: p.operation, status, code, message };
  }

  pay(acquirer: string, key: string, req: PaymentRequest): Promise<Answer> {
    return this.#keys.run(`${acquirer}/${key}`, () => this.#pay(acquirer, key, req));
  }

  async #pay(acquirer: string, key: string, req: PaymentRequest): Promise<Answer> {
    const seen = this.#book.byKey.get(`${acquirer}/${key}`);
    if (seen === "fenced") return { http: 409, body: { error: "idempotency_key_fenced", message: "a lookup found this key unseen; the request is refused" } };
    if (seen) return { http: 200, body: this.view(seen) };
    let decided: Decided;
    if (req.operation === "refund") {
      const sale = this.#book.byId.get(`${acquirer}/${req.original_payment_id}`);
      decided =
        sale?.operation === "sale" && this.view(sale).status === "approved"
          ? approve
          : { status: "declined", code: "12", message: "Invalid transaction: sale unknown to this processor", tag: "d" };
    } else {
      decided = decideCard(acquirer, req.operation, req.card?.number ?? "", req.channel === "moto");
    }
    const at = this.#now();
    const id = decided.tag === null ? null : `${acquirer}-${decided.tag}${Math.floor(at)}-${randomBytes(6).toString("hex")}`;
    const p: Payment = { acquirer, key, id, operation: req.operation, status: decided.status, code: decided.code, message: decided.message, at };
    await this.#ledger.append({ t: "payment", p });
    return { http: 200, body: this.view(p) };
  }

  /** A lookup by idempotency key; an unseen key is fenced (durably) before "not found" is answered. */
  lookupByKey(acquirer: string, key: string): Promise<Answer> {
    return this.#keys.run(`${acquirer}/${key}`, () => this.#lookupByKey(acquirer, key));
  }

  async #lookupByKey(acquirer: string, key: string): Promise<Answer> {
    const seen = this.#book.byKey.get(`${acquirer}/${key}`);
    if (seen === "fenced") return { http: 404, body: { error: "not_found", fenced: true } };
    if (seen) return { http: 200, body: this.view(seen) };
    await this.#ledger.append({ t: "fence", acquirer, key, at: this.#now() });
    return { http: 404, body: { error: "not_found", fenced: true } };
  }

  lookupById(acquirer: string, id: string): Answer {
    const p = this.#book.byId.get(`${acquirer}/${id}`);
    return p ? { http: 200, body: this.view(p) } : { http: 404, body: { error: "not_found" } };
  }

  /** The customer's 3-D Secure result; the first one given stands. */
  async completeChallenge(acquirer: string, id: string, passed: boolean): Promise<Answer> {
    const p = this.#book.byId.get(`${acquirer}/${id}`);
    if (p?.status !== "action_required") return { http: 404, body: { error: "not_found" } };
    if (!p.challenge) await this.#ledger.append({ t: "challenge", acquirer, id, passed });
    return { http: 200, body: this.view(p) };
  }
}
