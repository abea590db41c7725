/**
 * What the Checkout.com stand-in decides, as data: a new payment or payout
 * from its request (cards.ts), a refund against what is left of a captured
 * payment, and the customer's 3-D Secure result. Each returns the ledger
 * record and the webhook events it owes; nothing here writes or sends.
 */
import { AUTHENTICATION_FAILED, APPROVED, amountCode, type CkoCode, decidePayout, decideSale } from "./cards.ts";
import type { CkoEventType } from "./events.ts";
import { type CkoPayment, type CkoRefund, refunded } from "./book.ts";
import { authCode, ckoId } from "./ids.ts";
import { cardFacts, type PayoutRequest, type RefundRequest, type SaleRequest } from "./requests.ts";

export interface Taken {
  p: CkoPayment;
  /** 201 (decided now) or 202 (3-D Secure, payout). */
  http: 201 | 202;
  events: CkoEventType[];
}

/** A new sale or payout, decided by the test cards and amounts. */
export function takePayment(scope: string, req: SaleRequest | PayoutRequest, now: number): Taken {
  const p: CkoPayment = {
    scope,
    kind: req.kind,
    id: ckoId("pay"),
    sid: ckoId("sid"),
    action_id: ckoId("act"),
    amount: req.amount,
    currency: req.currency,
    reference: req.reference,
    processing_channel_id: req.processing_channel_id,
    metadata: req.metadata,
    card: cardFacts(req.card),
    requested_on: now,
    status: "Pending",
    approved: false,
    capture: req.kind === "sale" ? req.capture : false,
    refunds: [],
  };
  if (req.kind === "payout") {
    const d = decidePayout(req.card.number, req.amount, req.currency);
    // A payout is accepted (202) and settles at once: paid, or declined with its code.
    if (d.kind === "declined") return { p: { ...p, status: "Declined", response: d.code, processed_on: now }, http: 202, events: ["payment_declined"] };
    return { p: { ...p, status: "Paid", approved: true, response: APPROVED, processed_on: now }, http: 202, events: ["payment_approved", "payment_paid"] };
  }
  const d = decideSale(req.card.number, req.amount, req.currency, req.threeDs, req.moto);
  const withUrls = {
    ...p,
    success_url: req.success_url,
    failure_url: req.failure_url,
    ...(req.threeDs ? { three_ds: { challenged: false } } : {}),
    ...(req.moto ? { moto: true } : {}),
  };
  if (d.kind === "challenge") {
    // What the authorization answers once the customer passes: the amount's code, if it has one.
    const after = amountCode(req.amount, req.currency, true) ?? APPROVED;
    return {
      p: { ...withUrls, three_ds: { challenged: true, after } },
      http: 202,
      events: ["payment_pending"],
    };
  }
  return { ...authorize(withUrls, d.kind === "declined" ? d.code : APPROVED, now), http: 201 };
}

/** The authorization's answer applied: approved (and captured, unless capture is false) or declined. */
function authorize(p: CkoPayment, code: CkoCode, now: number): { p: CkoPayment; events: CkoEventType[] } {
  if (code.code !== APPROVED.code) return { p: { ...p, status: "Declined", approved: false, response: code, processed_on: now }, events: ["payment_declined"] };
  const approved = { ...p, approved: true, response: code, auth_code: authCode(), processed_on: now };
  if (!p.capture) return { p: { ...approved, status: "Authorized" }, events: ["payment_approved"] };
  return { p: { ...approved, status: "Captured", capture_action_id: ckoId("act") }, events: ["payment_approved", "payment_captured"] };
}

/** The customer's 3-D Secure result: the fields it changes and the events it owes (the first result stands). */
export function completeChallenge(p: CkoPayment, passed: boolean, now: number): { set: Partial<CkoPayment>; events: CkoEventType[] } | undefined {
  if (!p.three_ds?.challenged || p.three_ds.result) return undefined;
  const three_ds = { ...p.three_ds, result: passed ? ("passed" as const) : ("failed" as const) };
  const { p: done, events } = authorize({ ...p, three_ds }, passed ? (p.three_ds.after ?? APPROVED) : AUTHENTICATION_FAILED, now);
  const { status, approved, response, auth_code, processed_on, capture_action_id } = done;
  return { set: { three_ds, status, approved, response, auth_code, processed_on, capture_action_id }, events };
}

export type RefundDecision = { ok: true; refund: CkoRefund } | { ok: false; http: 403 | 422; codes?: string[] };

/** A refund of a captured sale: all that is left when no amount is given; never more than is left. */
export function takeRefund(p: CkoPayment, req: RefundRequest, now: number): RefundDecision {
  if (p.kind !== "sale" || !p.capture_action_id || (p.status !== "Captured" && p.status !== "Partially Refunded")) return { ok: false, http: 403 };
  const left = p.amount - refunded(p);
  const amount = req.amount ?? left;
  if (amount > left || amount <= 0) return { ok: false, http: 422, codes: ["refund_amount_exceeds_balance"] };
  return { ok: true, refund: { action_id: ckoId("act"), amount, reference: req.reference, at: now } };
}
