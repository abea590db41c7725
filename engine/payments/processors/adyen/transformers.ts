/**
 * Adyen's answers -> Cashier's outcomes, pure: a status table per flow (a
 * sale's `POST /payments` and `POST /payments/details` by `resultCode`, a
 * refund by `status`), the refusal codes (codes.ts), and the HTTP errors.
 * Notifications go through the same functions (webhooks.ts). What Adyen may
 * still have taken is `unknown`, never declined: Adyen has no lookup by
 * reference, so such an attempt is settled by its webhook or by replaying the
 * same request with the same idempotency key.
 */
import type { ProcessorOutcome } from "../../domain/outcome.ts";
import { cashierCode, refusalByCode, refusalByReason, THREE_DS_FAILED_CODE } from "./codes.ts";

/** Every `resultCode` of v71's PaymentResponse and PaymentDetailsResponse (the same enum in both). */
export const RESULT_CODES = [
  "AuthenticationFinished",
  "AuthenticationNotRequired",
  "Authorised",
  "Cancelled",
  "ChallengeShopper",
  "Error",
  "IdentifyShopper",
  "PartiallyAuthorised",
  "Pending",
  "PresentToShopper",
  "Received",
  "RedirectShopper",
  "Refused",
  "Success",
] as const;

export type ResultCode = (typeof RESULT_CODES)[number];

/** The two calls of a sale, whose answers carry a `resultCode`. */
export type SaleFlow = "payments" | "details";

/**
 * What a result code does to a sale attempt:
 * approve (pspReference kept); refusal / error / cancel (through the code
 * table); action (the shopper must go to Adyen's page); await (the verdict
 * comes by webhook); operator (money may be held for another amount: a person
 * decides); not-a-payment (an answer of a flow Cashier does not ask for:
 * nothing was authorised); unsure (undocumented for cards: wait for the webhook).
 */
export type SaleRule = "approve" | "refusal" | "error" | "cancel" | "action" | "await" | "operator" | "not-a-payment" | "unsure";

/**
 * The status table of a sale: one meaning per result code (Adyen documents
 * them alike for /payments and /payments/details). Exhaustive: a new code in
 * the enum does not compile until it is placed.
 */
export function saleRule(code: ResultCode): SaleRule {
  switch (code) {
    case "Authorised":
      return "approve";
    case "Refused":
      return "refusal";
    case "Error":
      return "error";
    case "Cancelled":
      return "cancel";
    case "RedirectShopper":
    case "IdentifyShopper":
    case "ChallengeShopper":
      return "action";
    case "Pending":
    case "Received":
      return "await";
    // Cashier never sends allowPartialAuth: a partial authorisation holds (or captures) less than asked.
    case "PartiallyAuthorised":
      return "operator";
    // Authentication-only answers and voucher/QR flows: Cashier asks for neither.
    case "AuthenticationFinished":
    case "AuthenticationNotRequired":
    case "PresentToShopper":
      return "not-a-payment";
    case "Success":
      return "unsure";
  }
}

const table = Object.fromEntries(RESULT_CODES.map((c) => [c, saleRule(c)])) as Record<ResultCode, SaleRule>;

/** The status table of each sale flow, for the tests and the docs to enumerate. */
export const SALE_STATUS_TABLES: Readonly<Record<SaleFlow, Readonly<Record<ResultCode, SaleRule>>>> = { payments: table, details: table };

/** The status table of a refund: v71's PaymentRefundResponse has one status; the verdict comes as REFUND / REFUND_FAILED. */
export const REFUND_STATUS_TABLE: Readonly<Record<string, "await">> = { received: "await" };

