/**
 * What happens to an attempt after the Process reply, without the platform
 * asking: the follow-up worker claims attempts whose next check is due and
 * - submits a cascade attempt to its processor (the card comes from the
 *   order's sealed copy; the CVV was never kept, so later attempts go without it);
 * - asks the processor for the final answer of a pending attempt (the same
 *   path a real acquirer's asynchronous answer takes), and looks again later
 *   while it stays pending;
 * - expires an abandoned 3-D Secure challenge: declined (N), 9005.
 * Every change is notified, being after the reply, and so is a cascade
 * attempt's first result when it stays pending.
 */
import { ERROR_CODES } from "../../shared/errors.ts";
import { decide, step } from "../domain/outcome.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { startWorkPool, type PollLoop } from "../../shared/runtime/poll-loop.ts";
import { advance, type StepContext } from "./advance.ts";
import { heldCard } from "./held-card.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { lookupAbout } from "./lookup-about.ts";
import { askProcessor, isLastInCascade, submitAttempt } from "./run-attempt.ts";

export function expiryDecision() {
  return step({ status: "declined" }, "challenge:expired", {
    depositState: "N",
    errorCode: ERROR_CODES.THREE_DS_EXPIRED,
    errorDetails: "3-D Secure challenge expired",
  });
}

const cardGone = () =>
  step({ status: "declined" }, "follow-up:card-gone", {
    depositState: "E",
    errorCode: ERROR_CODES.PROCESSOR_UNAVAILABLE,
    errorDetails: "The card is no longer held for this order",
  });

/**
 * A cascade attempt: claimed first (one engine only, and once: a charge is
 * never sent twice), then sent with the sealed card. If this engine dies while
 * sending, the attempt is looked at again when the submit lease runs out and
 * its processor is asked by trace_id.
 */
async function submitCascadeAttempt(deps: ProcessDeps, a: Attempt, ctx: StepContext): Promise<void> {
  if (!(await deps.followUps.claimSubmit(a.traceId, deps.schedule.recovery.submitLeaseMs))) return;
  const card = await heldCard(deps, a);
  if (!card) {
    await advance(deps, a, cardGone(), ctx);
    return;
  }
  await submitAttempt(deps, a, card, undefined, ctx);
}

/**
 * A payout found in requested by the sweep: its engine died before it was
 * sent on (during Validation). A manual one waits with its card sealed and is
 * left to its operator; without the card nothing can be paid: declined (J).
 */
async function interruptedPayout(deps: ProcessDeps, a: Attempt, ctx: StepContext): Promise<void> {
  if (a.cardHeld) {
    await deps.followUps.clearCheck(a.traceId);
    return;
  }
  await advance(
    deps,
    a,
    step({ status: "declined", letter: "J" }, "follow-up:interrupted", {
      errorCode: ERROR_CODES.PROCESSOR_UNAVAILABLE,
      errorDetails: "Processing was interrupted before the payout was sent",
    }),
    ctx,
  );
}

/** An approved payout whose engine stopped at A: the walk goes on (P, then the processor). */
async function resumePayout(deps: ProcessDeps, a: Attempt, ctx: StepContext): Promise<void> {
  const card = await heldCard(deps, a);
  if (!card) {
    await advance(
      deps,
      a,
      step({ status: "cancelled", letter: "C" }, "follow-up:card-gone", {
        errorCode: ERROR_CODES.PROCESSOR_UNAVAILABLE,
        errorDetails: "The card is no longer held for this payout",
      }),
      ctx,
    );
    return;
  }
  const sent = await advance(deps, a, step({ status: "pending", letter: "P" }, "sent-to-processor"), { ...ctx, cardNumber: card.number });
  if (sent.applied) await submitAttempt(deps, sent.attempt, card, undefined, ctx);
}

