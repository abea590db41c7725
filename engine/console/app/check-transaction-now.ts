/**
 * An operator's "check now" on a transaction left non-final: its follow-up
 * (engine/payments/app/follow-up.ts) is made due at once, so the follow-up worker asks
 * the processor (or sends the attempt on, or expires its challenge) at its
 * next claim instead of at the scheduled time, and this engine's workers and,
 * through the work notice, every other engine's are woken. Nothing is decided
 * here: the attempt's status changes only through the follow-up, as it would
 * have later. What would change nothing is refused by its cause
 * (domain/check-now.ts). The change and its audit row commit together.
 */
import { maskCardNumbers } from "../../shared/card.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { type CheckStep, checkVerdict } from "../../payments/index.ts";
import { type DomainError, domainError } from "../../shared/errors.ts";
import { inScope } from "../domain/operator-roles.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { SignedIn } from "./console-session.ts";
import type { ProcessDeps } from "../../payments/index.ts";

/** The operator's reason is kept in the audit log, cut to this. */
export const CHECK_REASON_MAX = 255;

export type CheckNowResult = { ok: true; attempt: Attempt; step: CheckStep; before: Date | null; after: Date } | { ok: false; error: DomainError };

type Deps = Pick<ProcessDeps, "orders" | "merchants" | "processors" | "wake"> & BackofficeDeps;

const face = (a: Attempt, nextCheckAt: Date | null) => ({
  status: a.status,
  payout_letter: a.payoutLetter ?? "",
  next_check_at: nextCheckAt ? nextCheckAt.toISOString() : "",
});

/** Whether the attempt's processor can be asked for a status, for its merchant. */
async function canLookUpFor(deps: Pick<Deps, "merchants" | "processors">, a: Attempt): Promise<boolean> {
  const merchant = await deps.merchants.get(a.merchantId);
  return merchant !== undefined && deps.processors.supports(a.processor, "statusLookup", merchant);
}

/** Whether a check has anything to do on `a` now: what the console shows a "Check now" for (the same table as the check itself). */
export async function checkOffered(deps: Pick<Deps, "merchants" | "processors">, a: Attempt, now: Date): Promise<boolean> {
  return checkVerdict(a, now, await canLookUpFor(deps, a)).ok;
}

export async function checkTransactionNow(deps: Deps, who: SignedIn, traceId: number, reason: string): Promise<CheckNowResult> {
  // Kept in the audit log: a card number typed in is masked.
  const text = maskCardNumbers(reason.trim());
  // Refused before the transaction is read: audited too, with no merchant (one outside the scope is not named).
  const unread = async (error: DomainError): Promise<CheckNowResult> => {
    await deps.audit.append({
      actor: who.scope.login,
      action: "transaction.check",
      outcome: "failure",
      target: `trace_id:${traceId}`,
      clientAddress: who.caller.clientAddress,
      detail: error.message,
    });
    return { ok: false, error };
  };
  if (CONTROL_CHARACTERS.test(text) || [...text].length > CHECK_REASON_MAX) {
    const description = CONTROL_CHARACTERS.test(text) ? "must not contain control characters" : `must be at most ${CHECK_REASON_MAX} characters`;
    return unread(domainError("INVALID_FIELDS", `reason: ${description}`, [{ field: "reason", description }]));
  }
  const a = await deps.orders.get(traceId);
  // Outside the operator's scope the transaction does not exist for them.
  if (!a || !inScope(who.scope, a.merchantId)) return unread(domainError("NOT_FOUND", `no transaction with trace_id ${traceId}`));
  const audit = (outcome: "success" | "failure", before: object, after: object, detail: string, tx?: Parameters<typeof deps.audit.append>[1]) =>
    deps.audit.append(
      {
        actor: who.scope.login,
        action: "transaction.check",
        outcome,
        merchantId: a.merchantId,
        target: `trace_id:${traceId}`,
        clientAddress: who.caller.clientAddress,
        beforeJson: canonicalJson(before),
        afterJson: canonicalJson(after),
        detail,
      },
      tx,
    );
  const refused = async (error: DomainError, now: Attempt): Promise<CheckNowResult> => {
    await audit("failure", face(now, null), {}, [error.message, text].filter(Boolean).join(" | "));
    return { ok: false, error };
  };

  const canLookUp = await canLookUpFor(deps, a);
  const verdict = checkVerdict(a, deps.now(), canLookUp);
  if (!verdict.ok) return refused(domainError(verdict.reason, verdict.message), a);

  const moved = await deps.operators.transaction(async (tx) => {
    const due = await deps.backoffice.checkNow(traceId, a.status, a.payoutLetter, tx);
    if (due) await audit("success", face(a, due.before), { ...face(a, due.after), step: verdict.step }, text, tx);
    return due;
  });
  if (!moved) {
    // Settled (or moved on) between the read and the lock: say what it is now.
    const now = (await deps.orders.get(traceId)) ?? a;
    const again = checkVerdict(now, deps.now(), canLookUp);
    return refused(
      domainError(again.ok ? "INVALID_STATE" : again.reason, again.ok ? `transaction ${traceId} changed meanwhile; look again` : again.message),
      now,
    );
  }
  deps.wake();
  return { ok: true, attempt: a, step: verdict.step, before: moved.before, after: moved.after };
}
