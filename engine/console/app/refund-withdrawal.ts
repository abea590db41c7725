/**
 * Withdrawing a refund request that waits for its second approval (docs/backoffice-operations.md, Money actions):
 * the operator who asked for it, or an admin, may take it back with a reason; another operator is refused
 * (PERMISSION_DENIED, audited), whatever form or call they send. The request is deleted with its audit row
 * (`transaction.refund.first.withdraw`, the request before, who withdrew it and why after) in one transaction. No
 * money moved and no state changed, so the platform is sent nothing.
 */
import { canonicalJson } from "../domain/audit-chain.ts";
import { ConsoleRefusal } from "../domain/console-rules.ts";
import { inScope } from "../domain/operator-roles.ts";
import { describeViolations, domainError, type DomainError } from "../../shared/errors.ts";
import type { ProcessDeps } from "../../payments/index.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { RefundFirstApproval } from "../ports/money-actions.ts";
import { actionReasonFaults } from "./action-reason.ts";
import type { SignedIn } from "./console-session.ts";

type Deps = ProcessDeps & BackofficeDeps;

/** The audit log's action of a withdrawal, refused ones too. */
export const WITHDRAW_ACTION = "transaction.refund.first.withdraw";

export type Withdrawal = { ok: true; withdrawn: RefundFirstApproval } | { ok: false; error: DomainError };

const requestFace = (r: RefundFirstApproval) => ({ amount_minor: r.amountMinor, currency: r.currency, first_approval: r.login, request_reason: r.reason });

export async function withdrawRefundRequest(deps: Deps, who: SignedIn, traceId: number, reason: string): Promise<Withdrawal> {
  const login = who.scope.login;
  const target = `trace_id:${traceId}`;
  const refused = async (error: DomainError, merchantId?: string): Promise<Withdrawal> => {
    await deps.audit.append({
      actor: login,
      action: WITHDRAW_ACTION,
      outcome: "failure",
      target,
      clientAddress: who.caller.clientAddress,
      detail: error.message,
      ...(merchantId ? { merchantId } : {}),
    });
    return { ok: false, error };
  };
  const faults = actionReasonFaults(reason);
  if (faults.length > 0) return refused(domainError("INVALID_FIELDS", describeViolations(faults), faults));
  const sale = await deps.orders.get(traceId);
  if (sale?.type !== "sale" || !inScope(who.scope, sale.merchantId)) return refused(domainError("NOT_FOUND", `no sale with trace_id ${traceId}`));
  const first = await deps.backoffice.refundFirstApproval(traceId);
  if (!first) return refused(domainError("INVALID_STATE", "no refund request of this sale waits for a second approval"), sale.merchantId);
  if (first.login !== login && who.scope.role !== "admin") {
    const refusal = new ConsoleRefusal("ACTION_DENIED", {
      action: WITHDRAW_ACTION,
      message: `only ${first.login}, who asked for this refund, or an admin may withdraw it: ${WITHDRAW_ACTION}`,
    });
    await refused(domainError("INVALID_STATE", refusal.message), sale.merchantId);
    throw refusal;
  }
  const text = reason.trim();
  const done = await deps.operators.transaction(async (tx) => {
    // Only the request read above: one approved or replaced meanwhile is not withdrawn by this call.
    if (!(await deps.backoffice.forgetRefundFirstApproval(traceId, first.login, tx))) return false;
    await deps.audit.append(
      {
        actor: login,
        action: WITHDRAW_ACTION,
        outcome: "success",
        merchantId: sale.merchantId,
        target,
        clientAddress: who.caller.clientAddress,
        beforeJson: canonicalJson(requestFace(first)),
        afterJson: canonicalJson({ withdrawn_by: login, reason: text }),
      },
      tx,
    );
    return true;
  });
  if (!done) return refused(domainError("INVALID_STATE", "the refund request was used or withdrawn meanwhile: look at the sale again"), sale.merchantId);
  return { ok: true, withdrawn: first };
}