/** One HTTP answer of Adyen: status, parsed body, and whether it carried `Transient-Error: true`. */
export interface AdyenAnswer {
  http: number;
  body: unknown;
  transient?: boolean;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const unknown = (transactionId: string, message: string): ProcessorOutcome => ({ kind: "unknown", transactionId, message });

/**
 * A refusal (a Refused, Error or Cancelled answer, or a failed notification)
 * -> declined or retryable by the code table. Adyen's code is found by
 * `refusalReasonCode`, or by the `refusalReason` text (notifications carry the
 * text only). An Error whose code Adyen does not document is `unavailable`:
 * Adyen failed, nothing was authorised.
 */
export function refusalOutcome(resultCode: "Refused" | "Error" | "Cancelled", code: string, reason: string, transactionId: string): ProcessorOutcome {
  const known = (code ? refusalByCode(code) : undefined) ?? (reason ? refusalByReason(reason) : undefined);
  const message = (reason || known?.reason || resultCode).slice(0, 200);
  if (!known) {
    if (resultCode === "Error") return { kind: "unavailable", message: `Adyen could not process the payment: ${message}` };
    return { kind: "declined", transactionId, code: cashierCode(code || resultCode.toLowerCase()), message };
  }
  const threeDs = known.code === THREE_DS_FAILED_CODE ? { threeDsFailed: true } : {};
  return { kind: known.class === "soft" ? "retryable" : "declined", transactionId, code: cashierCode(known.code), message, ...threeDs };
}

/**
 * Adyen's `action` -> where the shopper goes. A GET redirect is the challenge
 * outcome's `redirectUrl`. A POST redirect (`action.method: "POST"`, with
 * `action.data`) must be rendered as a form posting `data` to `url`, which the
 * outcome cannot carry yet; native 3-D Secure 2 (`threeDS2`) needs Adyen's
 * script. Neither can reach the shopper, so nothing will be authorised:
 * `unavailable`.
 */
function actionOutcome(resultCode: string, action: Obj, transactionId: string): ProcessorOutcome {
  const url = str(action.url);
  if (action.type !== "redirect" || !/^https?:\/\//.test(url)) {
    return { kind: "unavailable", message: `Adyen asked for a ${str(action.type) || "missing"} action (${resultCode}); Cashier follows redirects only` };
  }
  const method = (str(action.method) || "GET").toUpperCase();
  if (method !== "GET") return { kind: "unavailable", message: `Adyen asked for a ${method} redirect, which Cashier's challenge page does not render yet` };
  return { kind: "challenge", transactionId, redirectUrl: url };
}

/**
 * An answer to `POST /payments` or `POST /payments/details` -> an outcome.
 * `knownId`: the pspReference Cashier already holds (a details call), kept
 * when the answer lacks one.
 */
export function saleOutcome(flow: SaleFlow, a: AdyenAnswer, knownId = ""): ProcessorOutcome {
  if (a.http < 200 || a.http > 299) return errorOutcome(a, knownId);
  const b = obj(a.body);
  const resultCode = str(b.resultCode);
  const id = str(b.pspReference) || knownId;
  if (!(RESULT_CODES as readonly string[]).includes(resultCode)) {
    return unknown(id, `unrecognised resultCode ${JSON.stringify(b.resultCode ?? null).slice(0, 40)} from ${flow}`);
  }
  const rule = SALE_STATUS_TABLES[flow][resultCode as ResultCode];
  switch (rule) {
    case "approve":
      return id ? { kind: "approved", transactionId: id } : unknown("", "an Authorised answer without a pspReference");
    case "refusal":
    case "cancel":
    case "error":
      return refusalOutcome(resultCode as "Refused" | "Cancelled" | "Error", str(b.refusalReasonCode), str(b.refusalReason), id);
    case "action":
      return actionOutcome(resultCode, obj(b.action), id);
    case "await":
      return id ? { kind: "pending", transactionId: id } : unknown("", `a ${resultCode} answer without a pspReference`);
    case "operator":
      return unknown(id, `Adyen authorised part of the amount (${resultCode}): an operator must cancel or accept it at Adyen`);
    case "not-a-payment":
      return { kind: "unavailable", message: `Adyen answered ${resultCode}, which is not a card authorisation` };
    case "unsure":
      return unknown(id, `Adyen answered ${resultCode}, undocumented for cards: the notification decides`);
  }
}

/**
 * An answer to `POST /payments/{pspReference}/refunds` -> an outcome: Adyen
 * only takes the request (201 `received`), so the refund is pending, under
 * the refund's own pspReference, until REFUND or REFUND_FAILED arrives.
 */
export function refundOutcome(a: AdyenAnswer): ProcessorOutcome {
  if (a.http < 200 || a.http > 299) return errorOutcome(a, "");
  const b = obj(a.body);
  const id = str(b.pspReference);
  if (REFUND_STATUS_TABLE[str(b.status)] === "await" && id) return { kind: "pending", transactionId: id };
  return unknown(id, `unrecognised refund status ${JSON.stringify(b.status ?? null).slice(0, 40)}`);
}

/** Adyen's error types that mean the request was refused before any processing. */
const REFUSED_TYPES = new Set(["validation", "security", "configuration"]);

/**
 * An error answer (a ServiceError) -> an outcome. A transient error (the
 * `Transient-Error: true` header, or 704 "request already processed or in
 * progress") may yet be taken: unknown, and the same request is replayed with
 * its key. 401/403 (credentials), 400/404/422 (the request), 429 (not taken)
 * and a 5xx whose errorType says the request was refused: unavailable. Any
 * other 5xx or status: unknown.
 */
export function errorOutcome(a: AdyenAnswer, knownId: string): ProcessorOutcome {
  const e = obj(a.body);
  const code = str(e.errorCode);
  const type = str(e.errorType);
  const what = `HTTP ${a.http}${code ? ` ${code}` : ""}${type ? ` ${type}` : ""}`;
  const says = str(e.message).slice(0, 120);
  if (a.transient || code === "704") return unknown(knownId, `Adyen answered ${what}, a transient error: the request is sent again with its idempotency key`);
  if (a.http === 401 || a.http === 403) return { kind: "unavailable", message: `Adyen refused the credentials (${what})` };
  if ([400, 404, 405, 413, 415, 422, 429].includes(a.http) || (a.http >= 500 && REFUSED_TYPES.has(type))) {
    return { kind: "unavailable", message: `Adyen refused the request (${what}${says ? `: ${says}` : ""})` };
  }
  return unknown(knownId, `Adyen answered ${what}`);
}
