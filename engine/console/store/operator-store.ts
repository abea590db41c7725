/**
 * Operators (013): created, changed, disabled and reset, each in the
 * caller's transaction (`tx`) where its audit row is written too. Times of
 * day come from the caller (the app clock). Sign-ins, enrolment, console
 * sessions and passkeys have stores of their own beside this one.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Role } from "../domain/operator-roles.ts";
import type { NewOperator, OperatorRecord, OperatorState, OperatorStore, PendingChange } from "../ports/operators.ts";
import type { Tx } from "../../store/tx.ts";
import { consoleDb } from "./console-db.ts";
import { endSessionsOf, readOperator, toOperator } from "./operator-rows.ts";

/** The columns of a change waiting for confirmation, cleared: any change that is made, or a disable, ends it. */
const NO_PENDING = {
  pending_kind: null,
  pending_role: null,
  pending_merchant_ids: null,
  pending_enrol_hash: null,
  pending_by: null,
  pending_at: null,
} as const;

export class PgOperatorStore implements OperatorStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async get(login: string, tx?: Tx, lock = false): Promise<OperatorRecord | undefined> {
    return readOperator(consoleDb(this.#orm, tx), login, lock);
  }

  async list(state?: OperatorState): Promise<OperatorRecord[]> {
    const db = consoleDb(this.#orm);
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
  async create(op: NewOperator, tx: Tx): Promise<boolean> {
    const rows = await consoleDb(this.#orm, tx)
      .insertInto("operator")
      .values({
        login: op.login,
        role: op.role,
        merchant_ids: op.merchantIds,
        state: op.proposed ? "proposed" : "enrolling",
        ...(op.proposed
          ? { pending_kind: "create", pending_role: op.role, pending_merchant_ids: op.merchantIds, pending_by: op.createdBy, pending_at: op.now }
          : {}),
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

  async setRole(login: string, role: Role, merchantIds: string[], now: Date, tx: Tx): Promise<void> {
    await consoleDb(this.#orm, tx)
      .updateTable("operator")
      .set({ role, merchant_ids: merchantIds, ...NO_PENDING, updated_at: now })
      .where("login", "=", login)
      .execute();
    await this.#voidFirstApprovals(login, tx);
  }

  /**
   * The operator's four-eyes first approvals no longer count once its access changes (disabled, reset, another role or
   * scope): moved back later, it must approve again (console-payouts.ts also checks at the second approval).
   */
  async #voidFirstApprovals(login: string, tx: Tx): Promise<void> {
    await consoleDb(this.#orm, tx).deleteFrom("payout_first_approval").where("login", "=", login).execute();
  }

  /** Disabled: no sign-in, no enrolment link, no change pending, every session ended. */
  async disable(login: string, now: Date, tx: Tx): Promise<void> {
    const db = consoleDb(this.#orm, tx);
    await db
      .updateTable("operator")
      .set({ state: "disabled", enrol_token_hash: null, enrol_expires_at: null, ...NO_PENDING, updated_at: now })
      .where("login", "=", login)
      .execute();
    await endSessionsOf(db, login, now);
    await this.#voidFirstApprovals(login, tx);
  }

  /** Every credential cleared, enrolling again with a new link. */
  async reset(login: string, issuedBy: string, enrolHash: string, enrolExpiresAt: Date, now: Date, tx: Tx): Promise<void> {
    const db = consoleDb(this.#orm, tx);
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
        enrol_browser_hash: null,
        access_issued_by: issuedBy,
        ...NO_PENDING,
        updated_at: now,
      })
      .where("login", "=", login)
      .execute();
    await db.deleteFrom("operator_passkey").where("login", "=", login).execute();
    await endSessionsOf(db, login, now);
    await this.#voidFirstApprovals(login, tx);
  }

  async setPending(login: string, p: PendingChange | null, now: Date, tx: Tx): Promise<void> {
    await consoleDb(this.#orm, tx)
      .updateTable("operator")
      .set(
        p
          ? {
              pending_kind: p.kind,
              pending_role: p.role,
              pending_merchant_ids: p.merchantIds,
              pending_enrol_hash: p.enrolHash,
              pending_by: p.proposedBy,
              pending_at: p.proposedAt,
              updated_at: now,
            }
          : { ...NO_PENDING, updated_at: now },
      )
      .where("login", "=", login)
      .execute();
  }

  async confirmCreate(login: string, issuedBy: string, enrolExpiresAt: Date, now: Date, tx: Tx): Promise<void> {
    await consoleDb(this.#orm, tx)
      .updateTable("operator")
      .set({ state: "enrolling", enrol_expires_at: enrolExpiresAt, access_issued_by: issuedBy, ...NO_PENDING, updated_at: now })
      .where("login", "=", login)
      .where("state", "=", "proposed")
      .execute();
  }
}
