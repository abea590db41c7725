/**
 * The deposit form's submit button names what it pays ("Pay 25.00 USD"): the
 * session's fixed amount, else the preset chosen or the amount typed (read by
 * the page's language), else just "Pay". The page's script keeps the label in
 * step as the amount changes; for that the button carries how this page writes
 * an amount (Intl options and the catalogue's pattern), checked against the
 * server's own writing so that the script never shows an amount written
 * otherwise than the page does (when it cannot match, the script leaves the
 * label alone).
 */
import type { CashierSession } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { button } from "../../pages/kit/components.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import { type Translator, majorString } from "../../pages/kit/i18n.ts";
import { currencyExponent } from "../../../engine/shared/money.ts";
import { parseAmountInput, separatorsOf } from "../amount-input.ts";

/** What the form held when it was shown: the amount typed or the preset chosen. */
export interface AmountValues {
  amount?: string;
  preset?: string;
}

/** How the page writes an amount of this currency, for the script: Intl options, and the text around the number. */
export function amountWriting(tr: Translator, currency: string): { options: Intl.NumberFormatOptions; pattern: string } | undefined {
  const exponent = currencyExponent(currency) ?? 2;
  const sample = majorString(123456789n, exponent) as Intl.StringNumericLiteral;
  const written = tr.amount(123456789n, currency);
  const plain: Intl.NumberFormatOptions = { minimumFractionDigits: exponent, maximumFractionDigits: exponent, useGrouping: "min2" };
  const pattern = tr.t("kit.amount", { amount: "%N%", currency });
  if (written === pattern.replace("%N%", new Intl.NumberFormat(tr.locale, plain).format(sample))) return { options: plain, pattern };
  const money: Intl.NumberFormatOptions = { style: "currency", currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent };
  if (written === new Intl.NumberFormat(tr.locale, money).format(sample)) return { options: money, pattern: "%N%" };
  return undefined;
}

/** The amount the form would pay as it stands, when it is known. */
export function knownAmount(tr: Translator, s: CashierSession, values: AmountValues): bigint | undefined {
  if (s.amount) return s.amount.amountMinor;
  if (values.amount?.trim()) {
    const r = parseAmountInput(values.amount, s.currency, tr.locale);
    return r.ok ? r.minor : undefined;
  }
  const preset = s.frontendSettings?.depositPresetsMinor.find((p) => String(p) === values.preset);
  return preset;
}

export function payButton(tr: Translator, s: CashierSession, values: AmountValues): Html {
  const minor = knownAmount(tr, s, values);
  const label = minor === undefined ? tr.t("cashier.deposit.submit") : tr.t("cashier.deposit.payAmount", { amount: tr.amount(minor, s.currency) });
  const writing = amountWriting(tr, s.currency);
  const live =
    writing && !s.amount
      ? JSON.stringify({
          locale: tr.locale,
          exponent: currencyExponent(s.currency) ?? 2,
          ...separatorsOf(tr.locale),
          options: writing.options,
          amount: writing.pattern,
          label: tr.t("cashier.deposit.payAmount", { amount: "%A%" }),
          plain: tr.t("cashier.deposit.submit"),
        })
      : undefined;
  const b = button({ label, id: "pay" });
  return live ? html`<span data-pay="${live}">${b}</span>` : b;
}
