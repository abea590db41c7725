/**
 * What the use cases need from the outside world, as interfaces. The store,
 * the processors and the clock plug in here; tests may pass real ones over a
 * real Postgres.
 */
import type { Attempt, CustomerInput, FrontendView, StatusChange, TransactionStatus, TransactionType } from "../../shared/transaction.ts";
import type { Decision } from "../domain/outcome.ts";
import type { State } from "../domain/transitions.ts";
import type { ProcessorRegistry } from "../processors/registry.ts";
import type { FrontendSettings } from "../domain/frontend-settings.ts";
import type { Keys } from "../../security/keys.ts";
import type { AttemptOutcome, CallbackKind, CallbackState, Verdict } from "../domain/callbacks.ts";
import type { SendResult } from "../callbacks/http-sender.ts";
import type { Send } from "../callbacks/http-sender.ts";
import type { KeyObject } from "node:crypto";
import type { Schedule } from "../app/schedule.ts";
import type { Clock } from "../../shared/runtime/clock.ts";
import type { EntityManager } from "@mikro-orm/postgresql";

/** A merchant's settings (CONTRACT section 1), as every part of the engine reads them. */
export interface MerchantSettingsView {
  siteId: number | null;
  platformUrl: string | null;
  validationUrl: string | null;
  updatePayoutUrl: string | null;
  updatePayoutStatuses: string;
  payoutApproval: "auto" | "manual";
  processors: string[];
  frontends: FrontendWithSettings[];
}

/** A frontend with what shapes its hosted Cashier (CONTRACT 9). */
export interface FrontendWithSettings extends FrontendView {
  settings: FrontendSettings;
}

/** A merchant's account at a processor (decision 0007); the API key opened only in memory. */
export interface ProcessorAccount {
  processor: string;
  enabled: boolean;
  url: string;
  apiKey: string;
  settings: Record<string, unknown>;
}

export interface Merchant extends MerchantSettingsView {
  id: string;
  /** Accounts by processor; a processor without one uses the engine's own connector. */
  processorAccounts: ProcessorAccount[];
  /** Current secret, opened into a key: only ever used to sign and verify. */
  signingKey: KeyObject;
  /** The secret before the last rotation, still accepted on requests until previousKeyExpiresAt. */
  previousKey: KeyObject | null;
  previousKeyExpiresAt: Date | null;
}

export interface MerchantDirectory {
  /** A merchant, possibly cached for a few seconds; `fresh` reads the database. */
  get(merchantId: string, opts?: { fresh?: boolean }): Promise<Merchant | undefined>;
}

export interface OrderDraft {
  merchantId: string;
  orderId: string;
  type: TransactionType;
  fingerprint: string;
  amountMinor: number;
  currency: string;
  frontend: string;
  pin: string;
  customer: CustomerInput;
  cardMasked: string;
  cardBrand: string;
  cardExpiry: string;
  cardFingerprint: string;
  returnUrl: string;
  notificationUrl: string | null;
  referenceTraceId: number | null;
  processor: string;
  initial: State;
  /** Who made the order and, for the hosted Cashier, in which session (absent: Process, `api`). */
  origin?: OrderOriginRecord;
}

/** What an order keeps of who made it (payment_order.created_by, session_ref, sc_order_id, udef1, udef2). */
export interface OrderOriginRecord {
  createdBy: string;
  sessionRef: number | null;
  scOrderId: string | null;
  udef1: string | null;
  udef2: string | null;
}

/**
 * A repeat (`created: false`) carries the order's latest attempt and its first, the one the original call answered
 * (they differ after a cascade).
 */
export type CreateOrderResult =
  | { created: true; attempt: Attempt }
  | { created: false; fingerprint: string; attempt: Attempt; first: Attempt }
  /** A platform's order under the order_id of a hosted Cashier withdrawal session: nothing was made. */
  | { created: false; withdrawalSession: true };

/** A sale that a refund may name. */
export interface RefundableSale {
  traceId: number;
  status: TransactionStatus;
  currency: string;
  amountMinor: number;
  processor: string;
  transactionId: string | null;
  /** Keyed fingerprint of the sale's card: a refund goes back to the same card. */
  cardFingerprint: string;
}

/** A callback owed by a change, written with it (the outbox). */
export interface OutboxEntry {
  eventId: string;
  kind: Exclude<CallbackKind, "validation">;
  merchantId: string;
  url: string;
  body: string;
  /** Written only if a repeated request already told the platform the state before this change. */
  ifReplied?: boolean;
}

export interface ApplyExtras {
  callbacks: OutboxEntry[];
  /** Seal (a sealed string) or clear (null) the order's card number; undefined leaves it. */
  card?: { sealed: string | null };
  /** When the follow-up worker should look at the attempt again; null: never. */
  nextCheckAt: Date | null;
  challengeExpiresAt?: Date | null;
  submitted?: boolean;
  /** Create the cascade's next attempt on this processor. */
  cascadeProcessor?: string | null;
  /** Written in the change's own database transaction, once it applied: both commit, or neither (see `Alongside`). */
  alongside?: Alongside;
}

