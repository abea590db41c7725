/**
 * The money actions on a transaction's detail page (docs/backoffice-operations.md, Money actions): refund an
 * approved sale (whole or in part; above the merchant's four-eyes amount the first operator's refund waits for a
 * second's approval), cancel a sale still waiting for its customer, each with a reason; and the confirmation page
 * each goes through, saying the amount and its currency before anything moves. Plain POST forms (CSRF token, real
 * buttons, no script needed); what is offered is what the engine says (GetMoneyActions) and the role allows, and the
 * engine checks both again on the action itself. When an action is not offered, the engine's reason is shown. A
 * waiting refund request carries its withdraw form (refund-withdrawal.ts) for the operator who asked and for admins.
 */
import type { GetMoneyActionsResponse } from "../../../gen/cashier/admin/v1/console_money_service_pb.js";
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import { formatMajor } from "../../../engine/shared/money.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { inputField, textArea } from "./controls.ts";
import { noticeBox } from "./gate.ts";
import { mayWithdraw, withdrawForm } from "./refund-withdrawal.ts";
import type { Notice } from "./model.ts";

/** The reason's longest text, as the engine takes it. */
export const MONEY_REASON_MAX = 255;

/** An amount that names its currency by code ("12.50 EUR"), the locale's symbol alone ("€12.50") being ambiguous. */
export function amountWithCode(tr: ConsoleTranslator, minor: bigint, currency: string): string {
  const shown = tr.amount(minor, currency);
  return shown.includes(currency) ? shown : `${shown} (${currency})`;
}

export interface MoneySectionView {
  transaction: Transaction;
  actions: GetMoneyActionsResponse;
  canRefund: boolean;
  canCancel: boolean;
  login: string;
  /** The operator's role: an admin may withdraw another operator's waiting refund request, as the engine allows. */
  role: string;
  csrf: string;
  /** A fresh key for the refund form: the same form sent twice refunds once. */
  requestId: string;
  /** The form again after a refusal: what was typed, and why. */
  typed?: { amount: string; reason: string };
  error?: string;
}

function refundForm(tr: ConsoleTranslator, v: MoneySectionView): Html {
  const t = tr.t;
  const x = v.transaction;
  const currency = x.amount?.currency ?? "";
  const a = v.actions;
  const first = a.refundApproval;
  if (first?.amount) {
    const amount = amountWithCode(tr, first.amount.amountMinor, first.amount.currency);
    const withdraw = mayWithdraw(first, v.login, v.role) ? withdrawForm(tr, x.traceId, v.csrf) : "";
    if (first.login === v.login)
      return html`<p class="notice" role="note" id="refund-waiting">${t("bo.money.waitingYours", { amount })}</p>
${withdraw}`;
    return html`<p class="notice" role="note" id="refund-waiting">${t("bo.money.waiting", { login: first.login, amount, reason: first.reason })}</p>
<form method="post" action="/transactions/${x.traceId}/refund">${hiddenFields({
      [CSRF_FIELD]: v.csrf,
      request_id: v.requestId,
      amount: formatMajor(first.amount.amountMinor, first.amount.currency),
      step: "review",
    })}
${textArea({ name: "reason", id: "approve-reason", label: t("bo.money.reason"), hint: t("bo.money.reasonHint"), maxlength: MONEY_REASON_MAX })}
<div class="actions">${button({ label: t("bo.money.approveButton"), id: "refund-approve" })}</div></form>
${withdraw}`;
  }
  const remaining = a.refundable ? amountWithCode(tr, a.refundable.amountMinor, a.refundable.currency) : "";
  return html`<p>${t("bo.money.refundExplain", { remaining })}</p>
${a.fourEyesAmount ? html`<p class="hint" id="refund-four-eyes">${t("bo.money.fourEyesAbove", { amount: amountWithCode(tr, a.fourEyesAmount.amountMinor, a.fourEyesAmount.currency) })}</p>` : ""}
<form method="post" action="/transactions/${x.traceId}/refund">${hiddenFields({ [CSRF_FIELD]: v.csrf, request_id: v.requestId, step: "review" })}
${inputField({
  name: "amount",
  id: "refund-amount",
  label: t("bo.money.amount", { currency }),
  hint: t("bo.money.amountHint", { currency, example: majorOf(a.refundable?.amountMinor ?? 0n, currency) }),
  inputmode: "decimal",
  value: v.typed?.amount ?? majorOf(a.refundable?.amountMinor ?? 0n, currency),
  required: true,
})}
${textArea({ name: "reason", id: "refund-reason", label: t("bo.money.reason"), hint: t("bo.money.reasonHint"), maxlength: MONEY_REASON_MAX, value: v.typed?.reason })}
<div class="actions">${button({ label: t("bo.money.refundButton"), id: "refund-review" })}</div></form>`;
}

