/**
 * An operator's decision on a payout (cashier.admin.v1): approve a manual
 * payout waiting in requested (A, P, then the processor: Y or J), reject it
 * (J, 9007) or cancel it while requested or authorised (C, 9007). Each step
 * is checked against the transition table, recorded with the operator's name
 * and notified; UpdatePayout carries UpdatedBy operator:<name> (AdminService)
 * or backoffice:<login> (the Backoffice). `alongside` is written in the
 * decision's own database transaction (the step to A, J or C), so the
 * Backoffice's audit row and the decision commit together or not at all.
 */
import { ERROR_CODES, describeViolations, domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import { MAX_DESCRIPTION } from "../../shared/canonical.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { maskCardNumbers } from "../../shared/card.ts";
import { canTransition, stateKey, stateOf, type State } from "../domain/transitions.ts";
import { signableText } from "../../shared/canonical.ts";
import { advance, type StepContext } from "./advance.ts";
import { heldCard } from "./held-card.ts";
import type { Alongside } from "../ports/orders.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { payOut } from "./run-attempt.ts";
import { step } from "../domain/outcome.ts";

export type PayoutDecision = "approve" | "reject" | "cancel";
export type DecisionResult = { ok: true; attempt: Attempt } | { ok: false; error: DomainError };

const TARGET: Record<PayoutDecision, State> = {
  approve: { status: "pending", letter: "A" },
  reject: { status: "declined", letter: "J" },
  cancel: { status: "cancelled", letter: "C" },
};

const PAST: Record<PayoutDecision, string> = { approve: "approved", reject: "rejected", cancel: "cancelled" };

/**
 * Where an operator's decision may start. The transition table also holds P -> J, but that is the processor's
 * answer: once a payout is at P the processor has it, and an operator's J would tell the platform to release funds
 * the processor may still pay out.
 */
const DECIDED_FROM: Record<PayoutDecision, readonly string[]> = {
  approve: ["requested"],
  reject: ["requested"],
  cancel: ["requested", "pending:A"],
};

/** Every decision is recorded with who made it, and why: short printable text. */
function decisionTextFaults(operator: string, reason: string): FieldViolation[] {
  const faults: FieldViolation[] = [];
  if (operator.trim() === "") faults.push({ field: "operator", description: "is required: who decides" });
  for (const [field, value] of [
    ["operator", operator],
    ["reason", reason],
  ] as const) {
    if (CONTROL_CHARACTERS.test(value)) faults.push({ field, description: "must not contain control characters" });
    else if ([...value].length > MAX_DESCRIPTION) faults.push({ field, description: `must be at most ${MAX_DESCRIPTION} characters` });
  }
  return faults;
}

/** Who decides: an AdminService caller (operator:<name>) or a Backoffice operator (backoffice:<login>). */
export type DecidedBy = "operator" | "backoffice";

export async function decidePayout(
  deps: ProcessDeps,
  traceId: number,
  decision: PayoutDecision,
  operator: string,
  reason: string,
  by: DecidedBy = "operator",
  alongside?: Alongside,
): Promise<DecisionResult> {
  const faults = decisionTextFaults(operator, reason);
  if (faults.length > 0) return { ok: false, error: domainError("INVALID_FIELDS", describeViolations(faults), faults) };
  const a = await deps.orders.get(traceId);
  if (a?.type !== "payout") return { ok: false, error: domainError("NOT_FOUND", `no payout with trace_id ${traceId}`) };
  if (!DECIDED_FROM[decision].includes(stateKey(stateOf(a))) || !canTransition("payout", stateOf(a), TARGET[decision])) {
    return {
      ok: false,
      error: domainError("INVALID_STATE", `the payout is ${a.status}${a.payoutLetter ? ` (${a.payoutLetter})` : ""}: it cannot be ${PAST[decision]}`),
    };
  }
  // A payout in requested waits for an operator only once its card is sealed for the approval: before that, its
  // Process call is still asking the platform's Validation (or died doing so, and the recovery sweep declines it).
  // A decision then would race the call's own next step and reach the platform before the call's reply does.
  if (a.status === "requested" && !a.cardHeld)
    return {
      ok: false,
      error: domainError(
        "INVALID_STATE",
        `the payout is not waiting for a decision yet: its Process call is still under way (the platform's Validation); it cannot be ${PAST[decision]} until that ends`,
      ),
    };
  const merchant = await deps.merchants.get(a.merchantId);
  if (!merchant) return { ok: false, error: domainError("NOT_FOUND", `the payout's merchant ${a.merchantId} no longer exists`) };
  const who = operator;
  const ctx: StepContext = { merchant, afterReply: true, updatedBy: `${by}:${who}`, alongside };
  if (decision === "approve") {
    const card = await heldCard(deps, a);
    // Sealed while it waits (checked above) and cleared only with a final state: gone only if it moved meanwhile.
    if (!card) return { ok: false, error: domainError("INVALID_STATE", "the payout changed meanwhile: its card is no longer held") };
    const paid = await payOut(deps, a, card, ctx, `${by}:approve:${who}`);
    if (!paid.won) return { ok: false, error: domainError("INVALID_STATE", `the payout changed meanwhile: it is ${paid.attempt.status}`) };
    return { ok: true, attempt: paid.attempt };
  }
  const details = signableText(maskCardNumbers(reason || (decision === "reject" ? "Rejected by an operator" : "Cancelled by an operator")));
  const result = await advance(
    deps,
    a,
    step(TARGET[decision], `${by}:${decision}:${who}`, { errorCode: ERROR_CODES.OPERATOR_DECISION, errorDetails: details }),
    ctx,
  );
  if (!result.applied) return { ok: false, error: domainError("INVALID_STATE", `the payout changed meanwhile: it is ${result.attempt.status}`) };
  return { ok: true, attempt: result.attempt };
}
