/**
 * The Virtual Terminal's pages (docs/backoffice-operations.md, Virtual Terminal): an operator takes a card payment for
 * a customer on the phone in three steps, plain POST forms that work without scripts. First the sale (frontend,
 * amount and currency, the customer, the reason); then the confirmation, which says the amount and its currency and
 * takes the card there, so that the card is typed once and never drawn back into a page; then the result, with the
 * transaction's link. Every field has autocomplete="off" and no cc-* token: an agent's browser must not keep or offer
 * the customers' cards (nor their details).
 */
import type { Merchant } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { type Transaction, TransactionStatus } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { button, errorSummary, field, type FieldError, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { selectField, textArea } from "./controls.ts";
import { statusBadge } from "./format.ts";
import { amountWithCode, MONEY_REASON_MAX } from "./money-actions.ts";

/** The sale's fields as the first step sends them, carried to the confirmation in hidden fields (never the card). */
export const SALE_FIELDS = ["frontend", "currency", "amount", "pin", "email", "first_name", "last_name", "country", "phone", "reason", "request_id"] as const;
export type SaleFields = Record<(typeof SALE_FIELDS)[number], string>;

/** The card's fields, read only from the confirmation step. */
export const CARD_FIELDS = ["card_number", "card_expiry", "card_cvv"] as const;

export interface TerminalView {
  merchant: Merchant;
  csrf: string;
  typed: SaleFields;
  errors: readonly FieldError[];
}

const path = (m: Merchant) => `/merchants/${encodeURIComponent(m.merchantId)}/virtual-terminal`;

/** A text input with autocomplete off, its error beside it. */
function input(
  name: string,
  label: string,
  v: { value?: string; errors: readonly FieldError[]; hint?: string; inputmode?: "numeric" | "decimal" | "email"; maxlength?: number; dir?: "ltr" },
) {
  const id = `vt-${name.replaceAll("_", "-")}`;
  return field({
    name,
    id,
    label,
    value: v.value,
    hint: v.hint,
    error: v.errors.find((e) => e.field === id)?.message,
    autocomplete: "off",
    inputmode: v.inputmode,
    maxlength: v.maxlength,
    dir: v.dir,
    required: true,
  });
}

/** Step one: the sale without the card. */
export function terminalForm(tr: ConsoleTranslator, v: TerminalView): Html {
  const t = tr.t;
  const m = v.merchant;
  const currencies = [...new Set(m.frontends.flatMap((f) => (f.currencies.length > 0 ? f.currencies : [f.baseCurrency])))];
  const typed = v.typed;
  const errors = v.errors;
  const optional = (name: "phone", label: string) =>
    field({ name, id: `vt-${name}`, label, value: typed[name], autocomplete: "off", inputmode: "numeric", maxlength: 20 });
  return html`<h1>${t("bo.vt.title", { merchant: m.merchantId })}</h1>
<p>${t("bo.vt.intro")}</p>
${errors.length > 0 ? errorSummary(tr, errors) : ""}
<form method="post" action="${path(m)}" autocomplete="off" id="vt-sale">${hiddenFields({ [CSRF_FIELD]: v.csrf, request_id: typed.request_id, step: "card" })}
<fieldset><legend>${t("bo.vt.sale")}</legend>
${selectField({ name: "frontend", id: "vt-frontend", label: t("bo.vt.frontend"), options: m.frontends.map((f) => ({ value: f.name, label: f.name })), value: typed.frontend, required: true })}
${selectField({ name: "currency", id: "vt-currency", label: t("bo.vt.currency"), options: currencies.map((c) => ({ value: c, label: c })), value: typed.currency, required: true })}
${input("amount", t("bo.vt.amount"), { value: typed.amount, errors, hint: t("bo.vt.amountHint"), inputmode: "decimal", maxlength: 20, dir: "ltr" })}
</fieldset>
<fieldset><legend>${t("bo.vt.customer")}</legend>
${input("pin", t("bo.vt.pin"), { value: typed.pin, errors, maxlength: 50 })}
${input("email", t("bo.vt.email"), { value: typed.email, errors, inputmode: "email", maxlength: 100, dir: "ltr" })}
${input("first_name", t("bo.vt.firstName"), { value: typed.first_name, errors, maxlength: 50 })}
${input("last_name", t("bo.vt.lastName"), { value: typed.last_name, errors, maxlength: 50 })}
${input("country", t("bo.vt.country"), { value: typed.country, errors, hint: t("bo.vt.countryHint"), maxlength: 2, dir: "ltr" })}
${optional("phone", t("bo.vt.phone"))}
</fieldset>
${textArea({ name: "reason", id: "vt-reason", label: t("bo.vt.reason"), hint: t("bo.vt.reasonHint"), maxlength: MONEY_REASON_MAX, value: typed.reason })}
<div class="actions">${button({ label: t("bo.vt.next"), id: "vt-next" })}</div></form>`;
}

/** Step two: what will be charged, in words and with its currency, and the card, typed here once. */
export function confirmForm(tr: ConsoleTranslator, v: TerminalView & { amountMinor: bigint }): Html {
  const t = tr.t;
  const typed = v.typed;
  const amount = amountWithCode(tr, v.amountMinor, typed.currency);
  const carried = Object.fromEntries(SALE_FIELDS.map((k) => [k, typed[k]]));
  return html`<h1>${t("bo.vt.confirmTitle")}</h1>
${v.errors.length > 0 ? errorSummary(tr, v.errors) : ""}
<p id="vt-charge-summary">${t("bo.vt.confirmSummary", { amount, merchant: v.merchant.merchantId, frontend: typed.frontend })}</p>
<dl class="summary" id="vt-summary">
<dt>${t("bo.vt.amount")}</dt><dd>${amount}</dd>
<dt>${t("bo.vt.customer")}</dt><dd>${typed.first_name} ${typed.last_name} (${typed.pin}), <bdi dir="ltr">${typed.email}</bdi>, ${typed.country}</dd>
<dt>${t("bo.vt.reason")}</dt><dd>${typed.reason}</dd>
</dl>
<form method="post" action="${path(v.merchant)}" autocomplete="off" id="vt-card">${hiddenFields({ [CSRF_FIELD]: v.csrf, ...carried, step: "charge" })}
<fieldset><legend>${t("bo.vt.card")}</legend>
${input("card_number", t("bo.vt.cardNumber"), { errors: v.errors, inputmode: "numeric", maxlength: 23, dir: "ltr" })}
${input("card_expiry", t("bo.vt.cardExpiry"), { errors: v.errors, hint: t("bo.vt.cardExpiryHint"), maxlength: 9, dir: "ltr" })}
${input("card_cvv", t("bo.vt.cardCvv"), { errors: v.errors, inputmode: "numeric", maxlength: 4, dir: "ltr" })}
</fieldset>
<div class="actions">${button({ label: t("bo.vt.chargeButton", { amount }), id: "vt-charge" })}</div></form>
<p><a href="${path(v.merchant)}">${t("bo.vt.startOver")}</a></p>`;
}

/** Step three: the sale as it stands, and the way to its page. */
export function resultPage(tr: ConsoleTranslator, x: Transaction, merchant: Merchant, replayed: boolean): Html {
  const t = tr.t;
  const amount = x.amount ? amountWithCode(tr, x.amount.amountMinor, x.amount.currency) : "";
  const approved = x.status === TransactionStatus.APPROVED;
  return html`<h1>${t("bo.vt.resultTitle")}</h1>
<div class="notice ${approved ? "success" : "error"}" role="status" id="vt-result"><p>${t(approved ? "bo.vt.approved" : "bo.vt.notApproved", {
    amount,
    trace: x.traceId,
  })} ${statusBadge(tr, x.status)}</p>${replayed ? html`<p>${t("bo.vt.replayed")}</p>` : ""}${
    !approved && x.errorDetails ? html`<p>${t("bo.vt.why", { details: x.errorDetails })}</p>` : ""
  }</div>
<p><a href="/transactions/${x.traceId}" id="vt-transaction">${t("bo.vt.openTransaction", { trace: x.traceId })}</a></p>
<p><a href="${path(merchant)}" id="vt-another">${t("bo.vt.another")}</a></p>`;
}
