/**
 * Operators, their passkeys and their console sessions (013). Times of day
 * come from the caller (the app clock), so a test of the lock or of the idle
 * end moves time instead of sleeping. Writes that go with an audit row take
 * the caller's transaction through `tx`.
 */
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Role } from "../domain/operator-roles.ts";
import { typedDb } from "../../store/typed-db.ts";

export type OperatorState = "enrolling" | "active" | "disabled";

export interface OperatorRecord {
  login: string;
  role: Role;
  merchantIds: string[];
  state: OperatorState;
  passwordHash: string | null;
  totpSealed: string | null;
  totpLastStep: number;
  recoveryHashes: string[];
  failedAttempts: number;
  lockedUntil: Date | null;
  enrolExpiresAt: Date | null;
  lastSignInAt: Date | null;
  createdBy: string;
  /** Who created the operator or last reset it: the one who saw its current enrolment link. */
  accessIssuedBy: string;
  createdAt: Date;
  updatedAt: Date;
  passkeyCount: number;
}

export interface SessionRecord {
  tokenHash: string;
  login: string;
  kind: "pending" | "session";
  expiresAt: Date;
  endedAt: Date | null;
  challenge: string | null;
}

export interface PasskeyRecord {
  id: string;
  login: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

type Db = ReturnType<typeof typedDb>;

export class PgOperatorStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  /** Runs `fn` in one database transaction. */
  transaction<T>(fn: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.#orm.em.fork().transactional(fn);
  }

  #db(tx?: EntityManager): Db {
    return typedDb(tx ?? this.#orm.em.fork());
  }

  async get(login: string, tx?: EntityManager, lock = false): Promise<OperatorRecord | undefined> {
    const db = this.#db(tx);
    let q = db.selectFrom("operator").selectAll().where("login", "=", login);
    if (lock) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    if (!row) return undefined;
    const count = await db
      .selectFrom("operator_passkey")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("login", "=", login)
      .executeTakeFirst();
    return toOperator(row, Number(count?.n ?? 0));
  }

  async list(state?: OperatorState): Promise<OperatorRecord[]> {
    const db = this.#db();
    let q = db.selectFrom("operator").selectAll();
    if (state) q = q.where("state", "=", state);
    const rows = await q.orderBy("login").execute();
    const counts = await db
      .selectFrom("operator_passkey")
      .select(["login", (eb) => eb.fn.countAll<string>().as("n")])
      .groupBy("login")
      .execute();
    const byLogin = new Map(counts.map((c) => [c.login, Number(c.n)]));
    return rows.map((r) => toOperator(r, byLogin.get(r.login) ?? 0));
  }

  /** False when the login is taken. */
  async create(
    op: { login: string; role: Role; merchantIds: string[]; createdBy: string; enrolHash: string; enrolExpiresAt: Date; now: Date },
    tx: EntityManager,
  ): Promise<boolean> {
    const rows = await this.#db(tx)
      .insertInto("operator")
      .values({
        login: op.login,
        role: op.role,
        merchant_ids: op.merchantIds,
        state: "enrolling",
        created_by: op.createdBy,
        access_issued_by: op.createdBy,
        enrol_token_hash: op.enrolHash,
        enrol_expires_at: op.enrolExpiresAt,
        created_at: op.now,
        updated_at: op.now,
      })
      .onConflict((oc) => oc.column("login").doNothing())
      .returning("login")
      .execute();
    return rows.length === 1;
  }

  async setRole(login: string, role: Role, merchantIds: string[], now: Date, tx: EntityManager): Promise<void> {
    await this.#db(tx).updateTable("operator").set({ role, merchant_ids: merchantIds, updated_at: now }).where("login", "=", login).execute();
    await this.#voidFirstApprovals(login, tx);
  }

