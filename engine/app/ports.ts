/**
 * What the use cases need from the outside world, as interfaces. The store,
 * the processors and the clock plug in here; tests may pass real ones over a
 * real Postgres.
 */
import type { Attempt, FrontendView, StatusChange, TransactionStatus, TransactionType } from "../domain/transaction.ts";
import type { Decision } from "../domain/outcome.ts";
import type { State } from "../domain/transitions.ts";
import type { ProcessorRegistry } from "../processors/registry.ts";
import type { Keys } from "../security/keys.ts";
import type { KeyObject } from "node:crypto";

export interface Merchant {
  id: string;
  /** Current secret, opened into a key: only ever used to sign and verify. */
  signingKey: KeyObject;
  siteId: number | null;
  platformUrl: string | null;
  validationUrl: string | null;
  updatePayoutUrl: string | null;
  updatePayoutStatuses: string;
  payoutApproval: "auto" | "manual";
  processors: string[];
  frontends: FrontendView[];
}

export interface MerchantDirectory {
  get(merchantId: string): Promise<Merchant | undefined>;
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
  customer: Record<string, string>;
  cardMasked: string;
  cardBrand: string;
  cardExpiry: string;
  cardFingerprint: string;
  returnUrl: string;
  notificationUrl: string | null;
  referenceTraceId: number | null;
  processor: string;
  initial: State;
}

export type CreateOrderResult =
  | { created: true; attempt: Attempt }
  | { created: false; fingerprint: string; attempt: Attempt };

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

export interface ListQuery {
  merchantId?: string;
  orderId?: string;
  pin?: string;
  type?: TransactionType;
  status?: TransactionStatus;
  startTime?: Date;
  endTime?: Date;
  limit: number;
  /** Keyset cursor: only attempts with a smaller trace_id. */
  afterTraceId?: number;
}

export interface OrderStore {
  /**
   * Creates the order and its first attempt in one database transaction, or
   * returns the existing order's latest attempt. For a refund it locks the sale
   * and refuses (REFUND_EXCEEDS_REMAINING) what would exceed its amount.
   */
  createOrder(draft: OrderDraft): Promise<CreateOrderResult>;
  /** An approved-or-not sale of the merchant by trace_id or order_id. */
  findSale(merchantId: string, referenceId: string): Promise<RefundableSale | undefined>;
  /**
   * Moves an attempt from `from` along the decision, records the change, and
   * seals or clears the card number as given. Returns the attempt as stored.
   */
  applyDecision(traceId: number, from: State, decision: Decision, card: { sealed: string | null } | undefined): Promise<Attempt>;
  /** One attempt by trace_id. */
  get(traceId: number): Promise<Attempt | undefined>;
  history(traceId: number): Promise<StatusChange[]>;
  list(query: ListQuery): Promise<Attempt[]>;
}

export interface ProcessDeps {
  merchants: MerchantDirectory;
  orders: OrderStore;
  processors: ProcessorRegistry;
  keys: Keys;
  now: () => Date;
  publicUrl: () => string;
}

