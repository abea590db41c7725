/**
 * What the retention purge needs from the database: bounded deletes of what
 * has outlived its retention, and the monthly tables' months made ahead and
 * dropped whole (docs/operations.md, Retention).
 */

/** The tables the retention purge deletes from row by row (docs/operations.md, Retention). */
export type RetentionTable = "callback" | "acquirer_webhook_event_key";

/** The append-only tables kept in monthly partitions (migration 022): their retention drops whole months. */
export type MonthlyTable = "transaction_event" | "callback_attempt" | "acquirer_webhook_event";

/** A month dropped, and how many of its rows were kept (copied to the default partition) because they may still change. */
export interface DroppedMonth {
  table: MonthlyTable;
  /** YYYY_MM, in UTC. */
  month: string;
  kept: number;
}

/** Deletes what has outlived its retention, a bounded batch per step. */
export interface RetentionStore {
  /**
   * One step over `table`: deletes at most `batch` rows that outlived `olderThanSeconds` (callbacks: the settled
   * ones after the watermark; webhook keys: those of months whose events are gone); the number deleted. 0 as well
   * when another engine holds the table's step.
   */
  purge(table: RetentionTable, olderThanSeconds: number, batch: number): Promise<number>;
  /**
   * One step over ended sessions of `kind`: deletes at most `batch` of those
   * that ended (or expired) before `endedBefore` and that no other row still
   * names (an enrolment token is cleared, its operator kept); the number gone.
   */
  purgeSessions(kind: SessionRetention, endedBefore: Date, batch: number): Promise<number>;
  /** Makes `table`'s missing months from the current one (UTC, the database's clock) through `ahead` months on; the number made. */
  makeMonths(table: MonthlyTable, ahead: number): Promise<number>;
  /**
   * Drops `table`'s months that ended before the start of the month `olderThanSeconds` ago, keeping (in the
   * default partition) their rows that may still change; a month detached earlier and not yet dropped goes too.
   */
  dropMonths(table: MonthlyTable, olderThanSeconds: number): Promise<DroppedMonth[]>;
}

/**
 * What the session purge removes (docs/operations.md, Retention): ended or
 * expired console sessions, unfinished sign-ins, expired enrolment tokens,
 * ended hosted Cashier sessions, expired card tokens of the hosted payment
 * fields (at their expiry, whatever the periods).
 */
export type SessionRetention = "console_session" | "console_sign_in" | "enrolment_token" | "hosted_session" | "card_token";
