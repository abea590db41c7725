/**
 * Whether an operator's "check now" has anything to do on an attempt, and
 * what the follow-up worker will do when it runs early (engine/payments/app/follow-up.ts
 * walks the same cases): a table of the attempt's state, so that a refusal
 * names its cause instead of making a check due that would change nothing.
 */
import { isFinal, stateOf } from "./transitions.ts";
import type { Attempt } from "../../shared/transaction.ts";

/** What the follow-up does once due: ask the processor, send a cascade attempt or an approved payout on, expire a challenge, or recover a lost 3-D Secure answer. */
export type CheckStep = "look-up" | "send" | "resume-payout" | "expire-challenge" | "recover-answer";

export type CheckVerdict = { ok: true; step: CheckStep } | { ok: false; reason: "INVALID_STATE" | "CAPABILITY_MISSING"; message: string };

export type CheckedAttempt = Pick<
  Attempt,
  "traceId" | "type" | "status" | "payoutLetter" | "processor" | "submitted" | "transactionId" | "challengeExpiresAt" | "completingUntil"
>;

const refuse = (message: string): CheckVerdict => ({ ok: false, reason: "INVALID_STATE", message });

/**
 * `canLookUp`: the attempt's processor declares a status lookup (for its
 * merchant). A payout in requested waits for an operator's decision, not for
 * a processor; an open challenge waits for the customer.
 */
export function checkVerdict(a: CheckedAttempt, now: Date, canLookUp: boolean): CheckVerdict {
  const name = `transaction ${a.traceId}`;
  const status = a.payoutLetter ? `${a.status} (${a.payoutLetter})` : a.status;
  if (isFinal(a.type, stateOf(a))) return refuse(`${name} is ${status}, a final status: there is nothing to look up`);
  if (a.status === "requested") return refuse(`${name} is ${status}: the payout waits for an operator's decision, not for its processor`);
  const noLookup: CheckVerdict = {
    ok: false,
    reason: "CAPABILITY_MISSING",
    message: `${name} is ${status} at processor ${a.processor}, which cannot be asked for a status: it waits for its processor's own answer`,
  };
  if (a.status === "pending_async") {
    if (a.completingUntil && a.completingUntil > now)
      return refuse(`${name} is ${status}: the customer's 3-D Secure answer is being sent to the processor now`);
    if (a.completingUntil && a.transactionId) return canLookUp ? { ok: true, step: "recover-answer" } : noLookup;
    if (a.challengeExpiresAt && a.challengeExpiresAt <= now) return { ok: true, step: "expire-challenge" };
    return refuse(
      `${name} is ${status}: its 3-D Secure challenge is open${a.challengeExpiresAt ? ` until ${a.challengeExpiresAt.toISOString()}` : ""} and waits for the customer`,
    );
  }
  if (a.type === "payout" && a.payoutLetter === "A") return { ok: true, step: "resume-payout" };
  if (!a.submitted) return { ok: true, step: "send" };
  return canLookUp ? { ok: true, step: "look-up" } : noLookup;
}
