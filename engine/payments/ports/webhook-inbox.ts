/**
 * The acquirers' webhook inbox (CONTRACT 11): every verified event kept once, by the acquirer's event id, so that
 * an acquirer's replay (they send at least once) changes nothing. An event that changes an attempt is kept in the
 * change's own database transaction: both commit, or neither.
 */
import type { Tx } from "../../store/tx.ts";

/** One event as the inbox keeps it. */
export interface InboxEntry {
  merchantId: string;
  /** The merchant's account the webhook came for (its name). */
  account: string;
  /** The acquirer's event id. */
  eventId: string;
  /** The acquirer's own event type, as it came. */
  eventType: string;
  /** The whole raw body as it was verified (one body may carry several events). */
  body: Buffer;
  /** The attempt it was about, when one was found. */
  traceId: number | null;
  /**
   * What it did: "applied", or why it changed nothing ("kept", "no-attempt", "flow-mismatch", "account-mismatch",
   * "amount-mismatch", "unchanged").
   */
  outcome: string;
  /** When it changed its attempt (the change's own moment); null: it changed nothing. */
  appliedAt: Date | null;
}

/** Where verified events are kept. */
export interface WebhookInbox {
  /** Whether the account's event is kept already. */
  has(merchantId: string, account: string, eventId: string): Promise<boolean>;
  /** Keeps the event, in `tx` when given (a status change's own transaction); false: it was kept already, nothing written. */
  record(entry: InboxEntry, tx?: Tx): Promise<boolean>;
}