/**
 * More writes in a status change's own database transaction, after the change
 * itself (an operator's audit row): `after` is the attempt as the change left
 * it. If it throws, the change is rolled back. It must be the change's last
 * statement (the audit chain's lock is then held only until the commit).
 */
export type Alongside = (tx: EntityManager, after: Attempt) => Promise<void>;

export interface ApplyResult {
  applied: boolean;
  attempt: Attempt;
  /** The cascade's next attempt, when one was created. */
  nextTraceId: number | null;
}

/**
 * A position in a search's order (newest order first, an order's attempts
 * latest first): the order's creation time as Postgres prints it (exact to the
 * microsecond, which a Date is not), its id and the attempt's number.
 */
export interface SearchKey {
  orderCreatedAt: string;
  orderRef: number;
  attempt: number;
}

/** The operators' search: every filter given must hold (AND). */
export interface ListQuery {
  merchantId?: string;
  /**
   * Only these merchants' orders (a Backoffice operator's scope of several):
   * checked on the orders the bounded walk reads, like the filters no index
   * serves, so a scope of many merchants costs no more than one filter.
   */
  merchantIds?: readonly string[];
  orderId?: string;
  pin?: string;
  /** Compared without regard to case. */
  email?: string;
  processorTransactionId?: string;
  cardLastFour?: string;
  processor?: string;
  frontend?: string;
  traceId?: number;
  type?: TransactionType;
  status?: TransactionStatus;
  /** The order's creation time, at or after. */
  startTime?: Date;
  /** The order's creation time, before. */
  endTime?: Date;
  limit: number;
  /** Keyset cursor: only attempts after this position. */
  after?: SearchKey;
}

/** What a search found, and where its bounded read of orders stopped when it ran out before `limit` attempts. */
export interface ListResult {
  rows: { attempt: Attempt; key: SearchKey }[];
  /** Set when more orders remain unread: the next page starts after it. */
  scannedTo?: SearchKey;
}

/** Attempts left non-final: created before `createdBefore`, oldest first. */
export interface StuckQuery {
  merchantId?: string;
  createdBefore: Date;
  /** Keyset cursor: only attempts with a larger trace_id. */
  afterTraceId?: number;
  limit: number;
}

export interface OrderStore {
  /**
   * Creates the order and its first attempt in one database transaction, or
   * returns the existing order's latest attempt. For a refund it locks the sale
   * and refuses (REFUND_EXCEEDS_REMAINING) what would exceed its amount. An
   * order not made in a session makes nothing under the order_id of a hosted
   * Cashier withdrawal session, also when the two come at the same moment.
   */
  createOrder(draft: OrderDraft): Promise<CreateOrderResult>;
  /** An approved-or-not sale of the merchant by trace_id or order_id. */
  findSale(merchantId: string, referenceId: string): Promise<RefundableSale | undefined>;
  /**
   * Moves an attempt from `from` along the decision and, in the same database
   * transaction, records the change, queues the callbacks it owes, seals or
   * clears the card number and creates the cascade's next attempt, as given.
   * When the attempt is no longer in `from` nothing is written (applied false).
   */
  applyDecision(traceId: number, from: State, decision: Decision, extras: ApplyExtras): Promise<ApplyResult>;
  /** The order's sealed card number while it is held, else null. */
  sealedCard(orderRef: number): Promise<string | null>;
  /** Keeps the keyed hash of a cashier session's auth_token. */
  saveSession(orderRef: number, tokenHash: string): Promise<void>;
  /** One attempt by trace_id. */
  get(traceId: number): Promise<Attempt | undefined>;
  history(traceId: number): Promise<StatusChange[]>;
  /** The operators' search; reads a bounded number of orders per call (SEARCH_SCAN_BUDGET). */
  list(query: ListQuery): Promise<ListResult>;
  /** Attempts still pending, pending_async or requested past a horizon. */
  stuck(query: StuckQuery): Promise<Attempt[]>;
}

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

export interface CallbackAttemptView {
  at: Date;
  durationMs: number;
  httpStatus: number;
  responseBody: string;
  outcome: string;
  error: string;
}

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

export interface CallbackFilter {
  merchantId?: string;
  kind?: CallbackKind;
  state?: CallbackState;
  traceId?: number;
  /** Keyset cursor: only callbacks with a smaller id. */
  beforeId?: number;
  limit: number;
}

export interface FailingFilter {
  merchantId?: string;
  minAttempts: number;
  /** Keyset cursor: only callbacks with a smaller id. */
  beforeId?: number;
  limit: number;
}

