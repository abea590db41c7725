/**
 * A processor's answer, classified, and what it does to an attempt: the pure
 * decision table from (transaction type, outcome, is-last-in-cascade) to the
 * next state, deposit state and decline code.
 */
import { ERROR_CODES } from "../../shared/errors.ts";
import type { State } from "./transitions.ts";
import type { DepositState, TransactionType } from "../../shared/transaction.ts";

export type ProcessorOutcome =
  | { kind: "approved"; transactionId: string }
  /**
   * `threeDsFailed`: the acquirer's code says the cardholder failed 3-D Secure (Checkout.com's 20151, Adyen's
   * "3D Not Authenticated"): Cashier's own THREE_DS_FAILED, as for the simulators' check, with the acquirer's code kept.
   */
  | { kind: "declined"; transactionId: string; code: string; message: string; threeDsFailed?: boolean }
  | { kind: "retryable"; transactionId: string; code: string; message: string; threeDsFailed?: boolean }
  /**
   * Not taken. `mayArriveLate`: a "no record" from a processor that cannot fence
   * the attempt, so a request still in flight may yet be taken: believed only
   * past the schedule's no-record horizon. A processor that fences (a lookup of
   * an unseen key refuses that key for good) answers without it: final at once.
   * `notSent`: the request never left (no connection to the acquirer could be
   * made), so a sale may go on to the cascade's next account; a processor's own
   * "unavailable" answer (CONTRACT 4's card ...0119) ends it.
   */
  | { kind: "unavailable"; message: string; mayArriveLate?: boolean; notSent?: boolean }
  | { kind: "pending"; transactionId: string }
  /**
   * The customer must pass 3-D Secure. `redirectUrl`: the acquirer's own page
   * (a real acquirer's challenge); without it, the simulators' challenge page.
   */
  | { kind: "challenge"; transactionId: string; redirectUrl?: string }
  | { kind: "unknown"; transactionId: string; message: string };

export interface Decision {
  /** The state the attempt moves to; undefined: it stays where it is. */
  to: State | undefined;
  depositState: DepositState | null;
  transactionId: string | null;
  errorCode: number | null;
  errorDetails: string | null;
  /** The processor's own code of a decline, kept as it came ("05", "R1"). */
  processorCode?: string | null;
  /** The processor has not answered finally (pending, unknown): ask it again later. */
  awaitsProcessor?: boolean;
  cause: string;
  /** Where the customer must go (3-D Secure); set by the use case, which knows the public URL. */
  redirectUrl?: string | null;
  /** A real acquirer's own challenge page, where Cashier's page (redirectUrl) sends the customer on. */
  acquirerRedirectUrl?: string | null;
}

/** "05" -> 5; "R1" -> PROCESSOR_DECLINED_OTHER with the code kept in the details. */
export function declineCode(code: string): number {
  return /^\d{1,2}$/.test(code) ? Number(code) : ERROR_CODES.PROCESSOR_DECLINED_OTHER;
}

const none = { depositState: null, errorCode: null, errorDetails: null } as const;

/** A decision without a processor's answer: an operator's, the platform's, the clock's. */
export function step(to: Decision["to"], cause: string, extra: Partial<Decision> = {}): Decision {
  return { to, depositState: null, transactionId: null, errorCode: null, errorDetails: null, cause, ...extra };
}

/** Where a failed attempt of this type ends: declined, and J for a payout. */
export function failedState(type: TransactionType): State {
  return type === "payout" ? { status: "declined", letter: "J" } : { status: "declined" };
}

/**
 * What an outcome does to an attempt. For payouts the attempt is at pending:P
 * when the processor answers.
 */
export function decide(type: TransactionType, outcome: ProcessorOutcome, lastInCascade: boolean): Decision {
  const cause = `processor:${outcome.kind}`;
  // An empty id (a call that timed out) is no id: it must not wipe one already stored.
  const txId = "transactionId" in outcome && outcome.transactionId ? outcome.transactionId : null;
  const ok: State = type === "payout" ? { status: "approved", letter: "Y" } : { status: "approved" };
  const failed = failedState(type);
  // N and E are deposit states: only a failed sale carries one.
  const n: DepositState | null = type === "sale" ? "N" : null;
  const e: DepositState | null = type === "sale" ? "E" : null;
  switch (outcome.kind) {
    case "approved":
      return { to: ok, ...none, transactionId: txId, cause };
    case "declined":
    case "retryable": {
      const decline = {
        transactionId: txId,
        errorCode: outcome.threeDsFailed ? ERROR_CODES.THREE_DS_FAILED : declineCode(outcome.code),
        errorDetails: `${outcome.code} ${outcome.message}`,
        processorCode: outcome.code,
        cause,
      };
      // The cascade's cue: the next processor takes over, unless this was the last.
      if (outcome.kind === "retryable" && type === "sale" && !lastInCascade) return { to: { status: "declined_retry" }, depositState: null, ...decline };
      return { to: failed, depositState: n, ...decline };
    }
    case "unavailable":
      // Nothing reached the acquirer: the cascade's next account may take the sale (the refusal kept as its details).
      if (outcome.notSent && type === "sale" && !lastInCascade)
        return {
          to: { status: "declined_retry" },
          depositState: null,
          transactionId: null,
          errorCode: ERROR_CODES.PROCESSOR_UNAVAILABLE,
          errorDetails: outcome.message,
          cause,
        };
      return { to: failed, depositState: e, transactionId: null, errorCode: ERROR_CODES.PROCESSOR_UNAVAILABLE, errorDetails: outcome.message, cause };
    case "challenge":
      return type === "sale"
        ? { to: { status: "pending_async" }, ...none, transactionId: txId, cause }
        : { to: undefined, ...none, transactionId: txId, cause };
    case "pending":
    case "unknown":
      return { to: undefined, ...none, transactionId: txId, cause, awaitsProcessor: true };
  }
}
