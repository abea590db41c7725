/**
 * The 3-D Secure challenge as the hosted page sees it: open, finished or
 * expired, found by trace_id and the MAC of its redirect_url (a wrong MAC is
 * "not found", never a hint). The customer's answer goes to the processor
 * (complete) and its decision is recorded like any other; a failed check is
 * declined (N) with 9004. An open challenge past its expiry is expired on the
 * spot, not only by the worker. A real acquirer's challenge is its own page:
 * the customer comes back from it to the same challenge (returnFromChallenge),
 * and the acquirer, asked with what it put on the return URL, gives the verdict.
 */
import { timingSafeEqual } from "node:crypto";
import { ERROR_CODES, domainError, type DomainError } from "../../shared/errors.ts";
import { decide } from "../domain/outcome.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { advance, type StepContext } from "./advance.ts";
import { expiryDecision } from "./follow-up.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { withReturnUrl } from "./return-url.ts";
import { askProcessor, challengeMac } from "./run-attempt.ts";

export type ChallengeState = "open" | "finished" | "expired";
export interface ChallengeView {
  state: ChallengeState;
  attempt: Attempt;
}

const NOT_FOUND = domainError("NOT_FOUND", "no such 3-D Secure challenge");

function macMatches(deps: ProcessDeps, traceId: number, mac: string): boolean {
  const expected = Buffer.from(challengeMac(deps, traceId));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(expected, given);
}

const challengeState = (a: Attempt): ChallengeState =>
  a.status === "pending_async" ? "open" : a.errorCode === ERROR_CODES.THREE_DS_EXPIRED ? "expired" : "finished";

async function context(deps: ProcessDeps, a: Attempt): Promise<StepContext | undefined> {
  const merchant = await deps.merchants.get(a.merchantId);
  return merchant ? { merchant, afterReply: true, updatedBy: "customer" } : undefined;
}

/** The challenge as stored (its order's return_url sealed for a session's order). */
async function findChallenge(deps: ProcessDeps, traceId: number, mac: string): Promise<{ ok: true; view: ChallengeView } | { ok: false; error: DomainError }> {
  if (!macMatches(deps, traceId, mac)) return { ok: false, error: NOT_FOUND };
  let a = await deps.orders.get(traceId);
  if (a?.type !== "sale" || !a.redirectUrl) return { ok: false, error: NOT_FOUND };
  const now = deps.now();
  const completing = a.completingUntil !== null && a.completingUntil > now;
  if (a.status === "pending_async" && !completing && a.challengeExpiresAt && a.challengeExpiresAt <= now) {
    const ctx = await context(deps, a);
    if (ctx) a = (await advance(deps, a, expiryDecision(), ctx)).attempt;
  }
  return { ok: true, view: { state: challengeState(a), attempt: a } };
}

/** The view the page shows, with the return_url its Continue leads to. */
const shown = (deps: ProcessDeps, v: ChallengeView): ChallengeView => ({ ...v, attempt: withReturnUrl(deps, v.attempt) });

export async function getChallenge(
  deps: ProcessDeps,
  traceId: number,
  mac: string,
): Promise<{ ok: true; view: ChallengeView } | { ok: false; error: DomainError }> {
  const found = await findChallenge(deps, traceId, mac);
  return found.ok ? { ok: true, view: shown(deps, found.view) } : found;
}

export async function completeChallenge(
  deps: ProcessDeps,
  traceId: number,
  mac: string,
  passed: boolean,
): Promise<{ ok: true; attempt: Attempt } | { ok: false; error: DomainError; view?: ChallengeView }> {
  const found = await findChallenge(deps, traceId, mac);
  if (!found.ok) return found;
  const { view } = found;
  const refused = (v: ChallengeView) => ({
    ok: false as const,
    error: domainError("INVALID_STATE", `the 3-D Secure challenge is ${v.state}`),
    view: shown(deps, v),
  });
  if (view.state !== "open") return refused(view);
  const a = view.attempt;
  const ctx = await context(deps, a);
  // An acquirer's challenge is answered on its own page, never by the simulators' form.
  if (!ctx || !a.transactionId || a.acquirerRedirectUrl) return { ok: false, error: NOT_FOUND };
  const finish = deps.processors.capability(a.processor, "threeDSecure", ctx.merchant);
  if (!finish.ok) return { ok: false, error: finish.error };
  // One answer only: a second click, another engine or the expiry cannot also finish it.
  if (!(await deps.followUps.claimChallenge(a.traceId, deps.schedule.challenge.answerClaimMs))) {
    const now = await deps.orders.get(a.traceId);
    return refused({ state: now ? challengeState(now) : "finished", attempt: now ?? a });
  }
  const transactionId = a.transactionId;
  const outcome = await askProcessor(deps, a, () => finish.calls.complete(transactionId, passed));
  let decision = decide("sale", outcome, true);
  if (!passed && decision.to?.status === "declined") {
    decision = { ...decision, errorCode: ERROR_CODES.THREE_DS_FAILED, errorDetails: "3-D Secure authentication failed", cause: "challenge:failed" };
  } else if (passed) {
    decision = { ...decision, cause: `challenge:passed/${decision.cause}` };
  }
  const result = await advance(deps, a, decision, ctx);
  if (!result.applied) return refused({ state: challengeState(result.attempt), attempt: result.attempt });
  return { ok: true, attempt: withReturnUrl(deps, result.attempt) };
}

