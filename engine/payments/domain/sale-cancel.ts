/**
 * When an operator may cancel a sale still pending (docs/backoffice-operations.md, Money actions), as a pure rule.
 * No connector can void a payment (processor.ts's capabilities have no such call), so a cancel is taken only where
 * nothing has been authorised and nothing will be unless Cashier asks: a sale waiting in pending_async for its
 * customer's answer on Cashier's own 3-D Secure page, whose processor authorises only when Cashier sends that answer
 * (threeDSecure.complete). Everywhere else the refusal names why: the processor has the payment (pending), or the
 * customer is at the acquirer's own page, where the acquirer authorises when the step ends without Cashier.
 */
import type { Attempt } from "../../shared/transaction.ts";

/** Why this sale cannot be cancelled now, in words for the operator; undefined when it can. */
export function saleCancelRefusal(
  a: Pick<Attempt, "type" | "status" | "processor" | "acquirerRedirectUrl" | "completingUntil">,
  now: Date,
): string | undefined {
  if (a.type !== "sale") return "only a sale can be cancelled here (a payout is cancelled by its decision)";
  if (a.status === "pending")
    return `the sale is with its processor ${a.processor}, which may be authorising it, and no connector can void a payment: wait for its answer, then refund it if approved`;
  if (a.status !== "pending_async") return `the sale is ${a.status}: only a sale still waiting for its customer can be cancelled`;
  if (a.acquirerRedirectUrl)
    return `the customer's 3-D Secure step is on ${a.processor}'s own page, where the acquirer authorises the payment when the step ends, and no connector can void it: wait for the answer, then refund it if approved`;
  if (a.completingUntil && a.completingUntil > now) return "the customer's 3-D Secure answer is being sent to the processor right now: wait for its answer";
  return undefined;
}
