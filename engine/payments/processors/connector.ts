/**
 * A connector: one acquirer's API behind the processor seam (CONTRACT 11), as
 * one folder exporting one ConnectorModule and registered by one line in the
 * connectors list. The module says what it can do, which credentials and
 * settings an account of it takes (its own schema, checked at start and on
 * every change), opens a Processor for one account, and verifies and reads
 * the acquirer's webhooks through the same status tables as its lookups.
 * Hyperswitch's connectors have this shape (docs/processors.md).
 */
import type { ProcessorOutcome } from "../domain/outcome.ts";
import type { Capability, Processor } from "./processor.ts";

/** A setting or credential that is wrong or missing, named as the merchants file names it. */
export interface FieldFault {
  /** "settings.processing_channel_id", "credentials.secret_key", "url". */
  field: string;
  description: string;
}

/** A parsed value, or every fault found in it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; faults: FieldFault[] };

/** One account at one acquirer, as a merchant configured it. */
export interface ConnectorAccount<S> {
  /** The account's name: in `processors`, in `payment_processor` answers, in the Backoffice. */
  name: string;
  /** The acquirer's base URL: sandbox, live, or a local stand-in. */
  url: string;
  /** Opened from their seal for this call only; never logged or returned. */
  credentials: Readonly<Record<string, string>>;
  settings: S;
  /** One call's time limit (the schedule's processor timeout). */
  timeoutMs: number;
}

/** What an acquirer's webhook says, one event at a time. */
export interface WebhookEvent {
  /** The acquirer's event id: an event is stored and applied once. */
  id: string;
  /** The acquirer's own event type, as it came ("payment_approved", "AUTHORISATION"). */
  type: string;
  /** The flow the event is about; undefined for an event Cashier keeps but does not apply. */
  flow?: "sale" | "payout" | "refund";
  /** The acquirer's id of the payment (or refund) it names. */
  transactionId?: string;
  /** Our attempt's trace_id, from the reference we sent, when the event carries it. */
  traceId?: number;
  /** What the event says of the attempt, through the connector's status table; undefined: nothing to apply. */
  outcome?: ProcessorOutcome;
  /**
   * The amount the event says was moved (minor units), when it says: an event whose amount or currency is not its
   * attempt's is kept and changes nothing (a forged reference, another installation's attempt of the same number).
   */
  amount?: { minor: number; currency: string };
  /** The acquirer's own account the event is for (Adyen's merchantAccountCode), when it says: another's changes nothing. */
  accountCode?: string;
}

export interface ConnectorWebhooks {
  /**
   * Whether the raw body's signature verifies under the account's credentials,
   * compared in constant time. Checkout.com signs the raw body (Cko-Signature);
   * Adyen signs each notification item.
   */
  verify(raw: Buffer, headers: Readonly<Record<string, string | undefined>>, credentials: Readonly<Record<string, string>>): boolean;
  /** The events of a verified body; throws (a refusal naming the fault) on a body that is not the acquirer's format. */
  parse(raw: Buffer): WebhookEvent[];
  /** The account's own code at the acquirer, as its events name it (`accountCode`), from the account's settings. */
  accountCode?(settings: Readonly<Record<string, unknown>>): string | undefined;
  /** The answer the acquirer expects once the events are committed (Adyen: `[accepted]`); else an empty 200. */
  acknowledgement?: { contentType: string; body: string };
}

/** A connector: everything Cashier knows of one acquirer's API. */
export interface ConnectorModule<S = unknown> {
  /** Its name in accounts' `connector` member: "checkout", "adyen", "sim-a". */
  readonly name: string;
  /** What it can do; a capability missing here is refused by name, never stubbed. */
  readonly capabilities: readonly Capability[];
  /** The credentials an account must give, all write-only. */
  readonly credentials: readonly string[];
  /**
   * The credentials an account may give besides (write-only too): the previous webhook key during a rotation
   * (`hmac_key_previous`, `webhook_secret_previous`), accepted beside the current one until it is removed.
   */
  readonly optionalCredentials?: readonly string[];
  /** The account's `settings`, checked by the connector's own schema. */
  parseSettings(raw: unknown): Checked<S>;
  /** A processor for one account. */
  open(account: ConnectorAccount<S>): Processor;
  /** How its webhooks are verified and read; undefined: it sends none. */
  readonly webhooks?: ConnectorWebhooks;
}
