/**
 * The deposit page: the amount (fixed by the session, or presets and a free
 * field named `amount` within the frontend's limits, shown), saved cards
 * first with a fresh security code, then a new card; one form, one submit
 * button. Card numbers and codes are never written back into the page. The
 * form carries its rendering's one-time submission key: sent twice, it makes
 * one order.
 */
import { TransactionType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { type FieldError, amountDisplay, button, errorSummary, field, hiddenFields, radioGroup } from "../../pages/kit/components.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import { sessionPath } from "../paths.ts";
import { type CashierPage, type PageContext, type SessionFrame, sessionPage } from "./page.ts";
import { errorOf, formTokens, limitsHint, newCardFields, savedCardLabel, statusText } from "./parts.ts";
import { payButton } from "./pay-button.ts";

/** What the customer sent last time (to show again with its errors), without any card data. */
export interface DepositValues {
  amount?: string;
  preset?: string;
  /** A saved card's id or "new". */
  source?: string;
  holder?: string;
  save?: boolean;
}

export interface DepositForm {
  csrfToken: string;
  /** This rendering's one-time key (random): the engine names the order by it, so a second submit makes no second order. */
  submissionKey: string;
  values?: DepositValues;
  errors?: readonly FieldError[];
}

export const NEW_CARD = "new";

/** The hidden field of the form's one-time submission key. */
export const SUBMISSION_KEY_FIELD = "submission_key";

/** The customer's saved cards, each with its own form to remove it (the engine erases its sealed number). */
function savedCardsSection(c: PageContext, f: SessionFrame, csrfToken: string): Html {
  const { tr } = c;
  return html`<section aria-labelledby="cards-heading" class="pending">
<h2 id="cards-heading">${tr.t("cashier.cards.heading")}</h2>
<ul class="pending-list">${f.session.savedCards.map((card, i) => {
    const label = savedCardLabel(tr, card);
    return html`<li><span>${label}</span><form method="post" action="${sessionPath(f.sessionToken, "cards/delete", f.parent)}">${formTokens(f.sessionToken, csrfToken)}${hiddenFields(
      {
        card_id: card.cardId,
      },
    )}${button({ label: tr.t("cashier.cards.removeShort"), ariaLabel: tr.t("cashier.cards.remove", { card: label }), variant: "danger", id: `remove-${i}` })}</form></li>`;
  })}</ul>
</section>`;
}

export function depositPage(c: PageContext, f: SessionFrame, form: DepositForm): CashierPage {
  const { tr } = c;
  const t = tr.t;
  const s = f.session;
  const values = form.values ?? {};
  const errors = form.errors ?? [];
  const settings = s.frontendSettings;
  const currency = s.currency;
  const limits = limitsHint(tr, currency, settings?.depositMinMinor ?? 0n, settings?.depositMaxMinor ?? 0n);

  const amount = s.amount
    ? html`<dl><dt>${t("cashier.amount.fixed")}</dt><dd id="fixed-amount">${amountDisplay(tr, s.amount.amountMinor, s.amount.currency)}</dd></dl>`
    : (settings?.depositPresetsMinor.length ?? 0) > 0
      ? html`${radioGroup({
          name: "preset",
          id: "presets",
          className: "presets",
          legend: t("cashier.amount.legend"),
          hint: limits,
          choices: settings!.depositPresetsMinor.map((p) => ({
            value: String(p),
            id: `preset-${p}`,
            label: tr.amount(p, currency),
            checked: values.preset === String(p) && !values.amount,
          })),
        })}
${field({ name: "amount", label: t("cashier.amount.other", { currency }), error: errorOf(errors, "amount"), inputmode: "decimal", value: values.amount, maxlength: 16 })}`
      : field({
          name: "amount",
          label: t("cashier.amount.label", { currency }),
          hint: limits,
          error: errorOf(errors, "amount"),
          inputmode: "decimal",
          value: values.amount,
          maxlength: 16,
        });

  const saved = s.savedCards;
  const source = values.source ?? (saved.length > 0 ? saved[0].cardId : NEW_CARD);
  const cards =
    saved.length > 0
      ? html`${radioGroup({
          name: "source",
          legend: t("cashier.source.legend"),
          error: errorOf(errors, "source"),
          choices: [
            ...saved.map((card, i) => ({ value: card.cardId, id: `card-${i}`, label: savedCardLabel(tr, card), checked: source === card.cardId })),
            { value: NEW_CARD, id: "card-new", label: t("cashier.source.new"), checked: source === NEW_CARD },
          ],
        })}
<div id="saved-group">${field({ name: "saved_card_cvv", label: t("cashier.savedCvv.label"), hint: t("cashier.savedCvv.hint"), error: errorOf(errors, "saved_card_cvv"), type: "password", autocomplete: "cc-csc", inputmode: "numeric", maxlength: 4, dir: "ltr" })}</div>`
      : "";

  // A page brought back after paying is a fresh form: it says what this session paid already, so a second payment is meant.
  const last = s.transactions.find((x) => x.transactionType === TransactionType.SALE);
  const body = html`<h1>${t("cashier.deposit.title")}</h1>
${s.customerName ? html`<p class="customer">${t("cashier.customer", { name: s.customerName })}</p>` : ""}
${
  last
    ? html`<p id="last-deposit" class="last">${t("cashier.deposit.last", {
        amount: last.amount ? tr.amount(last.amount.amountMinor, last.amount.currency) : "",
        status: statusText(tr, last.status),
      })} <a href="${sessionPath(f.sessionToken, `result/${last.traceId}`, f.parent)}">${t("cashier.deposit.lastSee")}</a></p>`
    : ""
}
${errorSummary(tr, errors)}
<form method="post" action="${sessionPath(f.sessionToken, "deposit", f.parent)}" novalidate data-card-form>
${formTokens(f.sessionToken, form.csrfToken)}${hiddenFields({ [SUBMISSION_KEY_FIELD]: form.submissionKey })}
${amount}
${cards}
<fieldset id="new-card"${saved.length > 0 ? html` data-source-new="${NEW_CARD}"` : ""}><legend>${t("cashier.card.legend")}</legend>
${newCardFields(tr, { errors, holder: values.holder, cvv: true, save: settings?.saveCards ? { checked: values.save ?? false } : undefined })}
</fieldset>
${payButton(tr, s, values)}
</form>
${saved.length > 0 ? savedCardsSection(c, f, form.csrfToken) : ""}`;
  return sessionPage(c, f, { http: errors.length > 0 ? 400 : 200, title: t("cashier.deposit.title"), body });
}
