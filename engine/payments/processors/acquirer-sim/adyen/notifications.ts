/**
 * The Adyen stand-in's standard notification webhooks: one
 * NotificationRequestItem per event (AUTHORISATION, REFUND, REFUND_FAILED),
 * each signed as Adyen signs it: additionalData.hmacSignature is the base64
 * HMAC-SHA256, keyed with the account's hex HMAC key, of pspReference,
 * originalReference, merchantAccountCode, merchantReference, amount value,
 * currency, eventCode and success joined by colons. The receiver must answer
 * "[accepted]". An account without a webhook URL and HMAC key gets none.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { AdyenAccount } from "../accounts.ts";
import type { WebhookEntry } from "../webhook-sender.ts";
import type { AdyenPayment, AdyenRefund } from "./book.ts";

export type AdyenEvent = { code: "AUTHORISATION" } | { code: "REFUND" | "REFUND_FAILED"; refund: AdyenRefund };

/** Adyen's signing string and signature of one item. */
export function itemSignature(hexKey: string, item: Record<string, unknown>): string {
  const amount = item.amount as { value: number; currency: string };
  const fields = [
    item.pspReference,
    item.originalReference ?? "",
    item.merchantAccountCode,
    item.merchantReference,
    amount.value,
    amount.currency,
    item.eventCode,
    item.success,
  ];
  return createHmac("sha256", Buffer.from(hexKey, "hex")).update(fields.join(":")).digest("base64");
}

function item(p: AdyenPayment, e: AdyenEvent, now: number): Record<string, unknown> {
  const eventDate = new Date(now).toISOString().replace(/\.\d{3}Z$/, "+00:00");
  const common = { eventDate, merchantAccountCode: p.merchantAccount, paymentMethod: p.brand };
  if (e.code === "AUTHORISATION") {
    const ok = p.result.resultCode === "Authorised";
    const reason = ok ? `${p.authCode}:${p.last4}:${p.expiry}` : "refusalReason" in p.result ? (p.result.refusalReason ?? "") : "";
    return {
      ...common,
      pspReference: p.psp,
      merchantReference: p.reference,
      amount: { currency: p.currency, value: p.value },
      eventCode: "AUTHORISATION",
      success: String(ok),
      reason,
    };
  }
  const r = e.refund;
  const success = e.code === "REFUND_FAILED" || r.outcome !== "refused";
  return {
    ...common,
    pspReference: r.psp,
    originalReference: p.psp,
    merchantReference: r.reference ?? p.reference,
    amount: { currency: p.currency, value: r.value },
    eventCode: e.code,
    success: String(success),
    ...(r.reason && (e.code === "REFUND_FAILED" || !success) ? { reason: r.reason } : {}),
  };
}

/** The ledger entries that deliver these notifications to the account's webhook URL; none without one. */
export function adyenNotifications(account: AdyenAccount, p: AdyenPayment, events: AdyenEvent[], now: number): WebhookEntry[] {
  const { webhook_url: url, hmac_key: key } = account;
  if (!url || !key) return [];
  return events.map((e) => {
    const it = item(p, e, now);
    const signed = { ...it, additionalData: { hmacSignature: itemSignature(key, it) } };
    const body = JSON.stringify({ live: "false", notificationItems: [{ NotificationRequestItem: signed }] });
    return { t: "webhook", id: `adyen-${randomBytes(8).toString("hex")}`, url, headers: {}, body, expect: "accepted" };
  });
}
