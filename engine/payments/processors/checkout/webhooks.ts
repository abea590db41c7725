/**
 * Checkout.com's webhooks: verified, then read through the same tables as a
 * lookup. Checkout signs the raw body with the key of the workflow's webhook
 * action (HMAC-SHA256) and sends it hex-encoded in `Cko-Signature`; the body
 * is verified as it came, never re-serialised. An event type names what
 * happened to a payment; it becomes the status a lookup would find (or, for a
 * refund, its action's state) and goes through transformers.ts, so a webhook
 * and a lookup of the same payment cannot disagree. Checkout sends at least
 * once and in no guaranteed order; the events carry its event id for the
 * store's de-duplication. Types not listed are kept without an outcome.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ConnectorWebhooks, WebhookEvent } from "../connector.ts";
import type { PaymentStatus, RefundStatus } from "./status-table.ts";
import { obj, paymentOutcome, refundOutcome, str } from "./transformers.ts";

/** A payment event's status, for a sale (card source) and for a card payout (a destination). */
export const PAYMENT_EVENTS: Readonly<Record<string, { sale?: PaymentStatus; payout?: PaymentStatus }>> = {
  payment_approved: { sale: "Authorized", payout: "Paid" }, // "a payment authorization or a payout is approved"
  payment_pending: { sale: "Pending", payout: "Pending" },
  payment_declined: { sale: "Declined", payout: "Declined" },
  payment_expired: { sale: "Expired", payout: "Expired" },
  payment_canceled: { sale: "Canceled", payout: "Canceled" },
  payment_voided: { sale: "Voided" },
  payment_captured: { sale: "Captured" },
  payment_paid: { payout: "Paid" },
  payment_returned: { payout: "Returned" },
};

/** A refund event's state; its `data.action_id` is the refund's id. */
export const REFUND_EVENTS: Readonly<Record<string, RefundStatus>> = {
  payment_refunded: "Approved",
  payment_refund_declined: "Declined",
  payment_refund_pending: "Pending",
};

function header(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/**
 * Whether `Cko-Signature` is the HMAC-SHA256 of the raw body under the account's webhook_secret, or during a key
 * rotation its webhook_secret_previous; compared in constant time, every key tried.
 */
export function verifySignature(raw: Buffer, headers: Readonly<Record<string, string | undefined>>, credentials: Readonly<Record<string, string>>): boolean {
  const secrets = [credentials.webhook_secret, credentials.webhook_secret_previous].filter((k): k is string => typeof k === "string" && k !== "");
  const given = header(headers, "cko-signature")?.trim();
  if (secrets.length === 0 || !given || !/^[0-9a-fA-F]{64}$/.test(given)) return false;
  const got = Buffer.from(given, "hex");
  let matched = false;
  for (const secret of secrets) if (timingSafeEqual(got, createHmac("sha256", secret).update(raw).digest())) matched = true;
  return matched;
}

/** Our trace_id, when the reference is one (every payment we send carries it). */
const traceOf = (reference: string): number | undefined => {
  if (!/^\d{1,15}$/.test(reference)) return undefined;
  const n = Number(reference);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** One event of a verified body. */
export function toEvent(e: Record<string, unknown>): WebhookEvent {
  const id = str(e.id);
  const type = str(e.type);
  if (!id || !type) throw new Error("a Checkout.com event needs its id and type");
  const data = obj(e.data);
  const traceId = traceOf(str(data.reference));
  const base: WebhookEvent = { id, type, ...(traceId ? { traceId } : {}) };
  if (typeof data.amount === "number" && Number.isSafeInteger(data.amount) && typeof data.currency === "string") {
    base.amount = { minor: data.amount, currency: data.currency };
  }
  const refund = Object.hasOwn(REFUND_EVENTS, type) ? REFUND_EVENTS[type] : undefined;
  if (refund) {
    const actionId = str(data.action_id);
    return { ...base, flow: "refund", ...(actionId ? { transactionId: actionId } : {}), outcome: refundOutcome(refund, actionId, data) };
  }
  const payment = Object.hasOwn(PAYMENT_EVENTS, type) ? PAYMENT_EVENTS[type] : undefined;
  const flow = data.destination === undefined ? "sale" : "payout";
  const status = payment?.[flow];
  const paymentId = str(data.id);
  if (!status || !paymentId) return base;
  return { ...base, flow, transactionId: paymentId, outcome: paymentOutcome("lookup", { ...data, status }) };
}

/** The events of a verified body (Checkout.com sends one per request); throws naming what is wrong with any other body. */
export function parseEvents(raw: Buffer): WebhookEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new Error("a Checkout.com webhook body must be JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("a Checkout.com webhook body must be an event object");
  return [toEvent(parsed as Record<string, unknown>)];
}

/** The connector's webhooks: Checkout.com expects an empty 2xx once the event is committed. */
export const checkoutWebhooks: ConnectorWebhooks = { verify: verifySignature, parse: parseEvents };
