/**
 * The domain's vocabulary: what a transaction is, in plain values. No proto, ORM
 * or HTTP type reaches here; mappers at the edges of the engine translate.
 */
/** The only API version of the seed's wire (Process, Validation, replies). */
export const API_VERSION = "1.0";

export type TransactionType = "sale" | "payout" | "refund";

export type TransactionStatus = "pending" | "approved" | "declined_retry" | "declined" | "cancelled" | "pending_async" | "requested";

/** Payout letters of UpdatePayout (seed 3.2). */
export type PayoutLetter = "A" | "P" | "Y" | "J" | "C";

/** Failed-deposit states: N declined by the processor, E processor error. */
export type DepositState = "N" | "E";

export interface CustomerInput {
  pin: string;
  email: string;
  firstName: string;
  lastName: string;
  dob: string;
  phone: string;
  address: string;
  city: string;
  country: string;
  state: string;
  zip: string;
  requesterIp: string;
}

/** A Process request as the engine receives it (typed, minor units). */
export interface ProcessInput {
  merchantId: string;
  orderId: string;
  type: TransactionType | undefined;
  amountMinor: number;
  currency: string;
  card: { number: string; cvv: string; expiry: string };
  customer: CustomerInput;
  frontend: string;
  returnUrl: string;
  notificationUrl: string;
  referenceId: string;
  /** Epoch seconds; undefined when the request carried none. */
  timestamp: number | undefined;
  version: string;
  errorCode: number;
  errorDetails: string;
  /** A hosted payment fields' card token in place of `card` (CONTRACT 12); absent or "" when the card came itself. */
  cardToken?: string;
}

/**
 * What a merchant id may be: 1 to 50 letters, digits, '.', '_', ':' or '-'. It stands in signed canonical strings
 * (no & or =) and nothing a platform could mistype; every merchant is created through this rule.
 */
export const MERCHANT_ID = /^[A-Za-z0-9._:-]{1,50}$/;

/** What the domain needs to know about the merchant's frontend. */
export interface FrontendView {
  name: string;
  baseCurrency: string;
  currencies: string[];
}

/** One attempt as the rest of the engine sees it (never an ORM entity). */
export interface Attempt {
  traceId: number;
  orderRef: number;
  orderId: string;
  merchantId: string;
  type: TransactionType;
  attempt: number;
  status: TransactionStatus;
  payoutLetter: PayoutLetter | null;
  depositState: DepositState | null;
  amountMinor: number;
  currency: string;
  processor: string;
  transactionId: string | null;
  errorCode: number | null;
  errorDetails: string | null;
  redirectUrl: string | null;
  cardMasked: string;
  cardBrand: string;
  cardExpiry: string;
  pin: string;
  frontend: string;
  referenceTraceId: number | null;
  /** Whether the order still holds the sealed full card number. */
  cardHeld: boolean;
  /** Where deposit status notifications go; null for none. */
  notificationUrl: string | null;
  /** Where the customer goes after a 3-D Secure challenge. */
  returnUrl: string;
  /** The customer's IP address as the platform sent it; "" when not sent. */
  requesterIp: string;
  /** The processor's own decline code ("05", "51"), for RecordFailedDeposit's errorCode. */
  processorCode: string | null;
  /** False only for a cascade attempt not yet sent to its processor. */
  submitted: boolean;
  /** When an open 3-D Secure challenge expires. */
  challengeExpiresAt: Date | null;
  /** Until when a customer's answer to the challenge is being sent to the processor. */
  completingUntil: Date | null;
  /** A real acquirer's own 3-D Secure page, where Cashier's challenge page (redirectUrl) sends the customer on. */
  acquirerRedirectUrl: string | null;
  /** The cascade a routing rule picked for the order (CONTRACT 11); null: the merchant's processors. */
  cascade: string[] | null;
  /** The label of the routing rule that picked it ("euro cards", "rule 2"); null when no rule did. */
  routingRule: string | null;
  /** A repeated request already told the platform this attempt's non-final state. */
  replied: boolean;
  /** Who made the order: "api" (Process) or "customer" (the hosted Cashier). */
  createdBy: string;
  /** The hosted Cashier session the order was made in; null for Process orders. */
  sessionRef: number | null;
  /** The session's SCOrderID, Udef1, Udef2 (RecordFailedDeposit); null when not given. */
  scOrderId: string | null;
  udef1: string | null;
  udef2: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StatusChange {
  fromStatus: TransactionStatus | null;
  toStatus: TransactionStatus;
  payoutLetter: PayoutLetter | null;
  cause: string;
  at: Date;
}

/** The customer's page (3-D Secure) is offered only while the customer must act (CONTRACT 3). */
export const offeredRedirect = (a: { status: TransactionStatus; redirectUrl: string | null }): string | null =>
  a.status === "pending_async" ? a.redirectUrl || null : null;
