/**
 * Runs one attempt through its processor: call -> decide (pure table) ->
 * advance (check the transition, record it with what it owes). A payout with
 * auto approval walks requested -> A -> P before the processor is called; a
 * manual one waits for an operator. The cascade's later attempts and an
 * operator's approval come back here through submitAttempt.
 */
import { decide, step, type ProcessorOutcome } from "../domain/outcome.ts";
import { maskCardNumbers } from "../../shared/card.ts";
import type { Attempt, CustomerInput } from "../../shared/transaction.ts";
import type { CardDetails, ChargeRequest, PaymentParty } from "../processors/processor.ts";
import { callWithin } from "../processors/call-within.ts";
import { hmacHex } from "../../shared/hmac.ts";
import { advance, type StepContext } from "./advance.ts";
import { isMotoSale, motoOutcome } from "../domain/moto.ts";
import type { Merchant } from "../ports/merchants.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import type { RefundableSale } from "../ports/orders.ts";
import { cascadeOf } from "./route-order.ts";

export interface RunInput {
  attempt: Attempt;
  card: CardDetails;
  sale: RefundableSale | undefined;
  ctx: StepContext;
  /** The request's customer, in memory for the first attempt (later ones read the order's). */
  customer?: CustomerInput;
}

/** The 3-D Secure page of an attempt: the trace_id plus a MAC, so ids cannot be guessed. */
export function challengeMac(deps: ProcessDeps, traceId: number): string {
  return hmacHex(deps.keys.tokenHash, `3ds:${traceId}`).slice(0, 32);
}

function challengeUrl(deps: ProcessDeps, traceId: number): string {
  return `${deps.publicUrl()}/3ds/${traceId}/${challengeMac(deps, traceId)}`;
}

/**
 * Where a real acquirer sends the customer back after its own 3-D Secure page: the challenge's own address (the
 * same trace_id and MAC) with /return, so that the return needs no token of its own and the page it lands on is
 * the one the customer left from.
 */
export function challengeReturnUrl(deps: ProcessDeps, traceId: number): string {
  return `${challengeUrl(deps, traceId)}/return`;
}

/**
 * Where a challenge sends the customer. The Process reply's redirect_url is always Cashier's own challenge page
 * (`cashierPage`): the hosted Cashier frames it with its parent, it knows whether the challenge is still open or
 * expired, and it works without script. A real acquirer's page (the outcome's redirectUrl) is kept beside it, and
 * Cashier's page sends an open challenge's customer on there with a plain 303. Not a challenge: neither.
 */
export function challengeRedirects(outcome: ProcessorOutcome, cashierPage: string): { redirectUrl: string | null; acquirerRedirectUrl: string | null } {
  if (outcome.kind !== "challenge") return { redirectUrl: null, acquirerRedirectUrl: null };
  return { redirectUrl: cashierPage, acquirerRedirectUrl: outcome.redirectUrl || null };
}

/** Whether a retry answer ends the attempt: not a sale, or no account after this one in its order's cascade. */
export function isLastInCascade(a: Pick<Attempt, "type" | "attempt" | "cascade">, merchant: Merchant): boolean {
  return a.type !== "sale" || a.attempt >= cascadeOf(a, merchant).length;
}

/**
 * The customer as an acquirer's risk checks read it. The free-text members go with any card number in them masked,
 * as the order keeps them (customer-record.ts), so the first attempt and the cascade's later ones send the same.
 */
export function paymentParty(c: CustomerInput): PaymentParty {
  return {
    firstName: maskCardNumbers(c.firstName),
    lastName: maskCardNumbers(c.lastName),
    email: c.email,
    phone: c.phone,
    address: maskCardNumbers(c.address),
    city: maskCardNumbers(c.city),
    zip: c.zip,
    country: c.country,
    state: c.state,
    dob: c.dob,
    ip: c.requesterIp,
  };
}

/** A processor call within its time limit, its answer counted. */
export async function askProcessor(deps: ProcessDeps, a: Attempt, call: () => Promise<ProcessorOutcome>): Promise<ProcessorOutcome> {
  const outcome = await callWithin(call, deps.schedule.processor.timeoutMs);
  deps.onProcessorOutcome?.(a.processor, a.type, outcome.kind);
  return outcome;
}

/**
 * The call an attempt makes, through the capability its type takes; a
 * processor without it is refused by name (CAPABILITY_MISSING).
 */
