/**
 * An operator's cancel of a sale waiting for its customer's answer on Cashier's own 3-D Secure page
 * (domain/sale-cancel.ts says when): the challenge is claimed first, as the customer's answer claims it, so that the
 * answer and the cancel cannot both be sent; then the sale steps to cancelled (error code 9007 with the operator's
 * reason), notified to the platform like any change and made by `backoffice:<login>`. The processor, which has
 * authorised nothing, is not called: its payment stays unfinished there. `alongside` (the audit row) commits with
 * the step.
 */
import { ERROR_CODES, domainError, type DomainError } from "../../shared/errors.ts";
import { maskCardNumbers } from "../../shared/card.ts";
import { signableText } from "../../shared/canonical.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { step } from "../domain/outcome.ts";
import { saleCancelRefusal } from "../domain/sale-cancel.ts";
import type { Alongside } from "../ports/orders.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { advance } from "./advance.ts";

export type CancelSaleResult = { ok: true; attempt: Attempt } | { ok: false; error: DomainError };

export async function cancelSaleByOperator(deps: ProcessDeps, traceId: number, by: string, reason: string, alongside?: Alongside): Promise<CancelSaleResult> {
  const a = await deps.orders.get(traceId);
  if (a?.type !== "sale") return { ok: false, error: domainError("NOT_FOUND", `no sale with trace_id ${traceId}`) };
  const refused = saleCancelRefusal(a, deps.now());
  if (refused) return { ok: false, error: domainError("INVALID_STATE", refused) };
  const merchant = await deps.merchants.get(a.merchantId);
  if (!merchant) return { ok: false, error: domainError("NOT_FOUND", `the sale's merchant ${a.merchantId} no longer exists`) };
  // One answer only: the customer's, the expiry's, or this cancel.
  if (!(await deps.followUps.claimChallenge(a.traceId, deps.schedule.challenge.answerClaimMs)))
    return { ok: false, error: domainError("INVALID_STATE", "the sale changed meanwhile: its customer answered, or its challenge expired") };
  const details = signableText(maskCardNumbers(reason));
  const result = await advance(deps, a, step({ status: "cancelled" }, `${by}:cancel`, { errorCode: ERROR_CODES.OPERATOR_DECISION, errorDetails: details }), {
    merchant,
    afterReply: true,
    updatedBy: by,
    alongside,
  });
  if (!result.applied) return { ok: false, error: domainError("INVALID_STATE", `the sale changed meanwhile: it is ${result.attempt.status}`) };
  return { ok: true, attempt: result.attempt };
}
