/**
 * The seed's `amount` unit -> integer minor units. The wire sends "cents"
 * (hundredths of the major unit), except for JPY, CLP, KRW, VND, BHD, IQD, JOD,
 * LYD, OMR and TND, which are sent in whole major units. Minor units follow the
 * ISO 4217 exponent: USD 1050 -> 1050; JPY 1000 -> 1000; BHD 5 -> 5000.
 */
import { WHOLE_UNIT_CURRENCIES, currencyExponent } from "../../engine/shared/money.ts";

export type AmountResult = { ok: true; minor: bigint } | { ok: false; reason: string };

export function wireAmountToMinor(amount: number, currency: string): AmountResult {
  const exponent = currencyExponent(currency);
  const value = BigInt(amount);
  // Unknown currency: pass the number through; the engine names the currency.
  if (exponent === undefined) return { ok: true, minor: value };
  const wireExponent = WHOLE_UNIT_CURRENCIES.has(currency) ? 0 : 2;
  const shift = exponent - wireExponent;
  if (shift >= 0) return { ok: true, minor: value * 10n ** BigInt(shift) };
  const divisor = 10n ** BigInt(-shift);
  if (value % divisor !== 0n) return { ok: false, reason: `${currency} has ${exponent} decimals: the amount in cents must be a multiple of ${divisor}` };
  return { ok: true, minor: value / divisor };
}
