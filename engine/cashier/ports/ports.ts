/**
 * What the hosted Cashier's use cases need beyond Process's ports: its
 * sessions and saved cards (engine/cashier/store/session-store.ts implements them on
 * Postgres) and the session's length.
 */
import type { SessionIntent } from "../domain/hosted-session.ts";
import type { Attempt, CustomerInput } from "../../shared/transaction.ts";
import type { ProcessDeps } from "../../payments/index.ts";

/** A session as stored: what the platform's start asked for, no token. */
export interface SessionRecord {
  id: number;
  merchantId: string;
  intent: SessionIntent;
  frontend: string;
  currency: string;
  amountMinor: number | null;
  balanceMinor: number | null;
  pin: string;
  customer: CustomerInput;
  locale: string;
  returnUrl: string;
  notificationUrl: string | null;
  /** Withdrawal: the platform's payout id. */
  orderId: string | null;
  scOrderId: string | null;
  udef1: string | null;
  udef2: string | null;
  /** Random; the autologin token and auth_token are derived from it (session-tokens.ts). */
  nonce: string;
  /** Keyed fingerprint of the start's parameters: a repeat must carry the same. */
  fingerprint: string;
  expiresAt: Date;
  autologinUsedAt: Date | null;
}

export type SessionDraft = Omit<SessionRecord, "id" | "autologinUsedAt"> & {
  /** `w:<order_id>` or `d:<fingerprint>`: one live session per key. */
  idempotencyKey: string;
  autologinHash: string;
};

/** A saved card as the pages see it: never its number. */
export interface SavedCardRecord {
  id: string;
  cardMasked: string;
  cardBrand: string;
  cardExpiry: string;
  cardFingerprint: string;
  holder: string;
  /** The closed-loop rule holds: this customer made an approved deposit from it at this merchant. */
  depositedFrom: boolean;
}

export interface NewSavedCard {
  id: string;
  merchantId: string;
  pin: string;
  cardMasked: string;
  cardBrand: string;
  cardExpiry: string;
  cardFingerprint: string;
  cardSealed: string;
  holder: string;
  /** The deposit whose approval keeps it. */
  orderRef: number;
}

export interface SessionStore {
  /**
   * Creates the session, or returns the one already under its idempotency key
   * (created false), also when repeats arrive together. A deposit key whose
   * session has ended is released first, so a new one is made. A new
   * withdrawal session is not made under an order_id the merchant has an order
   * under already (`orderTaken`), also when that order comes at the same moment.
   */
  start(d: SessionDraft, now: Date): Promise<{ created: boolean; session: SessionRecord } | { orderTaken: true }>;
  /**
   * Uses the autologin once: marks it used and keeps the browser session's
   * hash, in one statement; undefined when unknown, used or expired.
   */
  redeem(autologinHash: string, sessionHash: string, now: Date): Promise<SessionRecord | undefined>;
  /** The session an autologin token would open, without using it. */
  byUnusedAutologin(autologinHash: string, now: Date): Promise<SessionRecord | undefined>;
  /** The live session of a browser session hash; undefined when unknown or ended. */
  bySessionHash(sessionHash: string, now: Date): Promise<SessionRecord | undefined>;
  /** The customer's saved cards that may be offered, newest first; erases those kept for a deposit that ended unapproved. */
  savedCards(merchantId: string, pin: string): Promise<SavedCardRecord[]>;
  /** One offered saved card of the customer with its sealed number; undefined when not theirs or not offered. */
  savedCard(merchantId: string, pin: string, id: string): Promise<(SavedCardRecord & { cardSealed: string }) | undefined>;
  saveCard(c: NewSavedCard): Promise<void>;
  /** Deletes the row, its sealed number with it; false when not the customer's. */
  deleteSavedCard(merchantId: string, pin: string, id: string): Promise<boolean>;
  /** The closed-loop rule: an approved deposit of this customer at this merchant from this card fingerprint. */
  depositedFrom(merchantId: string, pin: string, cardFingerprint: string): Promise<boolean>;
  /** Attempts of the orders made in the session, newest first. */
  sessionTransactions(sessionRef: number): Promise<Attempt[]>;
  /** The customer's payouts at this merchant that are not final (requested, pending), newest first. */
  /** The customer's payouts still open at this frontend: each frontend's own settings (cancelling) govern its payouts. */
  pendingWithdrawals(merchantId: string, frontend: string, pin: string): Promise<Attempt[]>;
}

/** Frontends' logos by their SHA-256 (engine/payments/store/brand-logo-store.ts), for the edge to serve. */
export interface BrandLogoReader {
  get(sha256: string): Promise<Uint8Array | undefined>;
}

export interface CashierDeps extends ProcessDeps {
  sessions: SessionStore;
  logos: BrandLogoReader;
  /** CASHIER_SESSION_TTL_SECONDS: how long a session lasts from its start. */
  sessionTtlSeconds: number;
  /** CASHIER_CARD_TOKEN_TTL_SECONDS: how long a hosted payment fields' card token may be used. */
  cardTokenTtlSeconds: number;
}
