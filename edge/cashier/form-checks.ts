/**
 * What a Cashier form can tell the customer in the same round as a field's
 * shape: an amount outside the limits the page shows (the frontend's, and a
 * withdrawal's balance) and a card expiry in the past. The engine checks both
 * again and stays the authority; these only keep a form from coming back
 * twice, its shape mistakes first and its amount and expiry next.
 */
import type { CashierSession } from "../../gen/cashier/engine/v1/cashier_service_pb.js";
import type { Translator } from "../pages/kit/i18n.ts";
import { type AmountInput, amountInputValue, separatorsOf } from "./amount-input.ts";
import { amountError } from "./routes/form-errors.ts";
import { currencyExponent } from "../../engine/shared/money.ts";

/** The limits the page shows for the intent, minor units; 0 is none. */
export function boundsOf(session: CashierSession, intent: "deposit" | "withdrawal"): { min: bigint; max: bigint } {
  const s = session.frontendSettings;
  const min = intent === "deposit" ? (s?.depositMinMinor ?? 0n) : (s?.withdrawalMinMinor ?? 0n);
  let max = intent === "deposit" ? (s?.depositMaxMinor ?? 0n) : (s?.withdrawalMaxMinor ?? 0n);
  const balance = intent === "withdrawal" ? session.balance?.amountMinor : undefined;
  if (balance !== undefined && (max === 0n || balance < max)) max = balance;
  return { min, max };
}

export function outOfBounds(session: CashierSession, intent: "deposit" | "withdrawal", minor: bigint): boolean {
  const { min, max } = boundsOf(session, intent);
  return (min > 0n && minor < min) || (max > 0n && minor > max) || (intent === "withdrawal" && session.balance?.amountMinor === 0n);
}

/** The amount field's message for an amount that was not read: its shape, or the two ways it can be read. */
export function unreadAmountMessage(tr: Translator, session: CashierSession, intent: "deposit" | "withdrawal", r: AmountInput & { ok: false }): string {
  if (r.reason === "shape") return amountError(tr, session, intent, true);
  const currency = session.currency;
  const decimals = currencyExponent(currency) ?? 2;
  return tr.t("cashier.amount.ambiguous", {
    decimal: separatorsOf(tr.locale).decimal,
    decimals,
    // 1234.50 in the currency's decimals (1234 in JPY, 1234.500 in BHD), written as the field takes it.
    example: amountInputValue(1234n * 10n ** BigInt(decimals) + (decimals > 0 ? 5n * 10n ** BigInt(decimals - 1) : 0n), currency, tr.locale),
  });
}

/** An expiry "MM/YYYY" whose month has ended (UTC, as the engine reads it). */
export function expiryPast(expiry: string, now: Date = new Date()): boolean {
  const m = /^([0-9]{2})\/([0-9]{4})$/.exec(expiry);
  if (!m) return false;
  return Number(m[2]) * 12 + Number(m[1]) - 1 < now.getUTCFullYear() * 12 + now.getUTCMonth();
}