/** The callbacks a transaction owed, with every attempt: claimed and recorded by the delivery worker, read by operators. */
export interface CallbackLog {
  /**
   * Claims up to `limit` due callbacks for `leaseMs`, leaving any merchant with at
   * most `perMerchant` claimed (in flight) over all engines.
   */
  claimDue(limit: number, leaseMs: number, perMerchant: number): Promise<ClaimedCallback[]>;
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
  redeliver(
    id: number,
    alongside?: (tx: EntityManager, after: CallbackView) => Promise<void>,
  ): Promise<CallbackView | "not-found" | "not-queued" | "in-flight">;
}

export interface MerchantSpec {
  merchantId: string;
  secret: string;
  siteId?: number | null;
  platformUrl?: string | null;
  validationUrl?: string | null;
  updatePayoutUrl?: string | null;
  updatePayoutStatuses?: string;
  payoutApproval?: "auto" | "manual";
  processors?: string[];
  frontends: FrontendSpec[];
  /** Given: the merchant's accounts are exactly these (an empty list removes them). Absent: left as they are. */
  processorAccounts?: ProcessorAccount[];
}

/** A frontend as written to the store; absent settings take CONTRACT 9's defaults. */
export interface FrontendSpec {
  name: string;
  baseCurrency: string;
  currencies?: string[];
  settings?: FrontendSettings;
}

/** A merchant as operators see it: everything but its secrets. */
export interface MerchantView extends MerchantSettingsView {
  merchantId: string;
  createdAt: Date;
  updatedAt: Date;
  /** Until when the previous secret is accepted; null when none is. */
  previousSecretExpiresAt: Date | null;
}

export type MerchantSettings = Omit<MerchantSpec, "merchantId" | "secret" | "frontends" | "processorAccounts">;

export interface MerchantAdminStore {
  view(merchantId: string): Promise<MerchantView | undefined>;
  list(afterId: string | undefined, limit: number): Promise<MerchantView[]>;
  create(spec: MerchantSpec): Promise<boolean>;
  update(merchantId: string, settings: MerchantSettings, only?: ReadonlySet<keyof MerchantSettings>): Promise<boolean>;
  rotateSecret(merchantId: string, newSecret: string, overlapSeconds: number): Promise<boolean>;
  putFrontend(merchantId: string, f: Required<FrontendSpec>, mode: "create" | "update"): Promise<"ok" | "no-merchant" | "exists" | "no-frontend">;
  /** Creates or replaces one processor account; false when there is no such merchant. */
  setProcessorAccount(merchantId: string, account: ProcessorAccount): Promise<boolean>;
  /** A merchant's accounts without their credentials; undefined when there is no such merchant. */
  processorAccounts(merchantId: string): Promise<ProcessorAccountView[] | undefined>;
  /**
   * Runs `fn` in one database transaction that view, update, rotateSecret and
   * putFrontend join (with `tx` for more writes in it, such as an audit row),
   * then forgets the merchant's cached copy once it has committed.
   */
  within<T>(merchantId: string, fn: (tx: EntityManager) => Promise<T>): Promise<T>;
}

/** A processor account as operators see it: everything but the credentials. */
export type ProcessorAccountView = Omit<ProcessorAccount, "apiKey"> & { updatedAt: Date };

/** Claims on attempts, for the follow-up worker and the hosted page: each one wins for exactly one caller. */
export interface FollowUpStore {
  /** Attempts whose next check (poll, cascade submit, challenge expiry) is due, claimed for a lease. */
  claimDue(limit: number, leaseMs: number): Promise<number[]>;
  /** Marks due the recent attempts left pending with no check by an engine that died mid-way. */
  sweepStuck(graceSeconds: number): Promise<number>;
  /** The same for attempts in pending (a processor call in flight), on the lookup horizon: their processor is asked by trace_id. */
  sweepForLookup(graceSeconds: number): Promise<number>;
  /** A repeated request tells the platform this attempt's state: flagged and read back under the row's lock. */
  markReplied(traceId: number): Promise<Attempt | undefined>;
  /** Claims an open, unexpired 3-D Secure challenge for `ms`: true for exactly one caller. */
  claimChallenge(traceId: number, ms: number): Promise<boolean>;
  /** Claims a cascade attempt's submission to its processor: true for exactly one caller. */
  claimSubmit(traceId: number, leaseMs: number): Promise<boolean>;
  /** Nothing more to look at on this attempt (no next check). */
  clearCheck(traceId: number): Promise<void>;
}

export interface ProcessDeps {
  merchants: MerchantDirectory;
  orders: OrderStore;
  followUps: FollowUpStore;
  callbacks: CallbackLog;
  processors: ProcessorRegistry;
  keys: Keys;
  send: Send;
  /** Every delay, lease and horizon of the asynchronous life (schedule.ts). */
  schedule: Schedule;
  /** The time of day (clock.ts): one clock for every use case. */
  now: Clock;
  publicUrl: () => string;
  /** Tells this process's workers that something may be due now. */
  wake: () => void;
  /** Counts a processor's answer (metrics). */
  onProcessorOutcome?: (processor: string, type: string, outcome: string) => void;
}
