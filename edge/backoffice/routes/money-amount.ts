/**
 * An amount an operator types in a money form, in the currency's major unit ("12.50" euros, "1200" yen), read into
 * minor units with the currency's own decimals (engine/shared/money.ts): a comma or more decimals than the currency
 * has is not guessed at, it is refused and the form shown again. The engine judges the amount again.
 */
import { currencyExponent } from "../../../engine/shared/money.ts";

/** The amount in minor units, or undefined when the text is not one of `currency`'s amounts (or is zero). */
export function minorOf(text: string, currency: string): bigint | undefined {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) return undefined;
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(text.trim());
  if (!m || (m[2] ?? "").length > exponent) return undefined;
  const minor = BigInt(m[1]) * 10n ** BigInt(exponent) + BigInt((m[2] ?? "").padEnd(exponent, "0") || "0");
  return minor > 0n && minor <= BigInt(Number.MAX_SAFE_INTEGER) ? minor : undefined;
}
