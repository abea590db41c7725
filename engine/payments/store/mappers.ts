/**
 * Rows and entities -> domain values. Nothing from the ORM leaves the store.
 * Every input is typed by the entities (an entity, a typed query's row, or a
 * hand-written statement's row declared as the same type), so nothing here
 * casts: enumerated columns are already the domain's unions.
 */
import type { InferEntity } from "@mikro-orm/core";
import type { Selectable } from "kysely";
import type { CallbackView } from "../ports/callbacks.ts";
import type { FrontendWithSettings, MerchantSettingsView } from "../ports/merchants.ts";
import { onceEach } from "../domain/once-each.ts";
import type { Attempt, StatusChange } from "../../shared/transaction.ts";
import type { AttemptRow } from "./attempt-select.ts";
import type { FrontendEntity } from "../../store/entities/frontend.entity.ts";
import type { MerchantEntity } from "../../store/entities/merchant.entity.ts";
import type { TransactionEventEntity } from "../../store/entities/transaction-event.entity.ts";
import type { CashierDb } from "../../store/typed-db.ts";

/** An attempt row (attempt-select.ts) as the rest of the engine sees it. */
export function attemptFromRow(r: AttemptRow): Attempt {
  return {
    traceId: r.trace_id,
    orderRef: r.order_ref,
    orderId: r.order_id,
    merchantId: r.merchant_id,
    type: r.type,
    attempt: r.attempt,
    status: r.status,
    payoutLetter: r.payout_letter,
    depositState: r.deposit_state,
    amountMinor: r.amount_minor,
    currency: r.currency,
    processor: r.processor,
    transactionId: r.transaction_id,
    errorCode: r.error_code,
    errorDetails: r.error_details,
    redirectUrl: r.redirect_url,
    cardMasked: r.card_masked,
    cardBrand: r.card_brand,
    cardExpiry: r.card_expiry,
    pin: r.pin,
    frontend: r.frontend,
    referenceTraceId: r.reference_trace_id,
    cardHeld: r.card_held === true,
    notificationUrl: r.notification_url || null,
    returnUrl: r.return_url,
    requesterIp: r.requester_ip ?? "",
    processorCode: r.processor_code,
    submitted: r.submitted,
    challengeExpiresAt: r.challenge_expires_at,
    completingUntil: r.completing_until,
    acquirerRedirectUrl: r.acquirer_redirect_url,
    cascade: r.routing_cascade,
    routingRule: r.routing_rule,
    replied: r.replied,
    createdBy: r.created_by,
    sessionRef: r.session_ref,
    scOrderId: r.sc_order_id,
    udef1: r.udef1,
    udef2: r.udef2,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** One history row. */
export function changeFromEntity(e: InferEntity<typeof TransactionEventEntity>): StatusChange {
  return { fromStatus: e.fromStatus ?? null, toStatus: e.toStatus, payoutLetter: e.payoutLetter ?? null, cause: e.cause, at: e.at };
}

/** A callback row and one of its attempts, as the typed queries read them. */
export type CallbackRow = Selectable<CashierDb["callback"]>;
export type CallbackAttemptRow = Selectable<CashierDb["callback_attempt"]>;

/** A callback with its attempts (in the order made), as operators see it. */
export function callbackViewOf(c: CallbackRow, sent: CallbackAttemptRow[]): CallbackView {
  return {
    id: c.id,
    eventId: c.event_id,
    kind: c.kind,
    state: c.state,
    merchantId: c.merchant_id,
    traceId: c.trace_id,
    url: c.url,
    body: c.body,
    attemptCount: c.attempts,
    nextAttemptAt: c.next_attempt_at,
    createdAt: c.created_at,
    attempts: sent.map((a) => ({
      at: a.at,
      durationMs: a.duration_ms,
      httpStatus: a.http_status,
      responseBody: a.response_body,
      outcome: a.outcome,
      error: a.error,
    })),
  };
}

/** A merchant's settings and frontends (loaded, in id order) as every part of the engine reads them. */
export function settingsOf(m: InferEntity<typeof MerchantEntity>, frontends: InferEntity<typeof FrontendEntity>[]): MerchantSettingsView {
  return {
    siteId: m.siteId ?? null,
    platformUrl: m.platformUrl ?? null,
    validationUrl: m.validationUrl ?? null,
    updatePayoutUrl: m.updatePayoutUrl ?? null,
    // Each once (merchant-spec.ts): a merchant stored before that rule may list one twice.
    updatePayoutStatuses: onceEach(m.updatePayoutStatuses),
    payoutApproval: m.payoutApproval,
    processors: onceEach(m.processors),
    frontends: frontends.map(frontendOf),
    routingRules: m.routingRules,
  };
}

function frontendOf(f: InferEntity<typeof FrontendEntity>): FrontendWithSettings {
  return {
    name: f.name,
    baseCurrency: f.baseCurrency,
    currencies: f.currencies,
    settings: {
      allowedOrigins: f.allowedOrigins,
      depositPresets: f.depositPresets,
      limits: f.limits,
      defaultLocale: f.defaultLocale,
      saveCards: f.saveCards,
      closedLoopWithdrawals: f.closedLoopWithdrawals,
      playerCancelWithdrawal: f.playerCancelWithdrawal,
      ...(f.branding ? { branding: f.branding } : {}),
    },
  };
}
