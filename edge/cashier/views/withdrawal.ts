/**
 * The withdrawal page: the amount within the balance and the frontend's
 * limits, the destination among the customer's cards that pass the
 * closed-loop rule (or another card, which the engine checks against it),
 * the customer's pending withdrawals, and a cancel button on each only when
 * the frontend allows it. A session makes one payout (the platform's
 * order_id): once made, the page links to it instead of offering a form.
 */
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { TransactionType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { type FieldError, amountDisplay, button, errorSummary, field, hiddenFields, pathButton, radioGroup } from "../../pages/kit/components.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { Translator } from "../../pages/kit/i18n.ts";
import { sessionPath } from "../paths.ts";
import { type CashierPage, type PageContext, type SessionFrame, sessionPage } from "./page.ts";
import { errorOf, formTokens, limitsHint, newCardFields, savedCardLabel, statusText } from "./parts.ts";
import { NEW_CARD } from "./deposit.ts";

export interface WithdrawalValues {
  amount?: string;
  destination?: string;
  holder?: string;
}

export type CancelNotice = "done" | "late";

export interface WithdrawalForm {
  csrfToken: string;
  values?: WithdrawalValues;
  errors?: readonly FieldError[];
  /** The customer has just cancelled one of their pending withdrawals ("done"), or tried to too late ("late"). */
  cancelled?: CancelNotice;
}

/** A date as the customer's language writes it (the server's time zone is UTC). */
export function dateText(tr: Translator, t: Transaction): string {
  const seconds = t.createTime?.seconds ?? 0n;
  return new Intl.DateTimeFormat(tr.locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(Number(seconds) * 1000));
}

function pendingList(c: PageContext, f: SessionFrame, csrfToken: string, cancelled: CancelNotice | undefined): Html {
  const { tr } = c;
  const t = tr.t;
  const pending = f.session.pendingWithdrawals;
  const cancel = f.session.frontendSettings?.playerCancelWithdrawal ?? false;
  return html`<section aria-labelledby="pending-heading" class="pending">
<h2 id="pending-heading">${t("cashier.withdrawal.pending.heading")}</h2>
${cancelled === "done" ? html`<p id="cancelled" role="status">${t("cashier.withdrawal.cancelled")}</p>` : ""}
${cancelled === "late" ? html`<p id="cancel-late" role="status">${t("cashier.withdrawal.cancelLate")}</p>` : ""}
<p id="pending-count">${t("cashier.withdrawal.pending.count", { count: pending.length })}</p>
${
  pending.length > 0
    ? html`<ul class="pending-list">${pending.map((w) => {
        const amount = tr.amount(w.amount?.amountMinor ?? 0n, w.amount?.currency ?? "");
        return html`<li id="pending-${w.traceId}"><span>${t("cashier.withdrawal.pending.item", { amount, date: dateText(tr, w), status: statusText(tr, w.status) })}</span>${
          cancel
            ? html`<form method="post" action="${sessionPath(f.sessionToken, "cancel", f.parent)}">${formTokens(f.sessionToken, csrfToken)}${hiddenFields({
                trace_id: String(w.traceId),
              })}${button({ label: t("cashier.withdrawal.cancelShort"), ariaLabel: t("cashier.withdrawal.cancel", { amount }), variant: "danger", id: `cancel-${w.traceId}` })}</form>`
            : ""
        }</li>`;
      })}</ul>`
    : ""
}
</section>`;
}

export function withdrawalPage(c: PageContext, f: SessionFrame, form: WithdrawalForm): CashierPage {
  const { tr } = c;
  const t = tr.t;
  const s = f.session;
  const values = form.values ?? {};
  const errors = form.errors ?? [];
  const settings = s.frontendSettings;
  const currency = s.currency;
  const balance = s.balance?.amountMinor;
  const min = settings?.withdrawalMinMinor ?? 0n;
  const max = settings?.withdrawalMaxMinor ?? 0n;
  const cap = balance !== undefined && (max === 0n || balance < max) ? balance : max;
  const limits = limitsHint(tr, currency, min, cap);
  const made = s.transactions.find((x) => x.transactionType === TransactionType.PAYOUT);
  // Nothing this customer may ask for: a balance of none, or below the smallest withdrawal. The session still shows
  // the balance and the pending withdrawals (and their cancel buttons); a fixed amount was checked at the start.
  const nothingToAsk = !s.amount && balance !== undefined && (balance === 0n || balance < min);

  const cards = s.savedCards.filter((card) => card.withdrawable);
  const destination = values.destination ?? (cards.length > 0 ? cards[0].cardId : NEW_CARD);
  const formHtml = made
    ? html`<p id="withdrawal-made">${t("cashier.withdrawal.done", { status: statusText(tr, made.status) })}</p>
<p class="actions">${pathButton(t("cashier.withdrawal.see"), sessionPath(f.sessionToken, `result/${made.traceId}`, f.parent), "see-result")}</p>`
    : nothingToAsk
      ? html`<p id="nothing-to-withdraw">${
          balance === 0n ? t("cashier.withdrawal.nothing") : t("cashier.withdrawal.belowMinimum", { min: tr.amount(min, currency) })
        }</p>`
      : html`${errorSummary(tr, errors)}
<form method="post" action="${sessionPath(f.sessionToken, "withdrawal", f.parent)}" novalidate data-card-form>
${formTokens(f.sessionToken, form.csrfToken)}
${
  s.amount
    ? html`<dl><dt>${t("cashier.amount.fixed")}</dt><dd id="fixed-amount">${amountDisplay(tr, s.amount.amountMinor, s.amount.currency)}</dd></dl>`
    : field({
        name: "amount",
        label: t("cashier.amount.label", { currency }),
        hint: limits,
        error: errorOf(errors, "amount"),
        inputmode: "decimal",
        value: values.amount,
        maxlength: 16,
      })
}
${
  cards.length > 0
    ? radioGroup({
        name: "destination",
        id: "source",
        legend: t("cashier.withdrawal.destination"),
        hint: settings?.closedLoopWithdrawals ? t("cashier.withdrawal.closedLoop") : undefined,
        error: errorOf(errors, "source"),
        choices: [
          ...cards.map((card, i) => ({ value: card.cardId, id: `card-${i}`, label: savedCardLabel(tr, card), checked: destination === card.cardId })),
          { value: NEW_CARD, id: "card-new", label: t("cashier.withdrawal.newCard"), checked: destination === NEW_CARD },
        ],
      })
    : settings?.closedLoopWithdrawals
      ? html`<p class="hint" id="closed-loop">${t("cashier.withdrawal.closedLoop")}</p>`
      : ""
}
<fieldset id="new-card"${cards.length > 0 ? html` data-source-new="${NEW_CARD}"` : ""}><legend>${cards.length > 0 ? t("cashier.withdrawal.newCard") : t("cashier.card.legend")}</legend>
${newCardFields(tr, { errors, holder: values.holder, cvv: false })}
</fieldset>
${button({ label: t("cashier.withdrawal.submit"), id: "withdraw" })}
</form>`;

  const body = html`<h1>${t("cashier.withdrawal.title")}</h1>
${s.customerName ? html`<p class="customer">${t("cashier.customer", { name: s.customerName })}</p>` : ""}
${balance !== undefined ? html`<dl><dt>${t("cashier.balance")}</dt><dd id="balance">${amountDisplay(tr, balance, currency)}</dd></dl>` : ""}
${formHtml}
${pendingList(c, f, form.csrfToken, form.cancelled)}`;
  return sessionPage(c, f, { http: errors.length > 0 ? 400 : 200, title: t("cashier.withdrawal.title"), body });
}
