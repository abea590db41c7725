/**
 * Checkout.com's answers -> Cashier's outcomes, pure: a payment's status goes
 * through its flow's table (status-table.ts), a Declined one then through the
 * code table (codes.ts). What no table explains is `unknown`: asked again
 * later, never taken as a decline. An HTTP refusal of a write means nothing
 * was taken (`unavailable`); a failed lookup says nothing about the payment,
 * so it is `unknown` whatever its HTTP status.
 */
import type { ProcessorOutcome } from "../../domain/outcome.ts";
import { classify, THREE_DS_FAILED_CODES } from "./codes.ts";
import { never, PAYMENT_STATUSES, type PaymentStatus, type RefundStatus, verdictOf } from "./status-table.ts";

type Json = Record<string, unknown>;
/** A JSON value as an object, empty when it is not one: every answer is read without trusting its shape. */
export const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});
/** A JSON value as a string, empty when it is not one. */
export const str = (v: unknown): string => (typeof v === "string" ? v : "");
const unknown = (transactionId: string, message: string): ProcessorOutcome => ({ kind: "unknown", transactionId, message });
const isPaymentStatus = (s: string): s is PaymentStatus => (PAYMENT_STATUSES as readonly string[]).includes(s);

/** A Declined answer through the code table: soft -> retryable, hard -> declined. */
export function codeOutcome(transactionId: string, code: string, summary: string): ProcessorOutcome {
  const c = classify(code);
  const message = summary || c.text || "Declined";
  const threeDs = THREE_DS_FAILED_CODES.has(code) ? { threeDsFailed: true } : {};
  switch (c.class) {
    case "soft":
      return { kind: "retryable", transactionId, code: code || "Declined", message, ...threeDs };
    case "hard":
      return { kind: "declined", transactionId, code: code || "Declined", message, ...threeDs };
    case "unavailable":
      return { kind: "unavailable", message: `${code} ${message}` };
    case "unknown":
      return unknown(transactionId, `${code} ${message}`);
    case "approved":
      return unknown(transactionId, `an approval code (${code}) on a declined answer`);
    default:
      return never(c.class);
  }
}

/** The 3-D Secure page Checkout sends the customer to: an http(s) URL or nothing. */
const redirectOf = (b: Json): string | undefined => {
  const href = str(obj(obj(b._links).redirect).href);
  return /^https?:\/\/\S+$/.test(href) ? href : undefined;
};

/**
 * Whether the payment says its cardholder failed 3-D Secure: `3ds.authentication_response` N (not authenticated) or
 * R (rejected). A lookup's payment carries no response code (that is its actions'), so a declined challenge is known
 * by this.
 */
const authenticationFailed = (b: Json): boolean => ["N", "R"].includes(str(obj(b["3ds"]).authentication_response));

/** A payment (the answer to a sale or payout, a lookup's, a webhook's data) through its flow's table. */
export function paymentOutcome(flow: "sale" | "payout" | "lookup", b: Json): ProcessorOutcome {
  const id = str(b.id);
  const status = str(b.status);
  if (!isPaymentStatus(status)) return unknown(id, `unrecognised status ${JSON.stringify(status).slice(0, 40)}`);
  const verdict = verdictOf(flow, status);
  if (!id && verdict !== "by-code" && verdict !== "declined") return unknown("", `a ${status} answer without a payment id`);
  switch (verdict) {
    case "approved":
      return b.approved === false ? unknown(id, `a ${status} answer that says approved: false`) : { kind: "approved", transactionId: id };
    case "challenge": {
      const redirectUrl = redirectOf(b);
      return redirectUrl ? { kind: "challenge", transactionId: id, redirectUrl } : { kind: "pending", transactionId: id };
    }
    case "pending":
      return { kind: "pending", transactionId: id };
    case "declined":
      return { kind: "declined", transactionId: id, code: status, message: `the payment is ${status.toLowerCase()} at Checkout.com` };
    case "by-code": {
      const o = codeOutcome(id, str(b.response_code), str(b.response_summary));
      return (o.kind === "declined" || o.kind === "retryable") && authenticationFailed(b) ? { ...o, threeDsFailed: true } : o;
    }
    case "unknown":
      return unknown(id, `a ${status} payment is not a ${flow} answer`);
    default:
      return never(verdict);
  }
}

