/**
 * The Process call's two writes, hand-written because they are the hot path
 * (measured: docs/decisions/0003-raw-sql-on-hot-path.md). Each is one
 * statement (data-modifying CTEs), so an order, its first attempt and the
 * history row commit together, as do a status change and everything it owes.
 */
import type { CallbackKind } from "../../shared/callbacks.ts";
import type { PayoutLetter, TransactionStatus, TransactionType } from "../../shared/transaction.ts";
import { ATTEMPT_COLUMNS_SQL, type AttemptRow } from "./attempt-select.ts";
import { preparedStatement } from "../../store/prepared-statement.ts";
import { notifyWorkSql } from "../../store/work-notice.ts";

/** A new order and its first attempt. */
export type CreateOrderParams = {
  merchantId: string;
  orderId: string;
  type: TransactionType;
  fingerprint: string;
  amountMinor: number;
  currency: string;
  frontend: string;
  pin: string;
  /** The customer object as JSON text. */
  customer: string;
  cardMasked: string;
  cardBrand: string;
  cardExpiry: string;
  cardFingerprint: string;
  returnUrl: string;
  notificationUrl: string | null;
  processor: string;
  status: TransactionStatus;
  letter: PayoutLetter | null;
  createdBy: string;
  sessionRef: number | null;
  scOrderId: string | null;
  udef1: string | null;
  udef2: string | null;
  /** The cascade a routing rule picked, as JSON text; null with the two below when no rule held. */
  routingCascade: string | null;
  routingRuleIndex: number | null;
  routingRule: string | null;
};

/**
 * Inserts the order, its first attempt and the attempt's "created" event, and
 * returns the attempt; no row when (merchant_id, order_id) exists already (the
 * unique constraint decides, also between duplicates arriving together).
 */
export const CREATE_ORDER = preparedStatement<CreateOrderParams, AttemptRow>(
  "cashier-create-order",
  {
    merchantId: true,
    orderId: true,
    type: true,
    fingerprint: true,
    amountMinor: true,
    currency: true,
    frontend: true,
    pin: true,
    customer: true,
    cardMasked: true,
    cardBrand: true,
    cardExpiry: true,
    cardFingerprint: true,
    returnUrl: true,
    notificationUrl: true,
    processor: true,
    status: true,
    letter: true,
    createdBy: true,
    sessionRef: true,
    scOrderId: true,
    udef1: true,
    udef2: true,
    routingCascade: true,
    routingRuleIndex: true,
    routingRule: true,
  },
  (p) => `
  with o as (
    insert into payment_order (merchant_id, order_id, type, fingerprint, amount_minor, currency, frontend, pin, customer,
      card_masked, card_brand, card_expiry, card_fingerprint, return_url, notification_url, created_by, session_ref, sc_order_id, udef1, udef2,
      routing_cascade, routing_rule_index, routing_rule)
    select ${p.merchantId}, ${p.orderId}, ${p.type}, ${p.fingerprint}, ${p.amountMinor}, ${p.currency}, ${p.frontend}, ${p.pin}, ${p.customer}::jsonb,
      ${p.cardMasked}, ${p.cardBrand}, ${p.cardExpiry}, ${p.cardFingerprint}, ${p.returnUrl}, ${p.notificationUrl},
      ${p.createdBy}, ${p.sessionRef}::bigint, ${p.scOrderId}::text, ${p.udef1}::text, ${p.udef2}::text,
      ${p.routingCascade}::jsonb, ${p.routingRuleIndex}::integer, ${p.routingRule}::text
    -- A platform's order_id must not be a withdrawal session's (migration 016: locks the pair, raises CW409); a
    -- session's own order is made under its session.
    where ${p.sessionRef}::bigint is not null or cashier_order_id_unclaimed(${p.merchantId}, ${p.orderId})
    on conflict on constraint payment_order_merchant_order_unique do nothing
    returning *),
  t as (insert into transaction (order_ref, attempt, processor, status, payout_letter)
        select o.id, 1, ${p.processor}, ${p.status}, ${p.letter} from o returning *),
  e as (insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause)
        select trace_id, null, status, payout_letter, 'created' from t)
  select ${ATTEMPT_COLUMNS_SQL} from t join o on o.id = t.order_ref`,
  // The pair's advisory lock and unique key; JSON keeps a merchant_id's and an order_id's characters apart.
  (p) => JSON.stringify([p.merchantId, p.orderId]),
);

/** A callback the change owes, as the APPLY statement's JSON list carries it. */
export interface OutboxRow {
  event_id: string;
  kind: Exclude<CallbackKind, "validation">;
  merchant_id: string;
  url: string;
  body: string;
  if_replied: boolean;
}

