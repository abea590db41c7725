/**
 * The Checkout.com stand-in's answers, shaped as Checkout.com's published
 * schemas: the payment response (201), the accepted response (202: 3-D
 * Secure or a payout), payment and payout details (GET), the payment list
 * by reference, the refund's accepted response, and its error bodies.
 * Pure functions of a payment and the base URL the caller reached.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Answer } from "../http.ts";
import { type CkoPayment, refunded } from "./book.ts";

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
/** A payout's value date: the day it is paid. */
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const link = (href: string) => ({ href });

/** The headers every Checkout.com answer carries. */
export const ckoHeaders = () => ({ "cko-request-id": randomUUID(), "cko-version": "1.0.0" });

/** A card's fingerprint from what the ledger keeps (never the number). */
function source(p: CkoPayment) {
  const fingerprint = createHash("sha256").update(`${p.card.bin}${p.card.last4}${p.card.expiry_month}${p.card.expiry_year}`).digest("hex").toUpperCase();
  return {
    type: "card",
    expiry_month: p.card.expiry_month,
    expiry_year: p.card.expiry_year,
    scheme: p.card.scheme,
    last4: p.card.last4,
    fingerprint,
    bin: p.card.bin,
  };
}

function links(p: CkoPayment, base: string) {
  const self = `${base}/payments/${p.id}`;
  const out: Record<string, { href: string }> = { self: link(self), actions: link(`${self}/actions`) };
  if (p.status === "Authorized") {
    out.capture = link(`${self}/captures`);
    out.void = link(`${self}/voids`);
  }
  if ((p.status === "Captured" || p.status === "Partially Refunded") && p.kind === "sale") out.refund = link(`${self}/refunds`);
  return out;
}

/** 201: the authorization's answer (approved or declined), as it was when given. */
export function paymentResponse(p: CkoPayment, base: string): Record<string, unknown> {
  const approved = p.response?.code === "10000";
  return {
    id: p.id,
    action_id: p.action_id,
    amount: p.amount,
    currency: p.currency,
    approved,
    status: approved ? "Authorized" : "Declined",
    ...(p.auth_code ? { auth_code: p.auth_code } : {}),
    response_code: p.response?.code,
    response_summary: p.response?.summary,
    ...(p.three_ds ? { "3ds": { downgraded: false, enrolled: "Y" } } : {}),
    risk: { flagged: false },
    source: source(p),
    processed_on: iso(p.processed_on ?? p.requested_on),
    ...(p.reference !== undefined ? { reference: p.reference } : {}),
    _links: { ...links({ ...p, status: approved ? "Authorized" : "Declined" }, base) },
  };
}

/** 202: a payment waiting for the customer's 3-D Secure, or a payout under way. */
export function acceptedResponse(p: CkoPayment, base: string, challengeUrl?: string): Record<string, unknown> {
  const self = link(`${base}/payments/${p.id}`);
  if (p.kind === "payout") {
    return {
      id: p.id,
      status: "Pending",
      ...(p.reference !== undefined ? { reference: p.reference } : {}),
      instruction: { value_date: day(p.requested_on) },
      _links: { self },
    };
  }
  return {
    id: p.id,
    status: "Pending",
    ...(p.reference !== undefined ? { reference: p.reference } : {}),
    "3ds": { downgraded: false, enrolled: "Y" },
    _links: { self, ...(challengeUrl ? { redirect: link(challengeUrl) } : {}) },
  };
}

/** GET /payments/{id}: the payment (or payout) now. */
export function details(p: CkoPayment, base: string): Record<string, unknown> {
  const common = {
    id: p.id,
    requested_on: iso(p.requested_on),
    amount: p.amount,
    currency: p.currency,
    ...(p.reference !== undefined ? { reference: p.reference } : {}),
    status: p.status,
    approved: p.approved,
    ...(p.metadata ? { metadata: p.metadata } : {}),
  };
  if (p.kind === "payout") {
    return {
      ...common,
      source: { type: "currency_account" },
      destination: { type: "card" },
      instruction: { value_date: day(p.requested_on) },
      _links: { self: link(`${base}/payments/${p.id}`), actions: link(`${base}/payments/${p.id}/actions`) },
    };
  }
  const captured = p.capture_action_id ? p.amount : 0;
  const back = refunded(p);
  return {
    ...common,
    source: source(p),
    payment_type: p.moto ? "MOTO" : "Regular",
    balances: {
      total_authorized: p.approved ? p.amount : 0,
      total_voided: 0,
      available_to_void: p.status === "Authorized" ? p.amount : 0,
      total_captured: captured,
      available_to_capture: p.status === "Authorized" ? p.amount : 0,
      total_refunded: back,
      available_to_refund: captured - back,
    },
    ...(p.three_ds
      ? { "3ds": { downgraded: false, enrolled: "Y", ...(p.three_ds.result ? { authentication_response: p.three_ds.result === "passed" ? "Y" : "N" } : {}) } }
      : {}),
    risk: { flagged: false },
    _links: links(p, base),
  };
}

/** GET /payments?reference=: the payments with that reference, newest first. */
export function list(ps: CkoPayment[], base: string, limit: number, skip: number): Record<string, unknown> {
  return { limit, skip, total_count: ps.length, data: ps.slice(skip, skip + limit).map((p) => details(p, base)) };
}

/**
 * GET /payments/{id}/actions: the payment's actions, latest first, as
 * Checkout.com's PaymentActionsResponse lists them: its authorization (or a
 * payout's own action), its capture, and each refund with the reference it
 * was asked with. A challenge still open has no action yet: an empty list.
 */
export function actions(p: CkoPayment): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (p.response) {
    out.push({
      id: p.action_id,
      type: p.kind === "payout" ? "Payout" : "Authorization",
      processed_on: iso(p.processed_on ?? p.requested_on),
      amount: p.amount,
      approved: p.approved,
      ...(p.auth_code ? { auth_code: p.auth_code } : {}),
      response_code: p.response.code,
      response_summary: p.response.summary,
      ...(p.reference !== undefined ? { reference: p.reference } : {}),
    });
  }
  if (p.capture_action_id) {
    const at = iso(p.processed_on ?? p.requested_on);
    out.push({
      id: p.capture_action_id,
      type: "Capture",
      processed_on: at,
      amount: p.amount,
      approved: true,
      response_code: "10000",
      response_summary: "Approved",
    });
  }
  for (const r of p.refunds) {
    out.push({
      id: r.action_id,
      type: "Refund",
      processed_on: iso(r.at),
      amount: r.amount,
      approved: true,
      response_code: "10000",
      response_summary: "Approved",
      ...(r.reference !== undefined ? { reference: r.reference } : {}),
    });
  }
  // Latest first; a capture is taken with its authorization, after it.
  return out.reverse();
}

/** 202: a refund taken (its outcome follows by webhook). */
export function refundAccepted(p: CkoPayment, actionId: string, reference: string | undefined, base: string): Record<string, unknown> {
  return { action_id: actionId, ...(reference !== undefined ? { reference } : {}), _links: { payment: link(`${base}/payments/${p.id}`) } };
}

/** Checkout.com's error body, with a status and a request id. */
export function ckoError(http: number, errorType: string, codes?: string[]): Answer {
  const request_id = randomUUID();
  return { http, body: { request_id, error_type: errorType, ...(codes ? { error_codes: codes } : {}) }, headers: { "cko-request-id": request_id } };
}
