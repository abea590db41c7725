/**
 * Adyen's standard notifications (`notificationItems[].NotificationRequestItem`):
 * each item's HMAC signature checked in constant time, the items read as
 * Cashier's webhook events through the same transformers as a call's answer,
 * and the acknowledgement Adyen expects once they are committed.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ProcessorOutcome } from "../../domain/outcome.ts";
import type { ConnectorWebhooks, WebhookEvent } from "../connector.ts";
import { cashierCode } from "./codes.ts";
import { parseAdyenSettings } from "./settings.ts";
import { refusalOutcome } from "./transformers.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : "");

/**
 * The string Adyen signs for one item: pspReference, originalReference,
 * merchantAccountCode, merchantReference, amount.value, amount.currency,
 * eventCode and success, joined by ':', a missing one as empty. The values are
 * not escaped: escaping ('\\' and ':') is Adyen's rule for signing key-value
 * pairs (hosted payment pages), and Adyen's own libraries join a
 * notification's fields as they are (adyen-node-api-library
 * src/utils/hmacValidator.ts getDataToSign; the Java library's HMACValidator).
 */
export function signedData(item: Obj): string {
  const amount = obj(item.amount);
  const fields = [
    item.pspReference,
    item.originalReference,
    item.merchantAccountCode,
    item.merchantReference,
    amount.value,
    amount.currency,
    item.eventCode,
    item.success,
  ];
  return fields.map(str).join(":");
}

/** base64 HMAC-SHA256 of the item's signed data, under the hex key from Adyen's Customer Area. */
export function itemSignature(item: Obj, hexKey: string): string {
  return createHmac("sha256", Buffer.from(hexKey, "hex")).update(signedData(item), "utf8").digest("base64");
}

const HEX_KEY = /^(?:[0-9a-fA-F]{2})+$/;

/**
 * Whether every item of the body carries a signature that matches under one of
 * `hexKeys` (the account's hmac_key, and during a rotation hmac_key_previous:
 * Adyen signs with the new key only once it is saved in its Customer Area, and
 * items queued before are sent signed with the old one); compared in constant time.
 */
export function verifyNotification(raw: Buffer, ...given: (string | undefined)[]): boolean {
  const hexKeys = given.filter((k): k is string => typeof k === "string" && HEX_KEY.test(k));
  if (hexKeys.length === 0) return false;
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return false;
  }
  const items = obj(body).notificationItems;
  if (!Array.isArray(items) || items.length === 0) return false;
  return items.every((wrapper) => {
    const item = obj(obj(wrapper).NotificationRequestItem);
    const signature = obj(item.additionalData).hmacSignature;
    if (typeof signature !== "string" || signature === "") return false;
    const actual = Buffer.from(signature, "utf8");
    // Every key is tried (no early return), so the time taken does not say which one matched.
    let matched = false;
    for (const hexKey of hexKeys) {
      const expected = Buffer.from(itemSignature(item, hexKey), "utf8");
      if (actual.length === expected.length && timingSafeEqual(actual, expected)) matched = true;
    }
    return matched;
  });
}

/** What a notification says of an attempt, by its `success`. */
type Verdict = "approve" | "refusal" | "failed" | "none";

interface EventRule {
  flow: "sale" | "refund";
  /** Which reference names the attempt: the item's own pspReference, or originalReference (a modification of the payment). */
  id: "psp" | "original";
  true: Verdict;
  false: Verdict;
}

/**
 * The status table of notifications. A sale's AUTHORISATION and a refund's
 * REFUND carry the verdict; OFFER_CLOSED ends a payment the shopper abandoned
 * on Adyen's page; REFUND_FAILED and REFUNDED_REVERSED undo a refund Adyen had
 * accepted. CANCELLATION, CAPTURE and CAPTURE_FAILED concern a sale Cashier
 * already settled (it never cancels, and captures at once): kept for an
 * operator, not applied. Any other event code is kept and acknowledged.
 */