/** One status change and what it owes; null leaves a column as it is (coalesce), except next_check_at. */
export type ApplyParams = {
  traceId: number;
  /** The state the attempt must still be in: a lost race writes nothing. */
  fromStatus: TransactionStatus;
  fromLetter: PayoutLetter | null;
  toStatus: TransactionStatus;
  toLetter: PayoutLetter | null;
  depositState: string | null;
  transactionId: string | null;
  errorCode: number | null;
  errorDetails: string | null;
  redirectUrl: string | null;
  /** A real acquirer's own challenge page (null leaves it). */
  acquirerRedirectUrl: string | null;
  processorCode: string | null;
  nextCheckAt: Date | null;
  challengeExpiresAt: Date | null;
  submitted: boolean | null;
  /** Whether the status changed: only then is a history row written. */
  changed: boolean;
  cause: string;
  /** OutboxRow[] as JSON text. */
  callbacks: string;
  /** Whether to write card_sealed (with `cardSealed`, null clearing it). */
  writeCard: boolean;
  cardSealed: string | null;
  /** Create the cascade's next attempt on this processor. */
  cascadeProcessor: string | null;
  /** This engine's name in the work notices (work-notice.ts). */
  origin: string;
};

/** The attempt after the change, the cascade's new attempt if one was made, and how many notices were sent. */
export type ApplyRow = AttemptRow & { next_trace_id: number | null; woken: number };

/**
 * One statement moves an attempt and writes everything the move owes: the
 * history row, the callbacks (outbox; RecordFailedDeposit's unique index makes
 * a second one a no-op), the order's sealed card when it changes (and a card
 * a customer asked to keep, once its deposit ends unapproved), and the
 * cascade's next attempt (a new trace_id, not yet submitted, due at once).
 * The where clause on the current state makes a lost race a no-op. When it
 * wrote a callback or a cascade attempt, it also wakes the other engines'
 * workers at commit (pg_notify, work-notice.ts): no extra round trip. The
 * join sees the order row as it was before the statement's own update.
 */
export const APPLY = preparedStatement<ApplyParams, ApplyRow>(
  "cashier-apply",
  {
    toStatus: true,
    toLetter: true,
    depositState: true,
    transactionId: true,
    errorCode: true,
    errorDetails: true,
    redirectUrl: true,
    acquirerRedirectUrl: true,
    processorCode: true,
    nextCheckAt: true,
    challengeExpiresAt: true,
    submitted: true,
    traceId: true,
    fromStatus: true,
    fromLetter: true,
    cause: true,
    changed: true,
    callbacks: true,
    cardSealed: true,
    writeCard: true,
    cascadeProcessor: true,
    origin: true,
  },
  (p) => `
  with t as (
    update transaction set status = ${p.toStatus}, payout_letter = ${p.toLetter}, deposit_state = coalesce(${p.depositState}, deposit_state),
      transaction_id = coalesce(${p.transactionId}, transaction_id), error_code = coalesce(${p.errorCode}, error_code),
      error_details = coalesce(${p.errorDetails}, error_details), redirect_url = coalesce(${p.redirectUrl}, redirect_url),
      acquirer_redirect_url = coalesce(${p.acquirerRedirectUrl}::text, acquirer_redirect_url),
      processor_code = coalesce(${p.processorCode}, processor_code), next_check_at = ${p.nextCheckAt}::timestamptz,
      challenge_expires_at = coalesce(${p.challengeExpiresAt}::timestamptz, challenge_expires_at), submitted = coalesce(${p.submitted}::boolean, submitted),
      updated_at = now()
    where trace_id = ${p.traceId} and status = ${p.fromStatus}::text and payout_letter is not distinct from ${p.fromLetter}
    returning *),
  e as (insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause)
        select trace_id, ${p.fromStatus}::text, status, payout_letter, ${p.cause} from t where ${p.changed}::boolean),
  cb as (insert into callback (event_id, kind, merchant_id, trace_id, url, body)
         select x.event_id, x.kind, x.merchant_id, t.trace_id, x.url, x.body
         from t cross join jsonb_to_recordset(${p.callbacks}::jsonb) as x(event_id uuid, kind text, merchant_id text, url text, body text, if_replied boolean)
         where not x.if_replied or t.replied
         on conflict do nothing returning id),
  c as (update payment_order set card_sealed = ${p.cardSealed}::text where ${p.writeCard}::boolean and id = (select order_ref from t)),
  sc as (delete from saved_card where ${p.toStatus}::text in ('declined', 'cancelled') and order_ref = (select order_ref from t)
         and not exists (select 1 from transaction x where x.order_ref = saved_card.order_ref and x.status = 'approved')),
  nx as (insert into transaction (order_ref, attempt, processor, status, submitted, next_check_at)
         select order_ref, attempt + 1, ${p.cascadeProcessor}::text, 'pending', false, now() from t where ${p.cascadeProcessor}::text is not null returning trace_id),
  nxe as (insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause)
          select trace_id, null, 'pending', null, 'cascade' from nx),
  wk as (select ${notifyWorkSql("w.kind", `${p.origin}::text`)}
         from (select 'callback' as kind where exists (select 1 from cb)
               union all select 'follow-up' where exists (select 1 from nx)) w)
  select ${ATTEMPT_COLUMNS_SQL}, (select trace_id from nx) as next_trace_id, (select count(*) from wk) as woken
  from t join payment_order o on o.id = t.order_ref`,
  // The attempt's row first; the order's (a card written) and its saved card follow from it.
  (p) => String(p.traceId).padStart(12, "0"),
);
