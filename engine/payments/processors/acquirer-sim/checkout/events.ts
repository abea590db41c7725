/**
 * The Checkout.com stand-in's webhooks: Checkout-shaped events (an evt_ id,
 * a type such as payment_approved, the payment's data, links) for each
 * change a payment, a refund or a payout goes through, signed as Checkout
 * signs them: Cko-Signature is the hex HMAC-SHA256 of the raw body with the
 * account's webhook secret. An account without a webhook URL and secret
 * gets none.
 */
import { createHmac } from "node:crypto";
import type { CheckoutAccount } from "../accounts.ts";
import type { WebhookEntry } from "../webhook-sender.ts";
import type { CkoPayment, CkoRefund } from "./book.ts";
import { ckoId } from "./ids.ts";

export type CkoEventType = "payment_pending" | "payment_approved" | "payment_declined" | "payment_captured" | "payment_paid" | "payment_refunded";

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The event's data: the payment, and the action it reports. */
function data(type: CkoEventType, p: CkoPayment, now: number, refund?: CkoRefund): Record<string, unknown> {
  const base = {
    id: p.id,
    amount: p.amount,
    currency: p.currency,
    ...(p.reference !== undefined ? { reference: p.reference } : {}),
    ...(p.metadata ? { metadata: p.metadata } : {}),
  };
  const source = {
    type: "card",
    bin: p.card.bin,
    last4: p.card.last4,
    expiry_month: p.card.expiry_month,
    expiry_year: p.card.expiry_year,
    scheme: p.card.scheme,
  };
  switch (type) {
    case "payment_pending":
      return { ...base, status: "Pending" };
    case "payment_approved":
    case "payment_declined":
      return {
        ...base,
        action_id: p.action_id,
        ...(p.auth_code ? { auth_code: p.auth_code } : {}),
        response_code: p.response?.code,
        response_summary: p.response?.summary,
        processed_on: iso(p.processed_on ?? now),
        [p.kind === "payout" ? "destination" : "source"]: source,
      };
    case "payment_captured":
      return { ...base, action_id: p.capture_action_id, response_code: "10000", response_summary: "Approved", processed_on: iso(p.processed_on ?? now) };
    case "payment_paid":
      return {
        ...base,
        action_id: p.action_id,
        response_code: "10000",
        response_summary: "Approved",
        processed_on: iso(p.processed_on ?? now),
        destination: source,
      };
    case "payment_refunded":
      return {
        ...base,
        action_id: refund?.action_id,
        amount: refund?.amount,
        ...(refund?.reference !== undefined ? { reference: refund.reference } : {}),
        response_code: "10000",
        response_summary: "Approved",
        processed_on: iso(refund?.at ?? now),
      };
  }
}

/** The ledger entries that deliver these events to the account's webhook URL; none without one. */
export function ckoEvents(account: CheckoutAccount, p: CkoPayment, types: CkoEventType[], base: string, now: number, refund?: CkoRefund): WebhookEntry[] {
  const { webhook_url: url, webhook_secret: secret } = account;
  if (!url || !secret) return [];
  return types.map((type) => {
    const id = ckoId("evt");
    const body = JSON.stringify({
      id,
      type,
      version: "2.0",
      created_on: iso(now),
      data: data(type, p, now, refund),
      _links: { self: { href: `${base}/events/${id}` }, payment: { href: `${base}/payments/${p.id}` } },
    });
    const signature = createHmac("sha256", secret).update(body).digest("hex");
    return { t: "webhook", id, url, headers: { "cko-signature": signature }, body, expect: "2xx" };
  });
}
