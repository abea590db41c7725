/**
 * Holding a payout that waits for a decision, and releasing it
 * (docs/backoffice-operations.md, Money actions). A hold takes the payout
 * out of the queue and refuses every approval of it, single or bulk, until an
 * operator releases it; a rejection or cancellation still ends it. A hold
 * changes no status and no payout letter (CONTRACT section 5 has none for
 * it), so the platform is sent nothing for it: its UpdatePayout comes with
 * the decision that ends the wait. Both are audited, a refused one as a
 * failure, the hold's row in the hold's own transaction.
 */
import { canonicalJson } from "../domain/audit-chain.ts";
import { describeViolations, domainError, type DomainError } from "../../shared/errors.ts";
import type { ProcessDeps } from "../../payments/index.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { PayoutHold } from "../ports/money-actions.ts";
import { actionReasonFaults } from "./action-reason.ts";
import type { SignedIn } from "./console-session.ts";
import { payoutFace, scopedPayout } from "./console-payouts.ts";

type Deps = ProcessDeps & BackofficeDeps;

export type HoldResult = { ok: true; hold: PayoutHold } | { ok: false; error: DomainError };
export type ReleaseResult = { ok: true } | { ok: false; error: DomainError };

/** Refused before the payout is read (no merchant named) or after: audited either way. */
async function refusedRow(deps: Deps, who: SignedIn, action: string, traceId: number, error: DomainError, merchantId = "") {
  await deps.audit.append({
    actor: who.scope.login,
    action,
    outcome: "failure",
    merchantId,
    target: `trace_id:${traceId}`,
    clientAddress: who.caller.clientAddress,
    detail: error.message,
  });
  return { ok: false as const, error };
}

export async function holdPayout(deps: Deps, who: SignedIn, traceId: number, reason: string): Promise<HoldResult> {
  const faults = actionReasonFaults(reason);
  if (faults.length > 0) return refusedRow(deps, who, "payout.hold", traceId, domainError("INVALID_FIELDS", describeViolations(faults), faults));
  const payout = await scopedPayout(deps, who, traceId);
  if (!payout) return refusedRow(deps, who, "payout.hold", traceId, domainError("NOT_FOUND", `no payout with trace_id ${traceId}`));
  const text = reason.trim();
  const at = deps.now();
  const outcome = await deps.operators.transaction(async (tx) => {
    const held = await deps.backoffice.hold({ traceId, login: who.scope.login, reason: text, at }, tx);
    if (held === "held")
      await deps.audit.append(
        {
          actor: who.scope.login,
          action: "payout.hold",
          outcome: "success",
          merchantId: payout.merchantId,
          target: `trace_id:${traceId}`,
          clientAddress: who.caller.clientAddress,
          beforeJson: canonicalJson(payoutFace(payout)),
          afterJson: canonicalJson({ ...payoutFace(payout), held_by: who.scope.login, reason: text }),
        },
        tx,
      );
    return held;
  });
  if (outcome === "held") return { ok: true, hold: { traceId, login: who.scope.login, reason: text, heldAt: at } };
  const error =
    outcome === "already-held"
      ? domainError("INVALID_STATE", `the payout is already held by ${(await deps.backoffice.holds([traceId])).get(traceId)?.login ?? "another operator"}`)
      : domainError(
          "INVALID_STATE",
          `the payout is ${payout.status}${payout.payoutLetter ? ` (${payout.payoutLetter})` : ""}: only a payout waiting for a decision can be held`,
        );
  return refusedRow(deps, who, "payout.hold", traceId, error, payout.merchantId);
}

export async function releasePayout(deps: Deps, who: SignedIn, traceId: number, reason: string): Promise<ReleaseResult> {
  const faults = actionReasonFaults(reason);
  if (faults.length > 0) return refusedRow(deps, who, "payout.release", traceId, domainError("INVALID_FIELDS", describeViolations(faults), faults));
  const payout = await scopedPayout(deps, who, traceId);
  if (!payout) return refusedRow(deps, who, "payout.release", traceId, domainError("NOT_FOUND", `no payout with trace_id ${traceId}`));
  const text = reason.trim();
  const released = await deps.operators.transaction(async (tx) => {
    const hold = await deps.backoffice.release(traceId, tx);
    if (hold)
      await deps.audit.append(
        {
          actor: who.scope.login,
          action: "payout.release",
          outcome: "success",
          merchantId: payout.merchantId,
          target: `trace_id:${traceId}`,
          clientAddress: who.caller.clientAddress,
          beforeJson: canonicalJson({ ...payoutFace(payout), held_by: hold.login, hold_reason: hold.reason }),
          afterJson: canonicalJson({ ...payoutFace(payout), reason: text }),
        },
        tx,
      );
    return hold !== undefined;
  });
  if (released) return { ok: true };
  return refusedRow(deps, who, "payout.release", traceId, domainError("INVALID_STATE", "the payout is not held"), payout.merchantId);
}
