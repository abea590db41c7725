/**
 * Enrolment through the one-time link (013): the operator a link's token
 * leads to, its password step and its activation. Each step is a
 * conditional update, so it is taken once and only through the link that is
 * current, also when requests arrive together.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { EnrolmentStore } from "../ports/enrolment.ts";
import type { OperatorRecord } from "../ports/operators.ts";
import type { Tx } from "../../store/tx.ts";
import { consoleDb } from "./console-db.ts";
import { readOperator } from "./operator-rows.ts";

export class PgEnrolmentStore implements EnrolmentStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  /** The enrolling operator whose link's token hashes to `hash`, if still valid at `now`. */
  async byEnrolment(hash: string, now: Date, tx?: Tx): Promise<OperatorRecord | undefined> {
    const db = consoleDb(this.#orm, tx);
    const row = await db
      .selectFrom("operator")
      .select("login")
      .where("enrol_token_hash", "=", hash)
      .where("state", "=", "enrolling")
      .where("enrol_expires_at", ">", now)
      .executeTakeFirst();
    return row ? readOperator(db, row.login, tx !== undefined) : undefined;
  }

  /**
   * The enrolment's password step, once, by the link it came through: false when the enrolment is past it (its
   * TOTP secret is set), over, or now another link's (reset while the password was being hashed).
   */
  async setEnrolmentSecrets(
    login: string,
    enrolTokenHash: string,
    passwordHash: string,
    totpSealed: string,
    browserHash: string,
    now: Date,
    tx: Tx,
  ): Promise<boolean> {
    const rows = await consoleDb(this.#orm, tx)
      .updateTable("operator")
      .set({ password_hash: passwordHash, totp_sealed: totpSealed, enrol_browser_hash: browserHash, updated_at: now })
      .where("login", "=", login)
      .where("state", "=", "enrolling")
      .where("enrol_token_hash", "=", enrolTokenHash)
      .where("totp_sealed", "is", null)
      .returning("login")
      .execute();
    return rows.length === 1;
  }

  /**
   * Ends the enrolment, once: false when it is no longer the one whose TOTP
   * secret the code was checked against (another request ended it first, or
   * the link was replaced meanwhile).
   */
  async activate(login: string, totpSealed: string, recoveryHashes: string[], totpStep: number, now: Date, tx: Tx): Promise<boolean> {
    const rows = await consoleDb(this.#orm, tx)
      .updateTable("operator")
      .set({
        state: "active",
        recovery_hashes: recoveryHashes,
        totp_last_step: totpStep,
        enrol_token_hash: null,
        enrol_expires_at: null,
        failed_attempts: 0,
        locked_until: null,
        last_sign_in_at: now,
        updated_at: now,
      })
      .where("login", "=", login)
      .where("state", "=", "enrolling")
      .where("totp_sealed", "=", totpSealed)
      .returning("login")
      .execute();
    return rows.length === 1;
  }
}
