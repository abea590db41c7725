/**
 * How the console writes the engine's values: statuses as labelled badges
 * (colour is never the only cue: the word is there), times in UTC with a
 * machine-readable <time>, amounts from integer minor units, enum names from
 * the catalogue. Pure functions over the generated message types.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { CallbackKind, CallbackState } from "../../../gen/cashier/engine/v1/callback_pb.js";
import type { Money } from "../../../gen/cashier/engine/v1/money_pb.js";
import { PayoutLetter, TransactionStatus, TransactionType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { PayoutReason } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { type Html, html } from "../../pages/kit/html.ts";
import { STATUS_WORDS } from "../../wire/status-words.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";

export const TYPE_NAMES: Readonly<Record<number, string>> = {
  [TransactionType.SALE]: "sale",
  [TransactionType.PAYOUT]: "payout",
  [TransactionType.REFUND]: "refund",
};

const STATUS_TONE: Readonly<Record<number, "good" | "bad" | "wait" | "plain">> = {
  [TransactionStatus.APPROVED]: "good",
  [TransactionStatus.DECLINED]: "bad",
  [TransactionStatus.DECLINED_RETRY]: "bad",
  [TransactionStatus.CANCELLED]: "plain",
  [TransactionStatus.PENDING]: "wait",
  [TransactionStatus.PENDING_ASYNC]: "wait",
  [TransactionStatus.REQUESTED]: "wait",
};

const LETTERS: Readonly<Record<number, string>> = {
  [PayoutLetter.AUTHORIZED]: "A",
  [PayoutLetter.IN_PROGRESS]: "P",
  [PayoutLetter.APPROVED]: "Y",
  [PayoutLetter.REJECTED]: "J",
  [PayoutLetter.CANCELLED]: "C",
};

export const KIND_NAMES: Readonly<Record<number, string>> = {
  [CallbackKind.VALIDATION]: "validation",
  [CallbackKind.NOTIFICATION]: "notification",
  [CallbackKind.UPDATE_PAYOUT]: "update_payout",
  [CallbackKind.RECORD_FAILED_DEPOSIT]: "record_failed_deposit",
};

const CALLBACK_STATE_NAMES: Readonly<Record<number, string>> = {
  [CallbackState.PENDING]: "pending",
  [CallbackState.DELIVERED]: "delivered",
  [CallbackState.REFUSED]: "refused",
  [CallbackState.FAILED]: "failed",
};

const CALLBACK_TONE: Readonly<Record<number, "good" | "bad" | "wait" | "plain">> = {
  [CallbackState.PENDING]: "wait",
  [CallbackState.DELIVERED]: "good",
  [CallbackState.REFUSED]: "bad",
  [CallbackState.FAILED]: "bad",
};

/** A payout decision's listed reason, by its form value. */
export const REASON_NAMES: Readonly<Record<number, string>> = {
  [PayoutReason.CHECKS_PASSED]: "checks_passed",
  [PayoutReason.CUSTOMER_REQUEST]: "customer_request",
  [PayoutReason.KYC_INCOMPLETE]: "kyc_incomplete",
  [PayoutReason.SUSPECTED_FRAUD]: "suspected_fraud",
  [PayoutReason.DUPLICATE]: "duplicate",
  [PayoutReason.WRONG_DETAILS]: "wrong_details",
  [PayoutReason.ABUSE]: "abuse",
  [PayoutReason.OTHER]: "other",
};

/** A payout decision's reason in the console's words. */
export function reasonLabel(tr: ConsoleTranslator, reason: PayoutReason): string {
  return tr.t(`bo.reason.${REASON_NAMES[reason] ?? "other"}` as ConsoleKey);
}

export function statusBadge(tr: ConsoleTranslator, status: TransactionStatus, letter = PayoutLetter.UNSPECIFIED): Html {
  const name = STATUS_WORDS[status] ?? "unknown";
  const l = LETTERS[letter];
  return html`<span class="status ${STATUS_TONE[status] ?? "plain"}">${tr.t(`bo.status.${name}` as ConsoleKey)}${l ? ` (${l})` : ""}</span>`;
}

export function typeName(tr: ConsoleTranslator, type: TransactionType): string {
  return tr.t(`bo.type.${TYPE_NAMES[type] ?? "unknown"}` as ConsoleKey);
}

export function kindName(tr: ConsoleTranslator, kind: CallbackKind): string {
  return tr.t(`bo.kind.${KIND_NAMES[kind] ?? "unknown"}` as ConsoleKey);
}

export function callbackBadge(tr: ConsoleTranslator, state: CallbackState): Html {
  const name = CALLBACK_STATE_NAMES[state] ?? "unknown";
  return html`<span class="status ${CALLBACK_TONE[state] ?? "plain"}">${tr.t(`bo.callbackState.${name}` as ConsoleKey)}</span>`;
}

const DATE_TIME = new Map<string, Intl.DateTimeFormat>();

/** A timestamp as "25 Nov 2026, 18:03:12 UTC" in the page's language, inside <time datetime>. */
export function when(tr: ConsoleTranslator, ts: Timestamp | undefined): Html {
  if (!ts) return html`<span class="muted">–</span>`;
  const date = new Date(Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6));
  let f = DATE_TIME.get(tr.locale);
  if (!f) {
    f = new Intl.DateTimeFormat(tr.locale, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
    DATE_TIME.set(tr.locale, f);
  }
  return html`<time datetime="${date.toISOString()}">${f.format(date)} UTC</time>`;
}

/**
 * A timestamp in a list, on one line: "11-29 09:53" (UTC, month-day), the
 * year too when it is not this one; the full time in its title and
 * <time datetime>.
 */
export function shortWhen(tr: ConsoleTranslator, ts: Timestamp | undefined, now = new Date()): Html {
  if (!ts) return html`<span class="muted">–</span>`;
  const date = new Date(Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6));
  const iso = date.toISOString();
  const short = date.getUTCFullYear() === now.getUTCFullYear() ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  return html`<time datetime="${iso}" title="${fullTime(tr, date)}">${short}</time>`;
}

function fullTime(tr: ConsoleTranslator, date: Date): string {
  let f = DATE_TIME.get(tr.locale);
  if (!f) {
    f = new Intl.DateTimeFormat(tr.locale, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
    DATE_TIME.set(tr.locale, f);
  }
  return `${f.format(date)} UTC`;
}

/** Seconds since a timestamp, as the page's language writes a duration ("3 h 5 min"). */
export function age(tr: ConsoleTranslator, ts: Timestamp | undefined, now = Date.now()): string {
  if (!ts) return "";
  const minutes = Math.max(0, Math.floor((now - Number(ts.seconds) * 1000) / 60_000));
  return minutes < 60 ? tr.t("bo.age.minutes", { minutes }) : tr.t("bo.age.hours", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

export function money(tr: ConsoleTranslator, m: Money | undefined): Html {
  if (!m) return html`<span class="muted">–</span>`;
  return html`<span class="amount">${tr.amount(m.amountMinor, m.currency)}</span>`;
}

/** An optional text: a dash when empty. */
export function text(value: string | number | undefined): Html {
  return value === undefined || value === "" || value === 0 ? html`<span class="muted">–</span>` : html`${value}`;
}