function callFor(deps: ProcessDeps, a: Attempt, charge: ChargeRequest, sale: Pick<RefundableSale, "transactionId"> | undefined, merchant: Merchant) {
  const reg = deps.processors;
  if (a.type === "payout") {
    const c = reg.capability(a.processor, "payout", merchant);
    return c.ok ? { ok: true as const, call: () => c.calls.payout(charge) } : c;
  }
  if (a.type === "refund") {
    const c = reg.capability(a.processor, "refund", merchant);
    return c.ok ? { ok: true as const, call: () => c.calls.refund({ ...charge, saleTransactionId: sale?.transactionId ?? "" }) } : c;
  }
  const c = reg.capability(a.processor, "sale", merchant);
  return c.ok ? { ok: true as const, call: () => c.calls.authorize(charge) } : c;
}

/** Calls the attempt's processor (a payout is at P by now) and records the answer. */
export async function submitAttempt(
  deps: ProcessDeps,
  a: Attempt,
  card: CardDetails,
  sale: Pick<RefundableSale, "transactionId"> | undefined,
  ctx: StepContext,
  customer?: CustomerInput,
): Promise<Attempt> {
  // The request's customer when it is in memory; else the order's (a cascade attempt, an operator's approval).
  const party = customer ?? (await deps.orders.customer(a.orderRef));
  const moto = isMotoSale(a);
  const charge: ChargeRequest = {
    traceId: a.traceId,
    amountMinor: a.amountMinor,
    currency: a.currency,
    card,
    orderId: a.orderId,
    ...(party ? { customer: paymentParty(party) } : {}),
    returnUrl: challengeReturnUrl(deps, a.traceId),
    // A MOTO sale has no customer at a browser: no 3-D Secure (domain/moto.ts).
    ...(moto ? { moto: true } : {}),
  };
  const call = callFor(deps, a, charge, sale, ctx.merchant);
  // Nothing was sent: the attempt fails (E for a sale) with the refusal's words as its details.
  let outcome: ProcessorOutcome = call.ok ? await askProcessor(deps, a, call.call) : { kind: "unavailable", message: call.error.message };
  if (moto) outcome = motoOutcome(outcome);
  // A challenge that this processor could never finish is refused by name, not left open.
  if (outcome.kind === "challenge") {
    const finish = deps.processors.capability(a.processor, "threeDSecure", ctx.merchant);
    if (!finish.ok) outcome = { kind: "unavailable", message: finish.error.message };
  }
  const decision = decide(a.type, outcome, isLastInCascade(a, ctx.merchant));
  const redirects = challengeRedirects(outcome, challengeUrl(deps, a.traceId));
  // A sale or refund comes here as it was created (a payout has told A and P already); the platform that saw no reply
  // of it (a Cashier session's order, the cascade's next attempt) hears its first result even when it stays pending.
  const firstResult = ctx.afterReply && a.type !== "payout";
  return (await advance(deps, a, { ...decision, ...redirects }, { ...ctx, cardNumber: card.number, firstResult })).attempt;
}

/**
 * An approved payout's walk to its processor: A (authorised), P (in progress),
 * then the call. A step that is not applied lost a race (another operator,
 * another engine): that one goes on, and this one reports `won: false`.
 */
export async function payOut(
  deps: ProcessDeps,
  a: Attempt,
  card: CardDetails,
  ctx: StepContext,
  cause: string,
  customer?: CustomerInput,
): Promise<{ attempt: Attempt; won: boolean }> {
  // The decision's own writes (an operator's audit row) go with the approval (A), not with what follows it.
  const { alongside, ...plain } = ctx;
  const withCard = { ...plain, cardNumber: card.number };
  const authorised = await advance(deps, a, step({ status: "pending", letter: "A" }, cause), { ...withCard, alongside });
  if (!authorised.applied) return { attempt: authorised.attempt, won: false };
  const sent = await advance(deps, authorised.attempt, step({ status: "pending", letter: "P" }, "sent-to-processor"), withCard);
  if (!sent.applied) return { attempt: sent.attempt, won: false };
  return { attempt: await submitAttempt(deps, sent.attempt, card, undefined, plain, customer), won: true };
}

export async function runAttempt(deps: ProcessDeps, input: RunInput): Promise<Attempt> {
  const a = input.attempt;
  if (a.type === "payout") {
    if (input.ctx.merchant.payoutApproval === "manual") {
      // Waits in requested; the card is sealed for the operator's approval.
      if (!a.cardHeld)
        return (
          await advance(deps, a, step(undefined, "awaiting-approval"), { ...input.ctx, cardNumber: input.card.number, firstResult: input.ctx.afterReply })
        ).attempt;
      return a;
    }
    return (await payOut(deps, a, input.card, input.ctx, "auto-approval", input.customer)).attempt;
  }
  return submitAttempt(deps, a, input.card, input.sale, input.ctx, input.customer);
}