export async function followUp(deps: ProcessDeps, traceId: number): Promise<void> {
  const a = await deps.orders.get(traceId);
  if (!a) return;
  const merchant = await deps.merchants.get(a.merchantId);
  if (!merchant) return;
  const ctx: StepContext = { merchant, afterReply: true, updatedBy: "system" };
  const now = deps.now();
  if (a.status === "pending_async") {
    // A customer's answer being sent to the processor right now is left to finish.
    if (a.completingUntil && a.completingUntil > now) return;
    // An answer was sent and its reply lost (a crash, a timeout): the processor knows how it ended.
    if (a.completingUntil && a.transactionId) {
      const lookup = deps.processors.capability(a.processor, "statusLookup", merchant);
      const transactionId = a.transactionId;
      const outcome = lookup.ok ? await askProcessor(deps, a, () => lookup.calls.status(transactionId, { type: "sale" })) : undefined;
      if (outcome && (outcome.kind === "approved" || outcome.kind === "declined")) {
        await advance(deps, a, { ...decide("sale", outcome, true), cause: "challenge:answer-recovered" }, ctx);
        return;
      }
    }
    if (a.challengeExpiresAt && a.challengeExpiresAt <= now) await advance(deps, a, expiryDecision(), ctx);
    else await advance(deps, a, step(undefined, "challenge:open"), ctx);
    return;
  }
  if (a.status === "requested" && a.type === "payout") return interruptedPayout(deps, a, ctx);
  if (a.status === "pending" && a.type === "payout" && a.payoutLetter === "A") return resumePayout(deps, a, ctx);
  const awaitsProcessor = a.status === "pending" && (a.type !== "payout" || a.payoutLetter === "P");
  if (!awaitsProcessor) {
    await deps.followUps.clearCheck(a.traceId);
    return;
  }
  if (!a.submitted) return submitCascadeAttempt(deps, a, ctx);
  const lookup = deps.processors.capability(a.processor, "statusLookup", merchant);
  if (!lookup.ok) {
    // Nothing can ask this processor (no statusLookup): the attempt waits for its processor's own word or an operator.
    await deps.followUps.clearCheck(a.traceId);
    return;
  }
  // No processor id: the answer was lost (a crash or a timeout mid-call); ask by trace_id.
  const transactionId = a.transactionId;
  const about = await lookupAbout(deps, a);
  let outcome = await askProcessor(deps, a, () => (transactionId ? lookup.calls.status(transactionId, about) : lookup.calls.find(a.traceId, about)));
  // A "no record" that a processor could not fence is final only once a call still in flight has had time to arrive.
  const young = now.getTime() - a.createdAt.getTime() < deps.schedule.recovery.noRecordAfterMs;
  if (!transactionId && outcome.kind === "unavailable" && outcome.mayArriveLate && young) {
    outcome = { kind: "unknown", transactionId: "", message: outcome.message };
  }
  await advance(deps, a, decide(a.type, outcome, isLastInCascade(a, merchant)), ctx);
}

/**
 * Claims due attempts for the follow-up lease (one processor call plus a
 * margin) and, every sweep interval, first marks due the attempts whose engine
 * died mid-way (still pending with no check, older than the recovery horizon).
 * Every interval and lease comes from deps.schedule.
 */
export function startFollowUpWorker(deps: ProcessDeps, opts: { concurrency: number; onError: (err: unknown) => void }): PollLoop {
  const { workers, followUp: lease, recovery } = deps.schedule;
  let lastSweep = 0;
  return startWorkPool({
    claim: async (n) => {
      const at = deps.now().getTime();
      if (at - lastSweep >= recovery.sweepEveryMs) {
        lastSweep = at;
        await deps.followUps.sweepStuck(recovery.sweepGraceSeconds);
        await deps.followUps.sweepForLookup(recovery.lookupGraceSeconds);
      }
      return deps.followUps.claimDue(n, lease.leaseMs);
    },
    work: (id) => followUp(deps, id),
    max: opts.concurrency,
    pollMs: workers.pollMs,
    drainMs: workers.drainMs,
    onError: opts.onError,
  });
}