export const EVENT_TABLE: Readonly<Record<string, EventRule>> = {
  AUTHORISATION: { flow: "sale", id: "psp", true: "approve", false: "refusal" },
  OFFER_CLOSED: { flow: "sale", id: "psp", true: "failed", false: "none" },
  CANCELLATION: { flow: "sale", id: "original", true: "none", false: "none" },
  CAPTURE: { flow: "sale", id: "original", true: "none", false: "none" },
  CAPTURE_FAILED: { flow: "sale", id: "original", true: "none", false: "none" },
  REFUND: { flow: "refund", id: "psp", true: "approve", false: "refusal" },
  REFUND_FAILED: { flow: "refund", id: "psp", true: "failed", false: "none" },
  REFUNDED_REVERSED: { flow: "refund", id: "psp", true: "failed", false: "none" },
};

function outcomeOf(verdict: Verdict, item: Obj, id: string): ProcessorOutcome | undefined {
  const eventCode = str(item.eventCode);
  switch (verdict) {
    case "approve":
      return { kind: "approved", transactionId: id };
    case "refusal":
      return refusalOutcome("Refused", "", str(item.reason), id);
    case "failed":
      return { kind: "declined", transactionId: id, code: cashierCode(eventCode.toLowerCase().replaceAll("_", "-")), message: str(item.reason) || eventCode };
    case "none":
      return undefined;
  }
}

/**
 * One item -> one event. Adyen gives no event id: it sends an item again,
 * unchanged, until it is acknowledged, so the id is what makes the item that
 * event: eventCode and pspReference (Adyen's unique reference of the payment
 * or modification), originalReference (the payment a modification is about),
 * and success, so that a later item that changes the verdict of the same
 * event is applied rather than dropped as a repeat.
 */
function eventOf(wrapper: unknown, index: number): WebhookEvent {
  const item = obj(obj(wrapper).NotificationRequestItem);
  const eventCode = str(item.eventCode);
  const psp = str(item.pspReference);
  if (!eventCode || !psp) throw new Error(`notificationItems[${index}]: a NotificationRequestItem with eventCode and pspReference is required`);
  const success = str(item.success) === "true";
  const original = str(item.originalReference);
  const event: WebhookEvent = { id: [eventCode, psp, original, String(success)].join(":"), type: eventCode };
  const ref = str(item.merchantReference);
  if (/^\d{1,15}$/.test(ref)) event.traceId = Number(ref);
  const account = str(item.merchantAccountCode);
  if (account) event.accountCode = account;
  const amount = obj(item.amount);
  if (typeof amount.value === "number" && Number.isSafeInteger(amount.value) && typeof amount.currency === "string") {
    event.amount = { minor: amount.value, currency: amount.currency };
  }
  const rule = EVENT_TABLE[eventCode];
  if (!rule) return event;
  event.flow = rule.flow;
  event.transactionId = rule.id === "psp" ? psp : original;
  const outcome = outcomeOf(success ? rule.true : rule.false, item, event.transactionId);
  if (outcome) event.outcome = outcome;
  return event;
}

/** The events of a verified body; throws, naming the fault, on a body that is not Adyen's format. */
export function parseNotification(raw: Buffer): WebhookEvent[] {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new Error("the body is not JSON");
  }
  const items = obj(body).notificationItems;
  if (!Array.isArray(items)) throw new Error("notificationItems: an array is required");
  return items.map(eventOf);
}

/** Adyen's standard notifications, verified with the account's `hmac_key` (or, during a rotation, `hmac_key_previous`). */
export const adyenWebhooks: ConnectorWebhooks = {
  verify: (raw, _headers, credentials) => verifyNotification(raw, credentials.hmac_key, credentials.hmac_key_previous),
  parse: parseNotification,
  // An item names the merchant account it is for: one of another account (a company-level webhook) changes nothing here.
  accountCode: (settings) => {
    const s = parseAdyenSettings(settings);
    return s.ok ? s.value.merchantAccount : undefined;
  },
  // Adyen accepts any 2xx today; "[accepted]" is what it long required, and is still understood.
  acknowledgement: { contentType: "text/plain", body: "[accepted]" },
};
