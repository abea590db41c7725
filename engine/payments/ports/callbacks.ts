/**
 * The callbacks a transaction owes its merchant's platform: one HTTP POST as
 * the sender makes it (callbacks/http-sender.ts implements `Send`), and the
 * log that the delivery worker claims and records in and operators read.
 */
import type { AttemptOutcome, CallbackKind, CallbackState } from "../../shared/callbacks.ts";
import type { Verdict } from "../domain/callbacks.ts";
import type { Tx } from "../../store/tx.ts";

/** One POST to a platform: its URL, body, headers and the whole call's timeout. */
export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** What one HTTP attempt produced. */
export interface SendResult {
  /** 0 when no reply arrived. */
  httpStatus: number;
  body: string;
  /** Why no usable reply: timeout, connection refused, redirect...; "" otherwise. */
  error: string;
  /** The address was refused by the SSRF guard: nothing was sent. */
  refusedAddress: boolean;
  /** The reply went on past the bound the sender reads (64 KiB): `body` is its beginning, the rest was never read. */
  cut?: boolean;
  durationMs: number;
}

/** Sends one POST; never throws: every failure is a SendResult with its reason. */
export type Send = (req: SendRequest) => Promise<SendResult>;

/** A due callback, claimed for one delivery attempt (`claim` fences the lease). */
export interface ClaimedCallback {
  id: number;
  eventId: string;
  kind: Exclude<CallbackKind, "validation">;
  merchantId: string;
  traceId: number;
  url: string;
  body: string;
  /** This attempt's number, from 1. */
  attempt: number;
  claim: string;
}

/** One delivery attempt, as operators read it. */
export interface CallbackAttemptView {
  at: Date;
  durationMs: number;
  httpStatus: number;
  responseBody: string;
  outcome: string;
  error: string;
}

/** A callback with its attempts, as operators read it. */
export interface CallbackView {
  id: number;
  eventId: string;
  kind: CallbackKind;
  state: CallbackState;
  merchantId: string;
  traceId: number;
  url: string;
  body: string;
  attemptCount: number;
  nextAttemptAt: Date;
  createdAt: Date;
  attempts: CallbackAttemptView[];
}

/** The operators' search of callbacks: every filter given must hold. */
export interface CallbackFilter {
  merchantId?: string;
  kind?: CallbackKind;
  state?: CallbackState;
  traceId?: number;
  /** Keyset cursor: only callbacks with a smaller id. */
  beforeId?: number;
  limit: number;
}

/** The callbacks that need an operator's eye: given up, refused, or still failing after `minAttempts`. */
export interface FailingFilter {
  merchantId?: string;
  minAttempts: number;
  /** Keyset cursor: only callbacks with a smaller id. */
  beforeId?: number;
  limit: number;
}

/**
 * How one claim shares the delivery slots among the merchants owed callbacks,
 * so that slow platforms hold their share and never every slot.
 */
export interface FairShare {
  /** This engine's free slots: the most the claim takes. */
  limit: number;
  /** Calls in flight at most to one merchant, over all engines (CASHIER_CALLBACK_MERCHANT_CONCURRENCY). */
  perMerchant: number;
  /** This engine's calls in flight at most, free or not (CASHIER_CALLBACK_CONCURRENCY): what the shares divide. */
  slots: number;
}

/** The callbacks a transaction owed, with every attempt: claimed and recorded by the delivery worker, read by operators. */
export interface CallbackLog {
  /**
   * Claims due callbacks for `leaseMs`, at most `share.limit`, each merchant
   * held to its fair share of the slots (store/callback-claim.ts has the rule).
   */
  claimDue(leaseMs: number, share: FairShare): Promise<ClaimedCallback[]>;
  recordAttempt(c: ClaimedCallback, r: SendResult, verdict: Verdict): Promise<void>;
  recordValidation(
    v: { merchantId: string; traceId: number; eventId: string; url: string; body: string; state: CallbackState; outcome: AttemptOutcome; error: string },
    r: SendResult,
  ): Promise<void>;
  /**
   * Newest first; reads a bounded number of callbacks per call: when the page
   * is short and more remain unread, `scannedTo` is the id to resume below.
   */
  list(f: CallbackFilter): Promise<{ rows: CallbackView[]; scannedTo?: number }>;
  /** Callbacks failed or refused, or pending after `minAttempts` tries, newest first. */
  failing(f: FailingFilter): Promise<CallbackView[]>;
  forTransaction(traceId: number): Promise<CallbackView[]>;
  get(id: number): Promise<CallbackView | undefined>;
  /** The callback as the redelivery left it (pending), or why it could not be made due. */
  redeliver(id: number, alongside?: (tx: Tx, after: CallbackView) => Promise<void>): Promise<CallbackView | "not-found" | "not-queued" | "in-flight">;
}
