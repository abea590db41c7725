/**
 * The operator row as the console's stores read it, and the writes that
 * follow an operator's change in other tables: shared by the operator,
 * sign-in, enrolment and console-session stores.
 */
import type { Role } from "../domain/operator-roles.ts";
import type { OperatorRecord, OperatorState, PendingChange } from "../ports/operators.ts";
import type { Db } from "./console-db.ts";

/** One operator with its passkey count; `lock` takes its row's lock (in a transaction). */
export async function readOperator(db: Db, login: string, lock = false): Promise<OperatorRecord | undefined> {
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

/** Ends every live session and pending sign-in of the operator. */
export async function endSessionsOf(db: Db, login: string, now: Date): Promise<void> {
  await db.updateTable("console_session").set({ ended_at: now }).where("login", "=", login).where("ended_at", "is", null).execute();
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
  pending_kind?: string | null;
  pending_role?: string | null;
  pending_merchant_ids?: string[] | null;
  pending_enrol_hash?: string | null;
  pending_by?: string | null;
  pending_at?: Date | null;
  enrol_browser_hash?: string | null;
  created_at: Date;
  updated_at: Date;
};

/** An operator row (with its passkey count) as the use cases read it. */
export function toOperator(r: OperatorRow, passkeyCount: number): OperatorRecord {
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
    pending:
      r.pending_kind && r.pending_role && r.pending_by && r.pending_at
        ? {
            kind: r.pending_kind as PendingChange["kind"],
            role: r.pending_role as Role,
            merchantIds: r.pending_merchant_ids ?? [],
            enrolHash: r.pending_enrol_hash ?? null,
            proposedBy: r.pending_by,
            proposedAt: r.pending_at,
          }
        : null,
    enrolBrowserHash: r.enrol_browser_hash ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    passkeyCount,
  };
}
