/**
 * Money is integers in minor units. This module knows each ISO 4217 currency's
 * exponent (from the currency-codes table) and writes major-unit decimals from
 * the integer by string arithmetic, never through a float.
 */
import cc from "currency-codes";

/** Codes in the ISO table that are not money a card can move. */
const NOT_MONEY = new Set(["XXX", "XTS", "XAU", "XAG", "XPD", "XPT", "XBA", "XBB", "XBC", "XBD", "XDR", "XSU", "XUA"]);

/** The ISO 4217 exponent (digits after the point), or undefined for an unknown code. */
export function currencyExponent(code: string): number | undefined {
  if (!/^[A-Z]{3}$/.test(code) || NOT_MONEY.has(code)) return undefined;
  const entry = cc.code(code);
  return entry && Number.isInteger(entry.digits) ? entry.digits : undefined;
}

export function isCurrency(code: string): boolean {
  return currencyExponent(code) !== undefined;
}

/** 1050 USD -> "10.50"; 1000 JPY -> "1000"; -5 EUR -> "-0.05". */
export function formatMajor(minor: number | bigint, currency: string): string {
  const exp = currencyExponent(currency) ?? 2;
  const neg = BigInt(minor) < 0n;
  const digits = (neg ? -BigInt(minor) : BigInt(minor)).toString().padStart(exp + 1, "0");
  const whole = digits.slice(0, digits.length - exp);
  const frac = exp > 0 ? `.${digits.slice(digits.length - exp)}` : "";
  return (neg ? "-" : "") + whole + frac;
}

/**
 * Currencies the seed's wire sends in whole major units; every other currency
 * goes in "cents" (hundredths). CONTRACT section 3.
 */
export const WHOLE_UNIT_CURRENCIES = new Set(["JPY", "CLP", "KRW", "VND", "BHD", "IQD", "JOD", "LYD", "OMR", "TND"]);

/**
 * Validation's own list (seed 2.3 and section 8): only these four go
 * unconverted there; BHD and the other three-decimal currencies are in cents.
 */
export const VALIDATION_WHOLE_UNIT_CURRENCIES: ReadonlySet<string> = new Set(["JPY", "CLP", "KRW", "VND"]);

/**
 * Whether an amount in minor units can be written in the wire's unit: BHD is
 * sent in whole dinars, so 5500 minor units (5.500) cannot; callbacks that
 * carry `amount` must never round.
 */
export function wireRepresentable(minor: number, currency: string): boolean {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) return true;
  const shift = exponent - (WHOLE_UNIT_CURRENCIES.has(currency) ? 0 : 2);
  return shift <= 0 || BigInt(minor) % 10n ** BigInt(shift) === 0n;
}

/** Why an amount in minor units cannot be written on the wire (BHD 5500: the wire carries whole dinars). */
export function wireUnitProblem(currency: string): string {
  const exponent = currencyExponent(currency) ?? 2;
  const step = 10n ** BigInt(Math.max(0, exponent - (WHOLE_UNIT_CURRENCIES.has(currency) ? 0 : 2)));
  const unit = WHOLE_UNIT_CURRENCIES.has(currency) ? "whole units" : "hundredths";
  return `must be a multiple of ${step} minor units: the merchant interface carries ${currency} in ${unit}`;
}

/**
 * Minor units -> the seed's wire `amount` (the inverse of the edge's reading):
 * USD 1050 -> 1050, JPY 1000 -> 1000, BHD 5000 -> 5. Integer arithmetic only; a
 * remainder cannot occur for amounts that came in on the wire.
 */
export function wireAmount(minor: number, currency: string, wholeUnits: ReadonlySet<string> = WHOLE_UNIT_CURRENCIES): number {
  const exponent = currencyExponent(currency) ?? 2;
  const shift = exponent - (wholeUnits.has(currency) ? 0 : 2);
  if (shift <= 0) return Number(BigInt(minor) * 10n ** BigInt(-shift));
  return Number(BigInt(minor) / 10n ** BigInt(shift));
}

/** Per-currency bounds of what a customer may deposit or withdraw; absent: no bound beyond a positive amount. */
export interface CurrencyLimits {
  depositMin?: number;
  depositMax?: number;
  withdrawalMin?: number;
  withdrawalMax?: number;
}
