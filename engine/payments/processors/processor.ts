/**
 * The one seam every payment processor sits behind, real or simulated. A
 * processor declares what it can do as capabilities, and a capability is its
 * implementation: one cannot be declared without its methods nor used without
 * being declared, so a missing one is refused by name (registry.ts), never
 * stubbed. Outcomes are classified, never free text: approved / declined /
 * retryable (the cascade's cue) / unavailable (deposit state E) / pending (the
 * answer comes later) / challenge (3-D Secure) / unknown (a timeout: never
 * taken as declined).
 */
import type { ProcessorOutcome } from "../domain/outcome.ts";

export interface CardDetails {
  number: string;
  /** Empty when not given (payouts, refunds) or no longer held. */
  cvv: string;
  expiry: string;
}

/** The customer as an acquirer's risk checks and payout rules read them; empty strings when not given. */
export interface PaymentParty {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  zip: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  state: string;
  /** YYYY-MM-DD, or empty. */
  dob: string;
  /** The customer's IP address, or empty. */
  ip: string;
}

export interface ChargeRequest {
  /** Our attempt's trace_id: the idempotency key of every call about this attempt. */
  traceId: number;
  amountMinor: number;
  currency: string;
  card: CardDetails;
  /** The merchant's order id: a reference the acquirer's reports show beside ours. */
  orderId?: string;
  /** Who pays (a sale) or is paid (a payout). */
  customer?: PaymentParty;
  /** Where a real acquirer sends the customer back after its 3-D Secure page (Cashier's return route). */
  returnUrl?: string;
  /**
   * A mail or telephone order (the Backoffice's Virtual Terminal): the card was read out to an agent, so there is no
   * customer to authenticate. The connector marks it MOTO in its acquirer's words and asks for no 3-D Secure (the
   * returnUrl is given all the same, for an acquirer whose schema requires one on every payment).
   */
  moto?: boolean;
}

export interface RefundRequest extends ChargeRequest {
  /** The processor's id of the sale being refunded. */
  saleTransactionId: string;
}

export type { ProcessorOutcome };

/**
 * What a lookup is about. An acquirer may keep a refund apart from payments
 * (Checkout.com lists it among its sale's actions, not as a payment of its
 * own), so a lookup says what the attempt is and, for a refund, which sale it
 * returns; a processor that keeps every attempt alike ignores it. The
 * follow-up worker always gives it; without it, the attempt is a payment.
 */
export interface LookupAbout {
  type: "sale" | "payout" | "refund";
  /** A refund's sale, by the processor's id of it; empty when the sale has none. */
  saleTransactionId?: string;
}

/** What a processor may be able to do, each with the calls it takes. */
export interface Capabilities {
  /** A card deposit. */
  sale: { authorize(req: ChargeRequest): Promise<ProcessorOutcome> };
  /** A credit to the card. */
  payout: { payout(req: ChargeRequest): Promise<ProcessorOutcome> };
  /** The return of (part of) an approved sale. */
  refund: { refund(req: RefundRequest): Promise<ProcessorOutcome> };
  threeDSecure: {
    /** Finishes a simulator's 3-D Secure challenge with the customer's result. */
    complete(transactionId: string, passed: boolean): Promise<ProcessorOutcome>;
    /**
     * Asks a real acquirer for the verdict once the customer is back from its
     * own challenge page, with what the acquirer put on the return URL (Adyen's
     * `redirectResult`; Checkout.com's `cko-session-id`): a details call or a lookup.
     */
    returned?(transactionId: string, params: Readonly<Record<string, string>>): Promise<ProcessorOutcome>;
  };
  statusLookup: {
    /** The current answer of a pending or unknown attempt, by the processor's id. */
    status(transactionId: string, about?: LookupAbout): Promise<ProcessorOutcome>;
    /**
     * The answer to an attempt whose reply was lost (a crash, a timeout), by our
     * trace_id. "No record" is `unavailable`, final at once when the processor
     * fences the key (refuses the attempt if it arrives later); one that cannot
     * fence says `mayArriveLate`, and is believed only past the no-record horizon.
     */
    find(traceId: number, about?: LookupAbout): Promise<ProcessorOutcome>;
  };
}

export type Capability = keyof Capabilities;

/** Every capability, in the order the docs list them. */
export const CAPABILITIES: readonly Capability[] = ["sale", "payout", "refund", "threeDSecure", "statusLookup"];

/** The words a person reads in a refusal ("processor sim-x cannot do 3-D Secure"). */
export const CAPABILITY_WORDS: Record<Capability, string> = {
  sale: "sales",
  payout: "payouts",
  refund: "refunds",
  threeDSecure: "3-D Secure",
  statusLookup: "status lookups",
};

export interface Processor {
  readonly name: string;
  readonly capabilities: Partial<Capabilities>;
}
