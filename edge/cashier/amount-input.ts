/**
 * The amount a customer types, read exactly: digits with at most one decimal
 * separator (a point or a comma, as German writes it), never more decimals
 * than the currency has, no grouping, no sign, no exponent. Minor units come
 * out as a bigint; the value never goes through a float.
 */
import { currencyExponent } from "../../engine/shared/money.ts";
import { majorString } from "../pages/kit/i18n.ts";

export type AmountInput = { ok: true; minor: bigint } | { ok: false };

const SHAPE = /^([0-9]{1,12})(?:[.,]([0-9]*))?$/;

export function parseAmountInput(text: string, currency: string): AmountInput {
  const exponent = currencyExponent(currency) ?? 2;
  const m = SHAPE.exec(text.trim().replace(/\s/g, ""));
  if (!m) return { ok: false };
  const fraction = m[2] ?? "";
  if (fraction.length > exponent) return { ok: false };
  const minor = BigInt(m[1]) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, "0") || "0");
  return minor > 0n ? { ok: true, minor } : { ok: false };
}

/** Minor units as the amount field's value: a plain decimal with a point, no grouping ("25.00", "1000"). */
export function amountInputValue(minor: bigint, currency: string): string {
  return majorString(minor, currencyExponent(currency) ?? 2);
}
