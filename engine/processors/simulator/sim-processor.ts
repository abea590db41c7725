/**
 * A deterministic processor for integration without an acquirer. Its answers
 * follow the card table; its transaction ids carry what status() needs for
 * approved and pending ones (kind and creation time), so a restarted engine
 * gets the same answers there. What it keeps in memory (answers by trace_id
 * for find(), answered challenges) is lost with the process, as an acquirer
 * that never got the call would have no record of it.
 */
import { randomBytes } from "node:crypto";
import type { ChargeRequest, Processor, ProcessorOutcome, RefundRequest } from "../processor.ts";
import { PENDING_SECONDS, RETRY_CODE, behaviourOf } from "./cards.ts";

export class SimProcessor implements Processor {
  readonly name: string;
  readonly #now: () => number;
  /** What it answered, by trace_id, as an acquirer keeps its records (the latest 10,000). */
  readonly #answers = new Map<number, ProcessorOutcome>();
  /** Challenges the customer answered, by transaction id. */
  readonly #completed = new Map<string, ProcessorOutcome>();

  constructor(name: string, now: () => number = Date.now) {
    this.name = name;
    this.#now = now;
  }

  #id(tag: string): string {
    return `${this.name}-${tag}${Math.floor(this.#now())}-${randomBytes(6).toString("hex")}`;
  }

  #charge(req: ChargeRequest): ProcessorOutcome {
    const b = behaviourOf(req.card.number);
    switch (b.kind) {
      case "approve":
        return { kind: "approved", transactionId: this.#id("a") };
      case "decline":
        return { kind: "declined", transactionId: this.#id("d"), code: b.code, message: b.message };
      case "unavailable":
        return { kind: "unavailable", message: "Processor unavailable" };
      case "challenge":
        return { kind: "challenge", transactionId: this.#id("c") };
      case "pending":
        return { kind: "pending", transactionId: this.#id("p") };
      case "retry-unless":
        return b.approvedBy === this.name
          ? { kind: "approved", transactionId: this.#id("a") }
          : { kind: "retryable", transactionId: this.#id("r"), ...RETRY_CODE };
      case "retry-always":
        return { kind: "retryable", transactionId: this.#id("r"), ...RETRY_CODE };
    }
  }

  #keep(traceId: number, outcome: ProcessorOutcome): ProcessorOutcome {
    this.#answers.set(traceId, outcome);
    if (this.#answers.size > 10_000) this.#answers.delete(this.#answers.keys().next().value!);
    return outcome;
  }

  async authorize(req: ChargeRequest): Promise<ProcessorOutcome> {
    return this.#keep(req.traceId, this.#charge(req));
  }

  async find(traceId: number): Promise<ProcessorOutcome> {
    const kept = this.#answers.get(traceId);
    if (!kept) return { kind: "unavailable", message: "The processor has no record of this attempt" };
    return kept.kind === "pending" ? this.status(kept.transactionId) : kept;
  }

  async payout(req: ChargeRequest): Promise<ProcessorOutcome> {
    const outcome = this.#charge(req);
    // A payout has no customer challenge and no cascade: those cards simply approve.
    if (outcome.kind === "challenge" || outcome.kind === "retryable") return this.#keep(req.traceId, { kind: "approved", transactionId: this.#id("a") });
    return this.#keep(req.traceId, outcome);
  }

  async refund(req: RefundRequest): Promise<ProcessorOutcome> {
    if (!req.saleTransactionId.startsWith(`${this.name}-`)) {
      return this.#keep(req.traceId, {
        kind: "declined",
        transactionId: this.#id("d"),
        code: "12",
        message: "Invalid transaction: sale unknown to this processor",
      });
    }
    return this.#keep(req.traceId, { kind: "approved", transactionId: this.#id("a") });
  }

  async complete(transactionId: string, passed: boolean): Promise<ProcessorOutcome> {
    const outcome: ProcessorOutcome = passed
      ? { kind: "approved", transactionId }
      : { kind: "declined", transactionId, code: "05", message: "3-D Secure authentication failed" };
    this.#completed.set(transactionId, outcome);
    if (this.#completed.size > 10_000) this.#completed.delete(this.#completed.keys().next().value!);
    return outcome;
  }

  async status(transactionId: string): Promise<ProcessorOutcome> {
    const m = new RegExp(`^${this.name}-([a-z])(\\d+)-`).exec(transactionId);
    if (!m) return { kind: "unknown", transactionId, message: "unknown transaction id" };
    const [, tag, created] = m;
    if (tag === "p") {
      return this.#now() - Number(created) >= PENDING_SECONDS * 1000 ? { kind: "approved", transactionId } : { kind: "pending", transactionId };
    }
    if (tag === "a") return { kind: "approved", transactionId };
    if (tag === "c") return this.#completed.get(transactionId) ?? { kind: "challenge", transactionId };
    return { kind: "unknown", transactionId, message: "no status kept for this attempt" };
  }
}