/** The amount as a form's field holds it: major units with the currency's decimals ("12.50"). */
const majorOf = (minor: bigint, currency: string): string => formatMajor(minor, currency);

/** The detail page's section; empty when the transaction offers nothing and says nothing about why. */
export function moneySection(tr: ConsoleTranslator, v: MoneySectionView): Html {
  const t = tr.t;
  const a = v.actions;
  const x = v.transaction;
  const refund =
    v.canRefund && (a.refundOffered || a.refundApproval)
      ? refundForm(tr, v)
      : a.refundRefused
        ? html`<p class="muted" id="refund-refused">${t("bo.money.refundRefused", { reason: a.refundRefused })}</p>`
        : "";
  const cancel =
    v.canCancel && a.cancelOffered
      ? html`<h3>${t("bo.money.cancelTitle")}</h3><p>${t("bo.money.cancelExplain")}</p>
<form method="post" action="/transactions/${x.traceId}/cancel">${hiddenFields({ [CSRF_FIELD]: v.csrf, step: "review" })}
${textArea({ name: "reason", id: "cancel-reason", label: t("bo.money.reason"), hint: t("bo.money.reasonHint"), maxlength: MONEY_REASON_MAX, value: v.typed?.reason })}
<div class="actions">${button({ label: t("bo.money.cancelButton"), id: "cancel-review", variant: "danger" })}</div></form>`
      : a.cancelRefused
        ? html`<p class="muted" id="cancel-refused">${t("bo.money.cancelRefused", { reason: a.cancelRefused })}</p>`
        : "";
  if (refund === "" && cancel === "") return html``;
  return html`<section class="card" aria-labelledby="money-title">
<h2 id="money-title">${t("bo.money.title")}</h2>
${v.error ? html`<div class="notice error" role="alert" id="money-error">${v.error}</div>` : ""}
${refund}
${cancel}
</section>`;
}

export interface ConfirmView {
  transaction: Transaction;
  csrf: string;
  reason: string;
  /** The refund's amount in minor units (a refund), in the sale's currency. */
  amountMinor?: bigint;
  amountText?: string;
  requestId?: string;
  /** The refund records the first of two approvals. */
  firstOfTwo?: boolean;
  notice?: Notice;
}

/** The page between a money form and its action: what will happen, with the amount and its currency, and one button. */
export function confirmPage(tr: ConsoleTranslator, kind: "refund" | "cancel", v: ConfirmView): Html {
  const t = tr.t;
  const x = v.transaction;
  const currency = x.amount?.currency ?? "";
  const amount = amountWithCode(tr, v.amountMinor ?? x.amount?.amountMinor ?? 0n, currency);
  const card = x.card?.maskedNumber ?? "";
  const fields: Record<string, string> = { [CSRF_FIELD]: v.csrf, reason: v.reason, step: "confirm" };
  if (kind === "refund") Object.assign(fields, { amount: v.amountText ?? "", request_id: v.requestId ?? "" });
  return html`<h1>${t(kind === "refund" ? "bo.money.confirmRefundTitle" : "bo.money.confirmCancelTitle")}</h1>
${noticeBox(v.notice)}
<p id="confirm-what">${kind === "refund" ? t("bo.money.confirmRefund", { amount, trace: x.traceId, card }) : t("bo.money.confirmCancel", { amount, trace: x.traceId })}</p>
${v.firstOfTwo ? html`<p class="notice" role="note" id="confirm-first">${t("bo.money.confirmFirst")}</p>` : ""}
<p id="confirm-reason">${t("bo.money.confirmReason", { reason: v.reason })}</p>
<form method="post" action="/transactions/${x.traceId}/${kind}">${hiddenFields(fields)}
<div class="actions">${button({ label: t(kind === "refund" ? "bo.money.confirmRefundButton" : "bo.money.confirmCancelButton", { amount }), id: `${kind}-confirm`, variant: kind === "cancel" ? "danger" : "primary" })}
<a href="/transactions/${x.traceId}" class="button secondary" id="${kind}-back">${t("bo.money.back")}</a></div></form>`;
}
