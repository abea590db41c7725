/**
 * The one interface every payment processor sits behind, real or simulated.
 * Outcomes are classified, never free text: approved / declined / retryable
 * (the cascade's cue) / unavailable (deposit state E) / pending (the answer comes
 * later) / challenge (3-D Secure) / unknown (a timeout: never taken as declined).
 */
import type { ProcessorOutcome } from "../domain/outcome.ts";

export interface CardDetails {
  number: string;
  /** Empty when not given (payouts, refunds) or no longer held. */
  cvv: string;
  expiry: string;
}

export interface ChargeRequest {
  traceId: number;
  amountMinor: number;
  currency: string;
  card: CardDetails;
}

export interface RefundRequest {
  traceId: number;
  amountMinor: number;
  currency: string;
  /** The processor's id of the sale being refunded. */
  saleTransactionId: string;
  card: CardDetails;
}

export type { ProcessorOutcome };

export interface Processor {
  readonly name: string;
  /** A card deposit. */
  authorize(req: ChargeRequest): Promise<ProcessorOutcome>;
  /** A credit to the card. */
  payout(req: ChargeRequest): Promise<ProcessorOutcome>;
  /** The return of (part of) an approved sale. */
  refund(req: RefundRequest): Promise<ProcessorOutcome>;
  /** Finishes a 3-D Secure challenge with the customer's result. */
  complete(transactionId: string, passed: boolean): Promise<ProcessorOutcome>;
  /** Asks for the current answer of a pending or unknown attempt. */
  status(transactionId: string): Promise<ProcessorOutcome>;
  /**
   * The answer to an attempt whose reply was lost (a crash, a timeout), by our
   * trace_id, which every call carries as its idempotency key. A processor with
   * no record of it answers `unavailable`: it never took the attempt.
   */
  find(traceId: number): Promise<ProcessorOutcome>;
}
