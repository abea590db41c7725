/**
 * Creating, changing, disabling and resetting operators: the same use cases
 * for the command line (`npm run operator`), AdminService (service tokens)
 * and the console (admins). Each change and its audit row commit together;
 * the enrolment token is returned once and stored only as a keyed hash.
 * Under dual control (the console's admins, and the command line once an
 * admin exists: app/dual-control.ts) a change giving payout rights, or a reset
 * of an account holding them, is proposed by one caller and applied when
 * another makes the same change.
 */
import { canonicalJson } from "../domain/audit-chain.ts";
import { describeViolations, domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { CONSOLE_RULES } from "../domain/console-rules.ts";
import { isRole, LOGIN_PATTERN, type Role } from "../domain/operator-roles.ts";
import { newToken, tokenHash } from "../domain/operator-credentials.ts";
import type { OperatorRecord } from "../ports/operators.ts";
import type { Tx } from "../ports/transactions.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import { checkConfirmer, confirmsDetail, grantsPayoutRights, holdsPayoutRights, PROPOSED_DETAIL, sameChange, stillOpen } from "./dual-control.ts";

/** Who asks for the change, as the audit log names them. */
export interface Actor {
  name: string;
  clientAddress?: string;
}

/**
 * Whether the caller's changes giving payout rights wait for a second caller (dual control): the console's admins
 * always, the command line once an admin exists; AdminService's callers never (a service token decides payouts at
 * once anyway, docs/backoffice-operations.md).
 */
export interface ChangeRules {
  dualControl?: boolean;
}

export type OperatorResult =
  | {
      ok: true;
      operator: OperatorRecord;
      /** The link: for a proposal, it works once a second admin confirms. */
      enrolment?: { token: string; expiresAt: Date };
      /** proposed: nothing applied yet, another admin confirms; confirmed: this call applied another's proposal. */
      dualControl?: "proposed" | "confirmed";
    }
  | { ok: false; error: DomainError };

/** The operator's public face for before/after values: no credential, ever. */
export const operatorFace = (o: OperatorRecord) => ({
  login: o.login,
  role: o.role,
  merchant_ids: o.merchantIds,
  state: o.state,
  ...(o.pending ? { pending: { kind: o.pending.kind, role: o.pending.role, merchant_ids: o.pending.merchantIds, proposed_by: o.pending.proposedBy } } : {}),
});

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

export async function createOperator(
  deps: BackofficeDeps,
  actor: Actor,
  login: string,
  role: string,
  merchantIds: string[],
  rules: ChangeRules = {},
): Promise<OperatorResult> {
  const faults: FieldViolation[] = [];
  if (!LOGIN_PATTERN.test(login)) faults.push({ field: "login", description: "must be 3 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit" });
  faults.push(...(await scopeFaults(deps, role, merchantIds)));
  if (faults.length > 0) return invalid(faults);
  const proposing = rules.dualControl === true && grantsPayoutRights(role as Role, merchantIds);
  const enrolment = newEnrolment(deps);
  const now = deps.now();
  const created = await deps.operators.transaction(async (tx): Promise<OperatorResult | undefined> => {
    const made = await deps.operators.create(
      {
        login,
        role: role as Role,
        merchantIds,
        createdBy: actor.name,
        enrolHash: enrolment.hash,
        enrolExpiresAt: enrolment.expiresAt,
        now,
        proposed: proposing,
      },
      tx,
    );
    if (!made) return proposing ? confirmCreation(deps, actor, login, role as Role, merchantIds, tx) : undefined;
    const op = (await deps.operators.get(login, tx)) as OperatorRecord;
    await deps.audit.append(
      {
        actor: actor.name,
        action: proposing ? "operator.propose" : "operator.create",
        outcome: "success",
        target: `operator:${login}`,
        clientAddress: actor.clientAddress,
        afterJson: canonicalJson(operatorFace(op)),
        detail: proposing ? PROPOSED_DETAIL : undefined,
      },
      tx,
    );
    return { ok: true, operator: op, enrolment: { token: enrolment.token, expiresAt: enrolment.expiresAt }, ...(proposing ? { dualControl: "proposed" } : {}) };
  });
  return created ?? { ok: false, error: domainError("ALREADY_EXISTS", `an operator with login ${login} already exists`) };
}

/**
 * The same creation asked again while it is proposed: a second admin confirms it (the link the proposer holds starts
 * working, for 72 hours from now); anything else under a taken login is ALREADY_EXISTS (undefined).
 */
async function confirmCreation(deps: BackofficeDeps, actor: Actor, login: string, role: Role, merchantIds: string[], tx: Tx) {
  const before = await deps.operators.get(login, tx, true);
  if (!before) return undefined;
  const p = before.pending;
  if (before.state !== "proposed" || !p || !sameChange(p, "create", role, merchantIds)) return undefined;
  await checkConfirmer(deps, actor.name, before, p, tx);
  const now = deps.now();
  await deps.operators.confirmCreate(login, p.proposedBy, new Date(now.getTime() + CONSOLE_RULES.enrolmentMs), now, tx);
  const after = (await deps.operators.get(login, tx)) as OperatorRecord;
  await appendChange(deps, actor, "operator.create", before, after, tx, confirmsDetail(p));
  return { ok: true as const, operator: after, dualControl: "confirmed" as const };
}

function appendChange(deps: BackofficeDeps, actor: Actor, action: string, before: OperatorRecord, after: OperatorRecord, tx: Tx, detail?: string) {
  return deps.audit.append(
    {
      actor: actor.name,
      action,
      outcome: "success",
      target: `operator:${before.login}`,
      clientAddress: actor.clientAddress,
      beforeJson: canonicalJson(operatorFace(before)),
      afterJson: canonicalJson(operatorFace(after)),
      detail,
    },
    tx,
  );
}

export async function updateOperator(
  deps: BackofficeDeps,
  actor: Actor,
  login: string,
  role: string,
  merchantIds: string[],
  rules: ChangeRules = {},
): Promise<OperatorResult> {
  const faults = await scopeFaults(deps, role, merchantIds);
  if (faults.length > 0) return invalid(faults);
  return change(deps, actor, login, "operator.update", async (before, tx, now) => {
    if (rules.dualControl && grantsPayoutRights(role as Role, merchantIds, before)) {
      const p = before.pending;
      if (!p || !stillOpen(p, now) || !sameChange(p, "update", role as Role, merchantIds)) {
        await deps.operators.setPending(
          login,
          { kind: "update", role: role as Role, merchantIds, enrolHash: null, proposedBy: actor.name, proposedAt: now },
          now,
          tx,
        );
        return { proposed: true };
      }
      await checkConfirmer(deps, actor.name, before, p, tx);
      await apply();
      return { confirms: confirmsDetail(p) };
    }
    await apply();
    return {};
    async function apply() {
      await deps.operators.setRole(login, role as Role, merchantIds, now, tx);
      // A narrower role takes effect at once: the operator signs in again.
      await deps.operators.endSessions(login, now, tx);
    }
  });
}

/** Disables the operator; a proposed one's creation, or any change waiting for confirmation, is withdrawn with it. */
export async function disableOperator(deps: BackofficeDeps, actor: Actor, login: string): Promise<OperatorResult> {
  return change(deps, actor, login, "operator.disable", async (_before, tx, now) => {
    await deps.operators.disable(login, now, tx);
    return {};
  });
}

export async function resetOperator(deps: BackofficeDeps, actor: Actor, login: string, rules: ChangeRules = {}): Promise<OperatorResult> {
  const enrolment = newEnrolment(deps);
  const link = { token: enrolment.token, expiresAt: enrolment.expiresAt };
  return change(deps, actor, login, "operator.reset", async (before, tx, now) => {
    if (rules.dualControl && holdsPayoutRights(before.role) && before.state !== "proposed") {
      const p = before.pending;
      if (!p || !stillOpen(p, now) || p.kind !== "reset" || !p.enrolHash) {
        // The proposer holds the new link; it works once another admin confirms the reset.
        const pending = {
          kind: "reset" as const,
          role: before.role,
          merchantIds: before.merchantIds,
          enrolHash: enrolment.hash,
          proposedBy: actor.name,
          proposedAt: now,
        };
        await deps.operators.setPending(login, pending, now, tx);
        return { proposed: true, enrolment: link };
      }
      await checkConfirmer(deps, actor.name, before, p, tx);
      await deps.operators.reset(login, p.proposedBy, p.enrolHash, new Date(now.getTime() + CONSOLE_RULES.enrolmentMs), now, tx);
      return { confirms: confirmsDetail(p) };
    }
    await deps.operators.reset(login, actor.name, enrolment.hash, enrolment.expiresAt, now, tx);
    return { enrolment: link };
  });
}

/** What a change did: proposed only (dual control), applied another's proposal, and the link it made, if any. */
interface Applied {
  proposed?: boolean;
  confirms?: string;
  enrolment?: { token: string; expiresAt: Date };
}

async function change(
  deps: BackofficeDeps,
  actor: Actor,
  login: string,
  action: string,
  apply: (before: OperatorRecord, tx: Tx, now: Date) => Promise<Applied>,
): Promise<OperatorResult> {
  const now = deps.now();
  const done = await deps.operators.transaction(async (tx) => {
    const before = await deps.operators.get(login, tx, true);
    if (!before) return undefined;
    const applied = await apply(before, tx, now);
    const after = (await deps.operators.get(login, tx)) as OperatorRecord;
    await appendChange(deps, actor, applied.proposed ? "operator.propose" : action, before, after, tx, applied.proposed ? PROPOSED_DETAIL : applied.confirms);
    const dualControl = applied.proposed ? ("proposed" as const) : applied.confirms ? ("confirmed" as const) : undefined;
    return { operator: after, enrolment: applied.enrolment, ...(dualControl ? { dualControl } : {}) };
  });
  if (!done) return notFound(login);
  return { ok: true, ...done };
}
