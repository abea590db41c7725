/**
 * Pieces the deposit and withdrawal forms share: the limits hint, a saved
 * card's label, the new-card fields (autocomplete tokens cc-number, cc-exp,
 * cc-csc, cc-name), a transaction's state in words, and the hidden fields
 * that tie a form to its session.
 */
import type { SavedCard } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { TransactionStatus } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { CSRF_FIELD, SESSION_FIELD } from "../../pages/kit/csrf.ts";
import { type FieldError, checkbox, field, hiddenFields } from "../../pages/kit/components.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { Translator } from "../../pages/kit/i18n.ts";

/** A bound of 0 means none (CashierFrontend). */
export function limitsHint(tr: Translator, currency: string, min: bigint, max: bigint): string | undefined {
  const amount = (v: bigint) => tr.amount(v, currency);
  if (min > 0n && max > 0n) return tr.t("kit.limits.range", { min: amount(min), max: amount(max) });
  if (min > 0n) return tr.t("cashier.amount.atLeast", { min: amount(min) });
  if (max > 0n) return tr.t("cashier.amount.atMost", { max: amount(max) });
  return undefined;
}

/** A transaction's state as the customer reads it. */
export function statusText(tr: Translator, status: TransactionStatus): string {
  switch (status) {
    case TransactionStatus.REQUESTED:
      return tr.t("cashier.status.requested");
    case TransactionStatus.APPROVED:
      return tr.t("cashier.status.approved");
    case TransactionStatus.DECLINED:
      return tr.t("cashier.status.declined");
    case TransactionStatus.CANCELLED:
      return tr.t("cashier.status.cancelled");
    default:
      return tr.t("cashier.status.pending");
  }
}

const BRANDS: Readonly<Record<string, string>> = {
  VISA: "Visa",
  MC: "Mastercard",
  MASTERCARD: "Mastercard",
  AMEX: "American Express",
  DISCOVER: "Discover",
  JCB: "JCB",
  DINERS: "Diners Club",
  MAESTRO: "Maestro",
  UNIONPAY: "UnionPay",
};

/** "VISA" -> "Visa"; an unknown brand as the engine wrote it. */
export function brandName(brand: string): string {
  return BRANDS[brand.toUpperCase()] ?? brand;
}

export function savedCardLabel(tr: Translator, card: SavedCard): string {
  const masked = card.card?.maskedNumber ?? "";
  return tr.t("cashier.source.saved", { brand: brandName(card.card?.brand ?? ""), last4: masked.slice(-4), expiry: card.card?.expiry ?? "" });
}

export function errorOf(errors: readonly FieldError[], id: string): string | undefined {
  return errors.find((e) => e.field === id)?.message;
}

/** The session and CSRF fields of a form. */
export function formTokens(sessionToken: string, csrfToken: string): Html {
  return hiddenFields({ [SESSION_FIELD]: sessionToken, [CSRF_FIELD]: csrfToken });
}

/** The new-card fields; the CVV only for deposits, "save" only when the frontend keeps cards. */
export function newCardFields(tr: Translator, o: { errors: readonly FieldError[]; holder?: string; cvv: boolean; save?: { checked: boolean } }): Html {
  const t = tr.t;
  return html`${field({ name: "card_number", label: t("cashier.card.number"), hint: t("cashier.card.numberHint"), error: errorOf(o.errors, "card_number"), autocomplete: "cc-number", inputmode: "numeric", maxlength: 23, dir: "ltr" })}
<p class="brand" id="card_number-brand" aria-live="polite" data-template="${t("cashier.card.brand", { brand: "%BRAND%" })}"></p>
<p class="hint luhn" id="card_number-luhn" hidden>${t("cashier.card.luhn")}</p>
${field({ name: "card_exp", label: t("cashier.card.expiry"), error: errorOf(o.errors, "card_exp"), autocomplete: "cc-exp", inputmode: "numeric", maxlength: 7, dir: "ltr" })}
${o.cvv ? field({ name: "cvv", label: t("cashier.card.cvv"), hint: t("cashier.card.cvvHint"), error: errorOf(o.errors, "cvv"), type: "password", autocomplete: "cc-csc", inputmode: "numeric", maxlength: 4, dir: "ltr" }) : ""}
${field({ name: "holder", label: t("cashier.card.holder"), error: errorOf(o.errors, "holder"), autocomplete: "cc-name", value: o.holder, maxlength: 64 })}
${o.save ? checkbox({ name: "save_card", label: t("cashier.card.save"), checked: o.save.checked }) : ""}`;
}