/** At most this many parameters on an acquirer's return, each name and value bounded: more is not an acquirer's. */
export const MAX_RETURN_PARAMS = 20;
const MAX_PARAM_NAME = 64;
const MAX_PARAM_VALUE = 8192;

/** Whether the acquirer's return parameters are of a shape any acquirer sends (Adyen's redirectResult is a few KB). */
export function returnParamsFit(params: Readonly<Record<string, string>>): boolean {
  const entries = Object.entries(params);
  return entries.length <= MAX_RETURN_PARAMS && entries.every(([k, v]) => k.length > 0 && k.length <= MAX_PARAM_NAME && v.length <= MAX_PARAM_VALUE);
}

/**
 * The customer back from a real acquirer's own challenge page, at the challenge's return URL: the acquirer is asked
 * for the verdict (its connector's `returned`, a details call or a lookup, with what it put on the URL) and the
 * answer is recorded as the simulators' is, under the same one-answer claim, so that a second return, another
 * engine, the acquirer's webhook or the expiry cannot also finish it. An answer without a verdict yet (pending)
 * leaves the challenge open for the acquirer's webhook, the follow-up worker's lookup or its expiry.
 */
export async function returnFromChallenge(
  deps: ProcessDeps,
  traceId: number,
  mac: string,
  params: Readonly<Record<string, string>>,
): Promise<{ ok: true; attempt: Attempt } | { ok: false; error: DomainError; view?: ChallengeView }> {
  const found = await findChallenge(deps, traceId, mac);
  if (!found.ok) return found;
  const { view } = found;
  // A simulator's challenge is answered on Cashier's page: it has no return.
  if (!view.attempt.acquirerRedirectUrl) return { ok: false, error: NOT_FOUND };
  const refused = (v: ChallengeView) => ({
    ok: false as const,
    error: domainError("INVALID_STATE", `the 3-D Secure challenge is ${v.state}`),
    view: shown(deps, v),
  });
  if (view.state !== "open") return refused(view);
  if (!returnParamsFit(params)) return { ok: false, error: domainError("INVALID_FIELDS", "the acquirer's return parameters are out of bounds") };
  const a = view.attempt;
  const ctx = await context(deps, a);
  if (!ctx || !a.transactionId) return { ok: false, error: NOT_FOUND };
  const finish = deps.processors.capability(a.processor, "threeDSecure", ctx.merchant);
  if (!finish.ok) return { ok: false, error: finish.error };
  const returned = finish.calls.returned?.bind(finish.calls);
  if (!returned)
    return { ok: false, error: domainError("CAPABILITY_MISSING", `processor ${a.processor} cannot take a customer back from its 3-D Secure page`) };
  if (!(await deps.followUps.claimChallenge(a.traceId, deps.schedule.challenge.answerClaimMs))) {
    const now = await deps.orders.get(a.traceId);
    return refused({ state: now ? challengeState(now) : "finished", attempt: now ?? a });
  }
  const transactionId = a.transactionId;
  const asked = await askProcessor(deps, a, () => returned(transactionId, params));
  // A second challenge is no verdict: the attempt waits, open, for the acquirer's word.
  const outcome = asked.kind === "challenge" ? { kind: "pending" as const, transactionId: asked.transactionId } : asked;
  const decided = decide("sale", outcome, true);
  const result = await advance(deps, a, { ...decided, cause: `challenge:returned/${decided.cause}` }, ctx);
  return { ok: true, attempt: withReturnUrl(deps, result.attempt) };
}
