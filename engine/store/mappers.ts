/** Rows and entities -> domain values. Nothing from the ORM leaves the store. */
import type { Attempt, DepositState, PayoutLetter, StatusChange, TransactionStatus, TransactionType } from "../domain/transaction.ts";

/** The columns every attempt query selects, joined with its order. */
export const ATTEMPT_COLUMNS = `
  t.trace_id, t.order_ref, t.attempt, t.processor, t.status, t.payout_letter, t.deposit_state, t.transaction_id,
  t.error_code, t.error_details, t.redirect_url, t.created_at, t.updated_at,
  t.processor_code, t.submitted, t.challenge_expires_at, t.completing_until, t.replied, o.notification_url, o.return_url, o.customer->>'requester_ip' as requester_ip,
  o.order_id, o.merchant_id, o.type, o.amount_minor, o.currency, o.card_masked, o.card_brand, o.card_expiry,
  o.pin, o.frontend, o.reference_trace_id, (o.card_sealed is not null) as card_held`;

export type Row = Record<string, unknown>;

const dateOf = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function attemptFromRow(r: Row): Attempt {
  return {
    traceId: Number(r.trace_id),
    orderRef: Number(r.order_ref),
    orderId: String(r.order_id),
    merchantId: String(r.merchant_id),
    type: r.type as TransactionType,
    attempt: Number(r.attempt),
    status: r.status as TransactionStatus,
    payoutLetter: (r.payout_letter as PayoutLetter | null) ?? null,
    depositState: (r.deposit_state as DepositState | null) ?? null,
    amountMinor: Number(r.amount_minor),
    currency: String(r.currency),
    processor: String(r.processor),
    transactionId: (r.transaction_id as string | null) ?? null,
    errorCode: numOrNull(r.error_code),
    errorDetails: (r.error_details as string | null) ?? null,
    redirectUrl: (r.redirect_url as string | null) ?? null,
    cardMasked: String(r.card_masked),
    cardBrand: String(r.card_brand),
    cardExpiry: String(r.card_expiry),
    pin: String(r.pin),
    frontend: String(r.frontend),
    referenceTraceId: numOrNull(r.reference_trace_id),
    cardHeld: r.card_held === true,
    notificationUrl: (r.notification_url as string | null) || null,
    returnUrl: String(r.return_url ?? ""),
    requesterIp: String(r.requester_ip ?? ""),
    processorCode: (r.processor_code as string | null) ?? null,
    submitted: r.submitted !== false,
    challengeExpiresAt: r.challenge_expires_at ? dateOf(r.challenge_expires_at) : null,
    completingUntil: r.completing_until ? dateOf(r.completing_until) : null,
    replied: r.replied === true,
    createdAt: dateOf(r.created_at),
    updatedAt: dateOf(r.updated_at),
  };
}

export function changeFromEntity(e: { fromStatus?: string | null; toStatus: string; payoutLetter?: string | null; cause: string; at: Date }): StatusChange {
  return {
    fromStatus: (e.fromStatus as TransactionStatus | null) ?? null,
    toStatus: e.toStatus as TransactionStatus,
    payoutLetter: (e.payoutLetter as PayoutLetter | null) ?? null,
    cause: e.cause,
    at: e.at,
  };
}
