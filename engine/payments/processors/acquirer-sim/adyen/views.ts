/**
 * The Adyen stand-in's answers, shaped as Adyen's Checkout API v71 schemas:
 * PaymentResponse (Authorised, Refused, Error, Received, or RedirectShopper
 * with a redirect action), PaymentDetailsResponse, PaymentRefundResponse and
 * ServiceError. Pure functions of a payment.
 */
import type { Answer } from "../http.ts";
import type { AdyenPayment, AdyenRefund } from "./book.ts";

/** Adyen's error body. */
export function serviceError(status: number, errorCode: string, message: string, errorType: "validation" | "security" | "configuration" | "internal"): Answer {
  return { http: status, body: { status, errorCode, message, errorType } };
}

/** The result fields of a decided payment: resultCode, and the refusal's reason and code when refused. */
function result(p: AdyenPayment): Record<string, unknown> {
  const r = p.result;
  return {
    pspReference: p.psp,
    resultCode: r.resultCode,
    ...("refusalReason" in r && r.refusalReason !== undefined ? { refusalReason: r.refusalReason, refusalReasonCode: r.refusalReasonCode } : {}),
    merchantReference: p.reference,
    amount: { currency: p.currency, value: p.value },
    paymentMethod: { brand: p.brand, type: "scheme" },
    ...(p.authCode ? { additionalData: { authCode: p.authCode } } : {}),
  };
}

/** POST /payments: the result, or the redirect to the challenge page. */
export function paymentResponse(p: AdyenPayment, challengeUrl: string | undefined): Record<string, unknown> {
  if (p.result.resultCode !== "RedirectShopper" || !challengeUrl) return result(p);
  return {
    pspReference: p.psp,
    resultCode: "RedirectShopper",
    action: { paymentMethodType: "scheme", type: "redirect", method: "GET", url: challengeUrl },
    merchantReference: p.reference,
    amount: { currency: p.currency, value: p.value },
    paymentMethod: { brand: p.brand, type: "scheme" },
  };
}

/** POST /payments/details: the result after the shopper's challenge. */
export const detailsResponse = (p: AdyenPayment): Record<string, unknown> => result(p);

/** POST /payments/{pspReference}/refunds: received; the outcome follows by webhook. */
export function refundResponse(p: AdyenPayment, r: AdyenRefund): Record<string, unknown> {
  return {
    merchantAccount: p.merchantAccount,
    paymentPspReference: p.psp,
    pspReference: r.psp,
    ...(r.reference !== undefined ? { reference: r.reference } : {}),
    status: "received",
    amount: { currency: p.currency, value: r.value },
  };
}