/** A refund's state through the refund table; `transactionId` is the refund's action id. */
export function refundOutcome(status: RefundStatus, actionId: string, b: Json): ProcessorOutcome {
  const verdict = verdictOf("refund", status);
  if (!actionId) return unknown("", "a refund answer without its action id");
  if (verdict === "by-code") return codeOutcome(actionId, str(b.response_code), str(b.response_summary));
  if (verdict === "approved" || verdict === "pending") return { kind: verdict, transactionId: actionId };
  return unknown(actionId, `refund ${status}`);
}

/** A refund action as `GET /payments/{id}/actions` lists it: approved true, false, or not yet known. */
export function refundActionOutcome(action: Json): ProcessorOutcome {
  const status: RefundStatus = action.approved === true ? "Approved" : action.approved === false ? "Declined" : "Pending";
  return refundOutcome(status, str(action.id), action);
}

/** Which refund action a lookup looks for: by its action id (a refund whose 202 was kept), or by our reference (one whose answer was lost). */
export type RefundMatch = { actionId: string } | { reference: string };

/**
 * `GET /payments/{id}/actions`: the sale's actions, latest first. The refund
 * asked for is the one Refund action with its action id or our reference,
 * through the refund table by its `approved`. None by reference: not taken, but
 * Checkout.com cannot fence a reference, so a request still in flight may yet
 * arrive (`mayArriveLate`); none by id, or several: asked again, never guessed.
 */
export function refundActionsOutcome(http: number, body: unknown, match: RefundMatch): ProcessorOutcome {
  const id = "actionId" in match ? match.actionId : "";
  if (http !== 200) return unknown(id, `Checkout.com answered HTTP ${http} to the actions lookup`);
  if (!Array.isArray(body)) return unknown(id, "an actions answer that is not a list");
  const found = body
    .map(obj)
    .filter((a) => str(a.type) === "Refund" && ("actionId" in match ? str(a.id) === match.actionId : str(a.reference) === match.reference));
  if (found.length === 1) return refundActionOutcome(found[0]);
  if (found.length > 1) return unknown(id, `${found.length} refunds of the payment match`);
  if ("actionId" in match) return unknown(id, "the payment lists no refund with this action id");
  return { kind: "unavailable", message: "the payment lists no refund with this reference", mayArriveLate: true };
}

const errors = (b: Json) => (Array.isArray(b.error_codes) ? b.error_codes.filter((c) => typeof c === "string").join(", ") : "").slice(0, 120);

/**
 * Any HTTP answer of a write. 2xx goes through the flow's table. A refusal
 * (401, 403, 404, 422, another 4xx) took nothing: `unavailable`, except a 403
 * to a refund, which Checkout answers when the payment cannot be refunded:
 * `declined`. 409 (this idempotency key is in progress), 429 (too many, or a
 * duplicate detected) and 5xx may have been taken: `unknown`.
 */
export function writeOutcome(flow: "sale" | "payout" | "refund", http: number, body: unknown): ProcessorOutcome {
  const b = obj(body);
  if (http >= 200 && http < 300) {
    return flow === "refund" ? refundOutcome("Accepted", str(b.action_id), b) : paymentOutcome(flow, b);
  }
  if (http === 403 && flow === "refund") return { kind: "declined", transactionId: "", code: "403", message: "Refund not allowed" };
  if (http === 409 || http === 429 || http >= 500 || http < 400) return unknown("", `Checkout.com answered HTTP ${http}`);
  const why = errors(b);
  return { kind: "unavailable", message: `Checkout.com refused the request (HTTP ${http}${why ? `: ${why}` : ""})` };
}

/** `GET /payments/{id}`: a 200 through the lookup table; any other answer is `unknown`. */
export function lookupOutcome(http: number, body: unknown): ProcessorOutcome {
  return http === 200 ? paymentOutcome("lookup", obj(body)) : unknown("", `Checkout.com answered HTTP ${http} to the lookup`);
}

/**
 * `GET /payments?reference=<trace_id>`: the payment our reference names. None:
 * not taken, but Checkout.com cannot fence a reference, so a request still in
 * flight may yet arrive (`mayArriveLate`). Several: an operator's question.
 */
export function findOutcome(traceId: number, http: number, body: unknown): ProcessorOutcome {
  if (http !== 200) return unknown("", `Checkout.com answered HTTP ${http} to the search`);
  const data = obj(body).data;
  if (!Array.isArray(data)) return unknown("", "a search answer without data");
  const found = data.map(obj).filter((p) => str(p.reference) === String(traceId));
  if (found.length === 0) return { kind: "unavailable", message: "Checkout.com has no payment with this reference", mayArriveLate: true };
  if (found.length > 1) return unknown("", `${found.length} payments at Checkout.com carry reference ${traceId}`);
  return paymentOutcome("lookup", found[0]);
}
