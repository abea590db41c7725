/**
 * What the Adyen stand-in decides, as data: a payment from its request
 * (cards.ts), the shopper's 3-D Secure answer, and a refund against what is
 * left of an authorised payment. Each returns the ledger record and the
 * notifications it owes; nothing here writes or sends.
 */
import { randomBytes } from "node:crypto";
import type { AdyenPayment, AdyenRefund } from "./book.ts";
import { refundable } from "./book.ts";
import { AUTHORISED, decide, NOT_AUTHENTICATED, REFUND_FAILS_HOLDER } from "./cards.ts";
import type { AdyenEvent } from "./notifications.ts";
import { type AdyenPaymentRequest, type AdyenRefundRequest, brandOf } from "./requests.ts";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Adyen's 16-character pspReference. */
export function pspReference(): string {
  return [...randomBytes(16)].map((b) => ALNUM[b % 36]).join("");
}

const authCode = () => String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, "0");

/**
 * A new card payment: its record, what the answer shows (Received for a
 * pending one, which the record already holds authorised), and the
 * notifications owed now (none while the shopper is being challenged).
 */
export function takePayment(scope: string, req: AdyenPaymentRequest, now: number): { p: AdyenPayment; shown: AdyenPayment; events: AdyenEvent[] } {
  const { card } = req;
  const nowDate = new Date(now);
  const expired = Date.UTC(Number(card.expiryYear), Number(card.expiryMonth), 1) <= nowDate.getTime();
  const byCard = decide(card.number, card.holderName, req.testCode, expired);
  // A MOTO payment is out of scope of 3-D Secure: a challenge card authorises.
  const d = byCard.kind === "challenge" && req.moto ? ({ kind: "result", result: AUTHORISED } as const) : byCard;
  const p: AdyenPayment = {
    scope,
    psp: pspReference(),
    merchantAccount: req.merchantAccount,
    reference: req.reference,
    value: req.value,
    currency: req.currency,
    brand: brandOf(card.number),
    last4: card.number.slice(-4),
    expiry: `${card.expiryMonth}/${card.expiryYear}`,
    returnUrl: req.returnUrl,
    at: now,
    result: d.kind === "challenge" ? { resultCode: "RedirectShopper" } : d.result,
    refundsFail: card.holderName?.trim().toLowerCase() === REFUND_FAILS_HOLDER,
    refunds: [],
  };
  if (d.kind === "challenge") {
    const challenged = { ...p, redirect: { page: randomBytes(16).toString("hex"), after: AUTHORISED } };
    return { p: challenged, shown: challenged, events: [] };
  }
  if (d.result.resultCode === "Received") {
    // Pending: the answer says Received, the notification brings the authorisation.
    return { p: { ...p, result: AUTHORISED, authCode: authCode() }, shown: p, events: [{ code: "AUTHORISATION" }] };
  }
  const decided = { ...p, ...(d.result.resultCode === "Authorised" ? { authCode: authCode() } : {}) };
  return { p: decided, shown: decided, events: [{ code: "AUTHORISATION" }] };
}

/** The shopper's answer on the challenge page (the first one stands): the fields it changes and its notification. */
export function completeChallenge(p: AdyenPayment, passed: boolean): { set: Partial<AdyenPayment>; events: AdyenEvent[] } | undefined {
  if (!p.redirect || p.redirect.answer) return undefined;
  const result = passed ? p.redirect.after : NOT_AUTHENTICATED;
  const redirect = { ...p.redirect, answer: passed ? ("passed" as const) : ("failed" as const), redirectResult: randomBytes(24).toString("base64url") };
  return { set: { redirect, result, ...(result.resultCode === "Authorised" ? { authCode: authCode() } : {}) }, events: [{ code: "AUTHORISATION" }] };
}

/** A refund: received always; refused when the payment is not authorised or too little is left; failing later for "refund failed". */
export function takeRefund(p: AdyenPayment, req: AdyenRefundRequest, now: number): { refund: AdyenRefund; events: AdyenEvent[] } {
  const base = { psp: pspReference(), value: req.value, reference: req.reference, at: now };
  const refusal =
    p.result.resultCode !== "Authorised"
      ? "Original payment is not authorised"
      : req.currency !== p.currency
        ? "Currency does not match the original payment"
        : req.value > refundable(p)
          ? "Refund amount exceeds the remaining balance"
          : undefined;
  if (refusal) {
    const refund: AdyenRefund = { ...base, outcome: "refused", reason: refusal };
    return { refund, events: [{ code: "REFUND", refund }] };
  }
  if (p.refundsFail) {
    const refund: AdyenRefund = { ...base, outcome: "failed", reason: "Refund failed at the scheme (simulated)" };
    return {
      refund,
      events: [
        { code: "REFUND", refund },
        { code: "REFUND_FAILED", refund },
      ],
    };
  }
  const refund: AdyenRefund = { ...base, outcome: "refunded" };
  return { refund, events: [{ code: "REFUND", refund }] };
}
