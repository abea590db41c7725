/**
 * What the retention purge needs from the database: bounded deletes of what
 * has outlived its retention (docs/operations.md, Retention).
 */

/** The tables the retention purge reads (docs/operations.md, Retention). */
export type RetentionTable = "callback" | "transaction_event" | "acquirer_webhook_event";

/** Deletes what has outlived its retention, a bounded batch per step. */
export interface RetentionStore {
  /**
   * One step over `table`: reads the next `batch` rows after its watermark and
   * deletes the settled ones older than `olderThanSeconds`; the number deleted.
   * 0 as well when another engine holds the table's step.
   */
  purge(table: RetentionTable, olderThanSeconds: number, batch: number): Promise<number>;
  /**
   * One step over ended sessions of `kind`: deletes at most `batch` of those
   * that ended (or expired) before `endedBefore` and that no other row still
   * names (an enrolment token is cleared, its operator kept); the number gone.
   */
  purgeSessions(kind: SessionRetention, endedBefore: Date, batch: number): Promise<number>;
}

/**
 * What the session purge removes (docs/operations.md, Retention): ended or
 * expired console sessions, unfinished sign-ins, expired enrolment tokens,
 * ended hosted Cashier sessions.
 */
export type SessionRetention = "console_session" | "console_sign_in" | "enrolment_token" | "hosted_session";
