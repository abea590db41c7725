/**
 * Moves an attempt one step: check the transition against the domain's table,
 * work out what the step owes (callbacks, the card kept or dropped, the
 * cascade's next attempt, when to look again) and write it all in one
 * statement. Every status change of the engine goes through here.
 */
import type { Decision } from "../domain/outcome.ts";
import { maskCardNumbers } from "../../shared/card.ts";
import { canTransition, cardStillNeeded, stateOf } from "../domain/transitions.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { sealCard } from "./held-card.ts";
import { owedCallbacks, type ChangeContext } from "./owed-callbacks.ts";
import type { Alongside, ApplyResult } from "../ports/orders.ts";
import type { Merchant } from "../ports/merchants.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { cascadeOf } from "./route-order.ts";
import { pendingPollDelayMs } from "./schedule.ts";
import type { Schedule } from "../ports/schedule.ts";

/** How long to wait before asking a processor again about a pending attempt: a tenth of its age, 1 s to 5 min by default. */
export function pollDelayMs(a: Attempt, now: Date, poll: Schedule["pendingPoll"]): number {
  return pendingPollDelayMs(poll, now.getTime() - a.createdAt.getTime());
}

class TransitionRefused extends Error {}

export interface StepContext extends ChangeContext {
  merchant: Merchant;
  /** The full card number, when this step has it in memory (to seal it if needed). */
  cardNumber?: string;
  /** Written in this step's own database transaction (an operator's audit row); this step only, never the next. */
  alongside?: Alongside;
  /**
   * This step records the attempt's first result: it is told as a change is (a notification, when the platform saw
   * no reply of it) even when the state stays as the attempt was created (a sale the processor left pending, a
   * manual payout waiting in requested).
   */
  firstResult?: boolean;
}

export async function advance(deps: ProcessDeps, a: Attempt, decision: Decision, ctx: StepContext): Promise<ApplyResult> {
  const from = stateOf(a);
  const to = decision.to;
  if (to && !canTransition(a.type, from, to)) {
    throw new TransitionRefused(`refused transition ${a.type} ${from.status}/${from.letter ?? ""} -> ${to.status}/${to.letter ?? ""}`);
  }
  const next = to ?? from;
  const now = deps.now();
  const needed = cardStillNeeded(a.type, next);
  const card = needed && !a.cardHeld && ctx.cardNumber ? { sealed: sealCard(deps, a, ctx.cardNumber) } : !needed && a.cardHeld ? { sealed: null } : undefined;
  const newChallenge = next.status === "pending_async" && a.status !== "pending_async";
  const challengeExpiresAt = newChallenge ? new Date(now.getTime() + deps.schedule.challenge.ttlSeconds * 1000) : a.challengeExpiresAt;
  const waitingForProcessor = to === undefined && decision.awaitsProcessor === true;
  // A step into pending that waits for nothing in particular (a payout's A or P,
  // before its processor call) is looked at again if its engine dies there.
  const nextCheckAt =
    next.status === "pending_async"
      ? challengeExpiresAt
      : waitingForProcessor
        ? new Date(now.getTime() + pollDelayMs(a, now, deps.schedule.pendingPoll))
        : next.status === "pending"
          ? new Date(now.getTime() + deps.schedule.recovery.pendingRecheckMs)
          : null;
  // The order's own cascade (a routing rule's, kept with the order), else the merchant's processors.
  const cascadeProcessor = next.status === "declined_retry" ? (cascadeOf(a, ctx.merchant)[a.attempt] ?? null) : null;

  const after: Attempt = {
    ...a,
    status: next.status,
    payoutLetter: next.letter ?? null,
    depositState: decision.depositState ?? a.depositState,
    transactionId: decision.transactionId ?? a.transactionId,
    errorCode: decision.errorCode ?? a.errorCode,
    // Whoever wrote them (an operator, the platform, a processor), the details are stored and sent: no card number.
    errorDetails: decision.errorDetails != null ? maskCardNumbers(decision.errorDetails) : a.errorDetails,
    redirectUrl: decision.redirectUrl ?? a.redirectUrl,
    acquirerRedirectUrl: decision.acquirerRedirectUrl ?? a.acquirerRedirectUrl,
    processorCode: decision.processorCode ?? a.processorCode,
  };
  const callbacks = to || ctx.firstResult ? owedCallbacks(a, after, ctx.merchant, ctx) : [];
  const result = await deps.orders.applyDecision(
    a.traceId,
    from,
    { ...decision, to },
    {
      callbacks,
      card,
      nextCheckAt,
      challengeExpiresAt: newChallenge ? challengeExpiresAt : null,
      submitted: true,
      cascadeProcessor,
      alongside: ctx.alongside,
    },
  );
  if (result.applied && (callbacks.length > 0 || result.nextTraceId !== null)) deps.wake();
  return result;
}
