/**
 * What happens to an attempt after the Process reply, without the platform
 * asking: the follow-up worker claims attempts whose next check is due and
 * - submits a cascade attempt to its processor (the card comes from the
 *   order's sealed copy; the CVV was never kept, so later attempts go without it);
 * - asks the processor for the final answer of a pending attempt (the same
 *   path a real acquirer's asynchronous answer takes), and looks again later
 *   while it stays pending;
 * - expires an abandoned 3-D Secure challenge: declined (N), 9005.
 * Every change is notified, being after the reply.
 */
import { ERROR_CODES } from "../domain/errors.ts";
import { decide } from "../domain/outcome.ts";
import type { Attempt } from "../domain/transaction.ts";
import { open } from "../security/sealed-box.ts";
import { startPollLoop, type PollLoop } from "./poll-loop.ts";
import { advance, type StepContext } from "./advance.ts";
import type { ProcessDeps } from "./ports.ts";
import { step, submitAttempt } from "./run-attempt.ts";

export function expiryDecision() {
  return step({ status: "declined" }, "challenge:expired", {
    depositState: "N",
    errorCode: ERROR_CODES.THREE_DS_EXPIRED,
    errorDetails: "3-D Secure challenge expired",
  });
}

async function submitCascadeAttempt(deps: ProcessDeps, a: Attempt, ctx: StepContext): Promise<void> {
  const sealed = await deps.orders.sealedCard(a.orderRef);
  if (!sealed) {
    await advance(deps, a, step({ status: "declined" }, "cascade:card-gone", { depositState: "E", errorCode: ERROR_CODES.PROCESSOR_UNAVAILABLE, errorDetails: "The card is no longer held for this order" }), ctx);
    return;
  }
  const card = { number: open(deps.keys.encryption, sealed, `order:${a.orderRef}`), cvv: "", expiry: a.cardExpiry };
  await submitAttempt(deps, a, card, undefined, ctx);
}

export async function followUp(deps: ProcessDeps, traceId: number): Promise<void> {
  const a = await deps.orders.get(traceId);
  if (!a) return;
  const merchant = await deps.merchants.get(a.merchantId);
  if (!merchant) return;
  const ctx: StepContext = { merchant, afterReply: true, updatedBy: "system" };
  const now = deps.now();
  if (a.status === "pending_async") {
    if (a.challengeExpiresAt && a.challengeExpiresAt <= now) await advance(deps, a, expiryDecision(), ctx);
    else await advance(deps, a, step(undefined, "challenge:open"), ctx);
    return;
  }
  const awaitsProcessor = a.status === "pending" && (a.type !== "payout" || a.payoutLetter === "P");
  if (!awaitsProcessor) {
    await deps.orders.clearCheck(a.traceId);
    return;
  }
  if (!a.submitted) return submitCascadeAttempt(deps, a, ctx);
  const processor = deps.processors.get(a.processor);
  if (!processor || !a.transactionId) {
    await deps.orders.clearCheck(a.traceId);
    return;
  }
  const outcome = await processor.status(a.transactionId);
  deps.onProcessorOutcome?.(a.processor, a.type, outcome.kind);
  const lastInCascade = a.type !== "sale" || a.attempt >= merchant.processors.length;
  await advance(deps, a, decide(a.type, outcome, lastInCascade), ctx);
}

/** Lease on a claimed attempt: long enough for one processor call. */
export const FOLLOW_UP_LEASE_MS = 30_000;

export function startFollowUpWorker(deps: ProcessDeps, opts: { pollMs: number; batch: number; onError: (err: unknown) => void }): PollLoop {
  return startPollLoop(
    async () => {
      const due = await deps.orders.claimDue(opts.batch, FOLLOW_UP_LEASE_MS);
      await Promise.all(due.map((id) => followUp(deps, id).catch(opts.onError)));
      return due.length;
    },
    opts.pollMs,
    opts.onError,
  );
}
