/**
 * What a sign-in and a password change count and use up on an operator's
 * account (013): password attempts, the lock, the TOTP step, the recovery
 * codes, and the operator's own new password. Times of day come from the
 * caller (the app clock), so a test of the lock moves time instead of sleeping.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { PasswordChange, SignInStore } from "../ports/sign-ins.ts";
import type { Tx } from "../../store/tx.ts";
import { consoleDb } from "./console-db.ts";
import { readOperator } from "./operator-rows.ts";

export class PgSignInStore implements SignInStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  /**
   * Takes one of the account's `limit` password attempts before the password
   * is checked, in one statement: false when the account is locked at `now` or
   * its attempts are all taken (failed, or being checked by a request at this
   * moment). So a burst of simultaneous sign-ins checks at most `limit`
   * passwords, however many arrive.
   */
  async reserveAttempt(login: string, limit: number, now: Date): Promise<boolean> {
    const rows = await consoleDb(this.#orm)
      .updateTable("operator")
      .set((eb) => ({ failed_attempts: eb("failed_attempts", "+", 1) }))
      .where("login", "=", login)
      .where("state", "=", "active")
      .where("failed_attempts", "<", limit)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
      .returning("login")
      .execute();
    return rows.length === 1;
  }

  /** A reserved attempt whose password was right: it is no failure. */
  async releaseAttempt(login: string): Promise<void> {
    await consoleDb(this.#orm)
      .updateTable("operator")
      .set((eb) => ({ failed_attempts: eb.fn("greatest", [eb("failed_attempts", "-", 1), eb.lit(0)]) }))
      .where("login", "=", login)
      .execute();
  }

  /** A reserved attempt whose password was wrong stays counted; once `limit` are, the account locks until `lockUntil` and the count starts again. */
  async lockWhenSpent(login: string, limit: number, lockUntil: Date, tx: Tx): Promise<{ locked: boolean }> {
    const rows = await consoleDb(this.#orm, tx)
      .updateTable("operator")
      .set({ failed_attempts: 0, locked_until: lockUntil })
      .where("login", "=", login)
      .where("failed_attempts", ">=", limit)
      .returning("login")
      .execute();
    return { locked: rows.length === 1 };
  }

  /** Counts a failure; at `limit` failures the account locks until `lockUntil` and the count starts again. */
  async recordFailure(login: string, limit: number, lockUntil: Date, tx: Tx): Promise<{ locked: boolean }> {
    const db = consoleDb(this.#orm, tx);
    const row = await db
      .updateTable("operator")
      .set((eb) => ({ failed_attempts: eb("failed_attempts", "+", 1) }))
      .where("login", "=", login)
      .returning("failed_attempts")
      .executeTakeFirst();
    if (!row || row.failed_attempts < limit) return { locked: false };
    await db.updateTable("operator").set({ failed_attempts: 0, locked_until: lockUntil }).where("login", "=", login).execute();
    return { locked: true };
  }

  async recordSignIn(login: string, now: Date, tx: Tx): Promise<void> {
    await consoleDb(this.#orm, tx)
      .updateTable("operator")
      .set({ failed_attempts: 0, locked_until: null, last_sign_in_at: now })
      .where("login", "=", login)
      .execute();
  }

  /** Takes a TOTP step: false when a code of this step (or a later one) was already used. */
  async useTotpStep(login: string, step: number, tx: Tx): Promise<boolean> {
    const rows = await consoleDb(this.#orm, tx)
      .updateTable("operator")
      .set({ totp_last_step: step })
      .where("login", "=", login)
      .where("totp_last_step", "<", step)
      .returning("login")
      .execute();
    return rows.length === 1;
  }

  /** Uses up a recovery code: false when it is not one of the unused ones. */
  async useRecoveryCode(login: string, hash: string, tx: Tx): Promise<boolean> {
    const db = consoleDb(this.#orm, tx);
    const op = await readOperator(db, login, true);
    if (!op?.recoveryHashes.includes(hash)) return false;
    await db
      .updateTable("operator")
      .set({ recovery_hashes: op.recoveryHashes.filter((h) => h !== hash) })
      .where("login", "=", login)
      .execute();
    return true;
  }

  /**
   * The operator's own new password, written only over the one that was checked (`from`), for an active account,
   * from a session (`session`) still live: undefined when any of that no longer holds. The account's failure count
   * starts again, as after a sign-in; its other sessions and pending sign-ins end (their count is returned).
   */
  async changePassword(c: PasswordChange, tx: Tx): Promise<number | undefined> {
    const db = consoleDb(this.#orm, tx);
    const changed = await db
      .updateTable("operator")
      .set({ password_hash: c.to, failed_attempts: 0, updated_at: c.now })
      .where("login", "=", c.login)
      .where("state", "=", "active")
      .where("password_hash", "=", c.from)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom("console_session")
            .select("token_hash")
            .where("token_hash", "=", c.session)
            .where("login", "=", c.login)
            .where("kind", "=", "session")
            .where("ended_at", "is", null),
        ),
      )
      .returning("login")
      .execute();
    if (changed.length !== 1) return undefined;
    const ended = await db
      .updateTable("console_session")
      .set({ ended_at: c.now })
      .where("login", "=", c.login)
      .where("ended_at", "is", null)
      .where("token_hash", "<>", c.session)
      .where("expires_at", ">", c.now)
      .returning("token_hash")
      .execute();
    return ended.length;
  }
}
