/**
 * A sale cancelled from the Backoffice: a reason, the merchant scope, then
 * payments' cancelSaleByOperator, which takes only a sale waiting for its
 * customer on Cashier's own 3-D Secure page (payments/domain/sale-cancel.ts
 * names every other case's reason). The audit row commits with the step to
 * cancelled; a refused cancel is audited as a failure.
 */
import { canonicalJson } from "../domain/audit-chain.ts";
import { inScope } from "../domain/operator-roles.ts";
import { describeViolations, domainError, type DomainError } from "../../shared/errors.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { cancelSaleByOperator, type ProcessDeps } from "../../payments/index.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import { actionReasonFaults } from "./action-reason.ts";
import type { SignedIn } from "./console-session.ts";

export type ConsoleCancel = { ok: true; attempt: Attempt } | { ok: false; error: DomainError };

export async function cancelSaleFromConsole(deps: ProcessDeps & BackofficeDeps, who: SignedIn, traceId: number, reason: string): Promise<ConsoleCancel> {
  const login = who.scope.login;
  const base = { actor: login, action: "transaction.cancel", target: `trace_id:${traceId}`, clientAddress: who.caller.clientAddress };
  const faults = actionReasonFaults(reason);
  const sale = faults.length > 0 ? undefined : await deps.orders.get(traceId);
  if (sale?.type !== "sale" || !inScope(who.scope, sale.merchantId)) {
    // Audited with no merchant: one outside the scope is not named.
    const error =
      faults.length > 0 ? domainError("INVALID_FIELDS", describeViolations(faults), faults) : domainError("NOT_FOUND", `no sale with trace_id ${traceId}`);
    await deps.audit.append({ ...base, outcome: "failure", detail: error.message });
    return { ok: false, error };
  }
  const text = reason.trim();
  const face = (a: Attempt) => canonicalJson({ status: a.status, amount_minor: a.amountMinor, currency: a.currency });
  let written = false;
  const result = await cancelSaleByOperator(deps, traceId, `backoffice:${login}`, text, async (tx, after) => {
    await deps.audit.append(
      {
        ...base,
        outcome: "success",
        merchantId: sale.merchantId,
        beforeJson: face(sale),
        afterJson: canonicalJson({ ...JSON.parse(face(after)), reason: text }),
      },
      tx,
    );
    written = true;
  });
  if (!result.ok && !written)
    await deps.audit.append({
      ...base,
      outcome: "failure",
      merchantId: sale.merchantId,
      beforeJson: face(sale),
      afterJson: canonicalJson({ reason: text }),
      detail: result.error.message,
    });
  return result;
}