  /**
   * The operator's four-eyes first approvals no longer count once its access changes (disabled, reset, another role or
   * scope): moved back later, it must approve again (console-payouts.ts also checks at the second approval).
   */
  async #voidFirstApprovals(login: string, tx: EntityManager): Promise<void> {
    await this.#db(tx).deleteFrom("payout_first_approval").where("login", "=", login).execute();
  }

  /** Disabled: no sign-in, no enrolment link, every session ended. */
  async disable(login: string, now: Date, tx: EntityManager): Promise<void> {
    const db = this.#db(tx);
    await db
      .updateTable("operator")
      .set({ state: "disabled", enrol_token_hash: null, enrol_expires_at: null, updated_at: now })
      .where("login", "=", login)
      .execute();
    await this.endSessions(login, now, tx);
    await this.#voidFirstApprovals(login, tx);
  }

  /** Every credential cleared, enrolling again with a new link. */
  async reset(login: string, issuedBy: string, enrolHash: string, enrolExpiresAt: Date, now: Date, tx: EntityManager): Promise<void> {
    const db = this.#db(tx);
    await db
      .updateTable("operator")
      .set({
        state: "enrolling",
        password_hash: null,
        totp_sealed: null,
        totp_last_step: 0,
        recovery_hashes: [],
        failed_attempts: 0,
        locked_until: null,
        enrol_token_hash: enrolHash,
        enrol_expires_at: enrolExpiresAt,
        access_issued_by: issuedBy,
        updated_at: now,
      })
      .where("login", "=", login)
      .execute();
    await db.deleteFrom("operator_passkey").where("login", "=", login).execute();
    await this.endSessions(login, now, tx);
    await this.#voidFirstApprovals(login, tx);
  }

  async endSessions(login: string, now: Date, tx?: EntityManager): Promise<void> {
    await this.#db(tx).updateTable("console_session").set({ ended_at: now }).where("login", "=", login).where("ended_at", "is", null).execute();
  }

  /**
   * The operator's own new password, written only over the one that was checked (`from`), for an active account,
   * from a session (`session`) still live: undefined when any of that no longer holds. The account's failure count
   * starts again, as after a sign-in; its other sessions and pending sign-ins end (their count is returned).
   */
  async changePassword(c: { login: string; from: string; to: string; session: string; now: Date }, tx: EntityManager): Promise<number | undefined> {
    const db = this.#db(tx);
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

  /** The enrolling operator whose link's token hashes to `hash`, if still valid at `now`. */
  async byEnrolment(hash: string, now: Date, tx?: EntityManager): Promise<OperatorRecord | undefined> {
    const row = await this.#db(tx)
      .selectFrom("operator")
      .select("login")
      .where("enrol_token_hash", "=", hash)
      .where("state", "=", "enrolling")
      .where("enrol_expires_at", ">", now)
      .executeTakeFirst();
    return row ? this.get(row.login, tx, tx !== undefined) : undefined;
  }

  /**
   * The enrolment's password step, once, by the link it came through: false when the enrolment is past it (its
   * TOTP secret is set), over, or now another link's (reset while the password was being hashed).
   */
  async setEnrolmentSecrets(login: string, enrolTokenHash: string, passwordHash: string, totpSealed: string, now: Date, tx: EntityManager): Promise<boolean> {
    const rows = await this.#db(tx)
      .updateTable("operator")
      .set({ password_hash: passwordHash, totp_sealed: totpSealed, updated_at: now })
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
  async activate(login: string, totpSealed: string, recoveryHashes: string[], totpStep: number, now: Date, tx: EntityManager): Promise<boolean> {
    const rows = await this.#db(tx)
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

  /**
   * Takes one of the account's `limit` password attempts before the password
   * is checked, in one statement: false when the account is locked at `now` or
   * its attempts are all taken (failed, or being checked by a request at this
   * moment). So a burst of simultaneous sign-ins checks at most `limit`
   * passwords, however many arrive.
   */
  async reserveAttempt(login: string, limit: number, now: Date): Promise<boolean> {
    const rows = await this.#db()
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
    await this.#db()
      .updateTable("operator")
      .set((eb) => ({ failed_attempts: eb.fn("greatest", [eb("failed_attempts", "-", 1), eb.lit(0)]) }))
      .where("login", "=", login)
      .execute();
  }

  /** A reserved attempt whose password was wrong stays counted; once `limit` are, the account locks until `lockUntil` and the count starts again. */
  async lockWhenSpent(login: string, limit: number, lockUntil: Date, tx: EntityManager): Promise<{ locked: boolean }> {
    const rows = await this.#db(tx)
      .updateTable("operator")
      .set({ failed_attempts: 0, locked_until: lockUntil })
      .where("login", "=", login)
      .where("failed_attempts", ">=", limit)
      .returning("login")
      .execute();
    return { locked: rows.length === 1 };
  }

  /** Counts a failure; at `limit` failures the account locks until `lockUntil` and the count starts again. */
  async recordFailure(login: string, limit: number, lockUntil: Date, tx: EntityManager): Promise<{ locked: boolean }> {
    const db = this.#db(tx);
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

  async recordSignIn(login: string, now: Date, tx: EntityManager): Promise<void> {
    await this.#db(tx).updateTable("operator").set({ failed_attempts: 0, locked_until: null, last_sign_in_at: now }).where("login", "=", login).execute();
  }

  /** Takes a TOTP step: false when a code of this step (or a later one) was already used. */
  async useTotpStep(login: string, step: number, tx: EntityManager): Promise<boolean> {
    const rows = await this.#db(tx)
      .updateTable("operator")
      .set({ totp_last_step: step })
      .where("login", "=", login)
      .where("totp_last_step", "<", step)
      .returning("login")
      .execute();
    return rows.length === 1;
  }

  /** Uses up a recovery code: false when it is not one of the unused ones. */
  async useRecoveryCode(login: string, hash: string, tx: EntityManager): Promise<boolean> {
    const op = await this.get(login, tx, true);
    if (!op?.recoveryHashes.includes(hash)) return false;
    await this.#db(tx)
      .updateTable("operator")
      .set({ recovery_hashes: op.recoveryHashes.filter((h) => h !== hash) })
      .where("login", "=", login)
      .execute();
    return true;
  }

  async createSession(
    s: { tokenHash: string; login: string; kind: "pending" | "session"; expiresAt: Date; now: Date; clientAddress: string; challenge?: string },
    tx?: EntityManager,
  ): Promise<void> {
    await this.#db(tx)
      .insertInto("console_session")
      .values({
        token_hash: s.tokenHash,
        login: s.login,
        kind: s.kind,
        created_at: s.now,
        last_seen_at: s.now,
        expires_at: s.expiresAt,
        client_address: s.clientAddress,
        challenge: s.challenge ?? null,
      })
      .execute();
  }

  async session(tokenHash: string, tx?: EntityManager, lock = false): Promise<SessionRecord | undefined> {
    let q = this.#db(tx).selectFrom("console_session").selectAll().where("token_hash", "=", tokenHash);
    if (lock) q = q.forUpdate();
    const r = await q.executeTakeFirst();
    if (!r) return undefined;
    return {
      tokenHash: r.token_hash,
      login: r.login,
      kind: r.kind === "pending" ? "pending" : "session",
      expiresAt: r.expires_at,
      endedAt: r.ended_at ?? null,
      challenge: r.challenge ?? null,
    };
  }

  /** Moves a live session's idle end; false when it had ended, was idle past its end at `now`, or began at or before `bornAfter`. */
  async touch(tokenHash: string, now: Date, idleEnd: Date, bornAfter: Date): Promise<boolean> {
    const rows = await this.#db()
      .updateTable("console_session")
      .set({ last_seen_at: now, expires_at: idleEnd })
      .where("token_hash", "=", tokenHash)
      .where("kind", "=", "session")
      .where("ended_at", "is", null)
      .where("expires_at", ">", now)
      .where("created_at", ">", bornAfter)
      .returning("token_hash")
      .execute();
    return rows.length === 1;
  }

  async endSession(tokenHash: string, now: Date, tx?: EntityManager): Promise<void> {
    await this.#db(tx).updateTable("console_session").set({ ended_at: now }).where("token_hash", "=", tokenHash).where("ended_at", "is", null).execute();
  }

  async setChallenge(tokenHash: string, challenge: string | null, tx?: EntityManager): Promise<void> {
    await this.#db(tx).updateTable("console_session").set({ challenge }).where("token_hash", "=", tokenHash).execute();
  }

  async passkeys(login: string, tx?: EntityManager): Promise<PasskeyRecord[]> {
    const rows = await this.#db(tx).selectFrom("operator_passkey").selectAll().where("login", "=", login).orderBy("created_at").execute();
    return rows.map((r) => ({
      id: r.id,
      login: r.login,
      publicKey: r.public_key,
      counter: r.counter,
      transports: r.transports,
      name: r.name,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at ?? null,
    }));
  }

  async addPasskey(p: Omit<PasskeyRecord, "lastUsedAt">, tx: EntityManager): Promise<void> {
    await this.#db(tx)
      .insertInto("operator_passkey")
      .values({
        id: p.id,
        login: p.login,
        public_key: p.publicKey,
        counter: p.counter,
        transports: p.transports,
        name: p.name,
        created_at: p.createdAt,
      })
      .execute();
  }

  async usePasskey(id: string, counter: number, now: Date, tx: EntityManager): Promise<void> {
    await this.#db(tx).updateTable("operator_passkey").set({ counter, last_used_at: now }).where("id", "=", id).execute();
  }

  async deletePasskey(login: string, id: string, tx: EntityManager): Promise<boolean> {
    const rows = await this.#db(tx).deleteFrom("operator_passkey").where("login", "=", login).where("id", "=", id).returning("id").execute();
    return rows.length === 1;
  }
}

type OperatorRow = {
  login: string;
  role: string;
  merchant_ids: string[];
  state: string;
  password_hash?: string | null;
  totp_sealed?: string | null;
  totp_last_step: number;
  recovery_hashes: string[];
  failed_attempts: number;
  locked_until?: Date | null;
  enrol_expires_at?: Date | null;
  last_sign_in_at?: Date | null;
  created_by: string;
  access_issued_by: string;
  created_at: Date;
  updated_at: Date;
};

function toOperator(r: OperatorRow, passkeyCount: number): OperatorRecord {
  return {
    login: r.login,
    role: r.role as Role,
    merchantIds: r.merchant_ids,
    state: r.state as OperatorState,
    passwordHash: r.password_hash ?? null,
    totpSealed: r.totp_sealed ?? null,
    totpLastStep: r.totp_last_step,
    recoveryHashes: r.recovery_hashes,
    failedAttempts: r.failed_attempts,
    lockedUntil: r.locked_until ?? null,
    enrolExpiresAt: r.enrol_expires_at ?? null,
    lastSignInAt: r.last_sign_in_at ?? null,
    createdBy: r.created_by,
    accessIssuedBy: r.access_issued_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    passkeyCount,
  };
}
