/**
 * Creating, changing, disabling and resetting operators: the same use cases
 * for the command line (`npm run operator`), AdminService (service tokens)
 * and the console (admins). Each change and its audit row commit together;
 * the enrolment token is returned once and stored only as a keyed hash.
 */
import { canonicalJson } from "../domain/audit-chain.ts";
import { describeViolations, domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { CONSOLE_RULES } from "../domain/console-rules.ts";
import { isRole, LOGIN_PATTERN, type Role } from "../domain/operator-roles.ts";
import { newToken, tokenHash } from "../domain/operator-credentials.ts";
import type { OperatorRecord } from "../ports/operators.ts";
import type { Tx } from "../ports/transactions.ts";
import type { BackofficeDeps } from "../ports/ports.ts";

/** Who asks for the change, as the audit log names them. */
export interface Actor {
  name: string;
  clientAddress?: string;
}

export type OperatorResult = { ok: true; operator: OperatorRecord; enrolment?: { token: string; expiresAt: Date } } | { ok: false; error: DomainError };

/** The operator's public face for before/after values: no credential, ever. */
export const operatorFace = (o: OperatorRecord) => ({ login: o.login, role: o.role, merchant_ids: o.merchantIds, state: o.state });

async function scopeFaults(deps: BackofficeDeps, role: string, merchantIds: string[]): Promise<FieldViolation[]> {
  const faults: FieldViolation[] = [];
  if (!isRole(role)) faults.push({ field: "role", description: "must be one of viewer, support, payouts, admin" });
  if (new Set(merchantIds).size !== merchantIds.length) faults.push({ field: "merchant_ids", description: "must not repeat a merchant" });
  for (const id of merchantIds) {
    if (!(await deps.merchants.get(id, { fresh: true })))
      faults.push({ field: "merchant_ids", description: `names no merchant: ${JSON.stringify(id.slice(0, 64))}` });
  }
  return faults;
}

const invalid = (faults: FieldViolation[]): OperatorResult => ({ ok: false, error: domainError("INVALID_FIELDS", describeViolations(faults), faults) });
const notFound = (login: string): OperatorResult => ({
  ok: false,
  error: domainError("NOT_FOUND", `no operator with login ${JSON.stringify(login.slice(0, 64))}`),
});

function newEnrolment(deps: BackofficeDeps) {
  const token = newToken();
  return { token, hash: tokenHash(deps.keys.tokenHash, token), expiresAt: new Date(deps.now().getTime() + CONSOLE_RULES.enrolmentMs) };
}

export async function createOperator(deps: BackofficeDeps, actor: Actor, login: string, role: string, merchantIds: string[]): Promise<OperatorResult> {
  const faults: FieldViolation[] = [];
  if (!LOGIN_PATTERN.test(login)) faults.push({ field: "login", description: "must be 3 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit" });
  faults.push(...(await scopeFaults(deps, role, merchantIds)));
  if (faults.length > 0) return invalid(faults);
  const enrolment = newEnrolment(deps);
  const now = deps.now();
  const created = await deps.operators.transaction(async (tx) => {
    const made = await deps.operators.create(
      { login, role: role as Role, merchantIds, createdBy: actor.name, enrolHash: enrolment.hash, enrolExpiresAt: enrolment.expiresAt, now },
      tx,
    );
    if (!made) return undefined;
    const op = (await deps.operators.get(login, tx)) as OperatorRecord;
    await deps.audit.append(
      {
        actor: actor.name,
        action: "operator.create",
        outcome: "success",
        target: `operator:${login}`,
        clientAddress: actor.clientAddress,
        afterJson: canonicalJson(operatorFace(op)),
      },
      tx,
    );
    return op;
  });
  if (!created) return { ok: false, error: domainError("ALREADY_EXISTS", `an operator with login ${login} already exists`) };
  return { ok: true, operator: created, enrolment: { token: enrolment.token, expiresAt: enrolment.expiresAt } };
}

export async function updateOperator(deps: BackofficeDeps, actor: Actor, login: string, role: string, merchantIds: string[]): Promise<OperatorResult> {
  const faults = await scopeFaults(deps, role, merchantIds);
  if (faults.length > 0) return invalid(faults);
  return change(deps, actor, login, "operator.update", async (_before, tx, now) => {
    await deps.operators.setRole(login, role as Role, merchantIds, now, tx);
    // A narrower role takes effect at once: the operator signs in again.
    await deps.operators.endSessions(login, now, tx);
    return undefined;
  });
}

export async function disableOperator(deps: BackofficeDeps, actor: Actor, login: string): Promise<OperatorResult> {
  return change(deps, actor, login, "operator.disable", async (_before, tx, now) => {
    await deps.operators.disable(login, now, tx);
    return undefined;
  });
}

export async function resetOperator(deps: BackofficeDeps, actor: Actor, login: string): Promise<OperatorResult> {
  const enrolment = newEnrolment(deps);
  return change(deps, actor, login, "operator.reset", async (_before, tx, now) => {
    await deps.operators.reset(login, actor.name, enrolment.hash, enrolment.expiresAt, now, tx);
    return { token: enrolment.token, expiresAt: enrolment.expiresAt };
  });
}

async function change(
  deps: BackofficeDeps,
  actor: Actor,
  login: string,
  action: string,
  apply: (before: OperatorRecord, tx: Tx, now: Date) => Promise<{ token: string; expiresAt: Date } | undefined>,
): Promise<OperatorResult> {
  const now = deps.now();
  const done = await deps.operators.transaction(async (tx) => {
    const before = await deps.operators.get(login, tx, true);
    if (!before) return undefined;
    const enrolment = await apply(before, tx, now);
    const after = (await deps.operators.get(login, tx)) as OperatorRecord;
    await deps.audit.append(
      {
        actor: actor.name,
        action,
        outcome: "success",
        target: `operator:${login}`,
        clientAddress: actor.clientAddress,
        beforeJson: canonicalJson(operatorFace(before)),
        afterJson: canonicalJson(operatorFace(after)),
      },
      tx,
    );
    return { operator: after, enrolment };
  });
  if (!done) return notFound(login);
  return { ok: true, ...done };
}
