/**
 * What a sign-in and a password change check and count on an operator's
 * account: password attempts taken before a password is judged, the lock
 * after too many failures, the TOTP step and recovery codes used once, and the
 * operator's own new password.
 */
import type { Tx } from "./transactions.ts";

/** An operator's own new password, over the one that was checked, from a live session. */
export interface PasswordChange {
  login: string;
  /** The hash that was checked: the change is written only over it. */
  from: string;
  to: string;
  /** The session's token hash: it must still be live, and it goes on. */
  session: string;
  now: Date;
}

/** The account's counters and one-time credentials. */
export interface SignInStore {
  /**
   * Takes one of the account's `limit` password attempts before the password
   * is checked, in one statement: false when the account is locked at `now` or
   * its attempts are all taken (failed, or being checked by a request at this
   * moment). So a burst of simultaneous sign-ins checks at most `limit`
   * passwords, however many arrive.
   */
  reserveAttempt(login: string, limit: number, now: Date): Promise<boolean>;
  /** A reserved attempt whose password was right: it is no failure. */
  releaseAttempt(login: string): Promise<void>;
  /** A reserved attempt whose password was wrong stays counted; once `limit` are, the account locks until `lockUntil` and the count starts again. */
  lockWhenSpent(login: string, limit: number, lockUntil: Date, tx: Tx): Promise<{ locked: boolean }>;
  /** Counts a failure; at `limit` failures the account locks until `lockUntil` and the count starts again. */
  recordFailure(login: string, limit: number, lockUntil: Date, tx: Tx): Promise<{ locked: boolean }>;
  /** A sign-in completed: the count starts again, the lock ends. */
  recordSignIn(login: string, now: Date, tx: Tx): Promise<void>;
  /** Takes a TOTP step: false when a code of this step (or a later one) was already used. */
  useTotpStep(login: string, step: number, tx: Tx): Promise<boolean>;
  /** Uses up a recovery code: false when it is not one of the unused ones. */
  useRecoveryCode(login: string, hash: string, tx: Tx): Promise<boolean>;
  /**
   * The operator's own new password, written only over the one that was checked (`from`), for an active account,
   * from a session (`session`) still live: undefined when any of that no longer holds. The account's failure count
   * starts again, as after a sign-in; its other sessions and pending sign-ins end (their count is returned).
   */
  changePassword(c: PasswordChange, tx: Tx): Promise<number | undefined>;
}
