/**
 * Orders and their attempts as the use cases write and read them: an order
 * made with its first attempt, a status change with everything it owes in the
 * same database transaction, and the operators' searches.
 */
import type { Attempt, CustomerInput, StatusChange, TransactionStatus, TransactionType } from "../../shared/transaction.ts";
import type { CallbackKind } from "../../shared/callbacks.ts";
import type { Decision } from "../domain/outcome.ts";
import type { Routing } from "../domain/routing.ts";
import type { State } from "../domain/transitions.ts";
import type { Tx } from "../../store/tx.ts";

/** What Process asks the store to make: the order, its customer and card, and its first attempt. */
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
  /** The cascade routing picked and the rule that picked it; kept with the order only when a rule did. */
  routing?: Routing;
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
/** An order already made under an order_id: its parameters' fingerprint, its latest attempt and its first. */
export type ExistingOrder = { created: false; fingerprint: string; attempt: Attempt; first: Attempt };

export type CreateOrderResult =
  | { created: true; attempt: Attempt }
  | ExistingOrder
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

/** What a status change writes besides the change itself, in its own database transaction. */
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
export type Alongside = (tx: Tx, after: Attempt) => Promise<void>;

/** What a status change did: whether it applied, the attempt as it now is, and the cascade's next. */
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

/** The orders and their attempts: made, moved along their transitions, read and searched. */
export interface OrderStore {
  /**
   * Creates the order and its first attempt in one database transaction, or
   * returns the existing order's latest attempt. For a refund it locks the sale
   * and refuses (REFUND_EXCEEDS_REMAINING) what would exceed its amount. An
   * order not made in a session makes nothing under the order_id of a hosted
   * Cashier withdrawal session, also when the two come at the same moment.
   * `alongside` (a refund's only: an operator's audit row) is written in the refund's own creating transaction.
   */
  createOrder(draft: OrderDraft, alongside?: Alongside): Promise<CreateOrderResult>;
  /**
   * The order made under this order_id, or undefined: a repeat that must not make the order itself (a card token's
   * copy that did not use the token, and so holds no CVV) reads it here instead.
   */
  existingOrder(merchantId: string, orderId: string): Promise<ExistingOrder | undefined>;
  /** An approved-or-not sale of the merchant by trace_id or order_id. */
  findSale(merchantId: string, referenceId: string): Promise<RefundableSale | undefined>;
  /**
   * Moves an attempt from `from` along the decision and, in the same database
   * transaction, records the change, queues the callbacks it owes, seals or
   * clears the card number and creates the cascade's next attempt, as given.
   * When the attempt is no longer in `from` nothing is written (applied false).
   */
  applyDecision(traceId: number, from: State, decision: Decision, extras: ApplyExtras): Promise<ApplyResult>;
  /**
   * The order's customer as it keeps it (names, address and city with card numbers masked; no pin): what a real
   * acquirer's risk checks read on the cascade's later attempts, whose request is no longer in memory.
   */
  customer(orderRef: number): Promise<CustomerInput | undefined>;
  /** The order's sealed card number while it is held, else null. */
  sealedCard(orderRef: number): Promise<string | null>;
  /** Keeps the keyed hash of a cashier session's auth_token. */
  saveSession(orderRef: number, tokenHash: string): Promise<void>;
  /** One attempt by trace_id. */
  get(traceId: number): Promise<Attempt | undefined>;
  /**
   * The merchant's attempt that the acquirer knows by `transactionId` on the account `processor` (an acquirer's
   * webhook names its payment so); the latest, should an acquirer ever reuse an id.
   */
  findByProcessorId(merchantId: string, processor: string, transactionId: string): Promise<Attempt | undefined>;
  history(traceId: number): Promise<StatusChange[]>;
  /** The operators' search; reads a bounded number of orders per call (SEARCH_SCAN_BUDGET). */
  list(query: ListQuery): Promise<ListResult>;
  /** Attempts still pending, pending_async or requested past a horizon. */
  stuck(query: StuckQuery): Promise<Attempt[]>;
}
