/**
 * The card fields of the Cashier's forms, decoded into what the engine takes:
 * the number without the spaces people type, the expiry as MM/YYYY from
 * "MM/YY", "MM / YYYY" or "MMYY", the CVV as digits. The shape is read here,
 * and the number by the engine's own rule (12 to 19 digits, the Luhn check), so that a mistyped
 * number is named in the same summary as the form's other mistakes instead of
 * in a round of its own; the engine checks everything again (a past expiry too).
 * The brand shown beside the number comes from card-validator.
 */
import cardValidator from "card-validator";
import { cardNumberProblem } from "../../engine/shared/card.ts";

export type Decoded<T> = { ok: true; value: T } | { ok: false };

export function cardNumberInput(text: string): Decoded<string> {
  const digits = text.replace(/[\s-]/g, "");
  return cardNumberProblem(digits) === undefined ? { ok: true, value: digits } : { ok: false };
}

export function expiryInput(text: string): Decoded<string> {
  const m = /^(0?[1-9]|1[0-2])\s*\/?\s*([0-9]{2}|[0-9]{4})$/.exec(text.trim());
  if (!m) return { ok: false };
  const month = m[1].padStart(2, "0");
  const year = m[2].length === 2 ? `20${m[2]}` : m[2];
  return { ok: true, value: `${month}/${year}` };
}

export function cvvInput(text: string): Decoded<string> {
  const digits = text.trim();
  return /^[0-9]{3,4}$/.test(digits) ? { ok: true, value: digits } : { ok: false };
}

export function holderInput(text: string): Decoded<string> {
  const name = text.trim().replace(/\s+/g, " ");
  return name.length >= 2 && name.length <= 64 && !/[0-9<>]/.test(name) ? { ok: true, value: name } : { ok: false };
}

/** The card's brand by its leading digits ("Visa", "Mastercard"), or "" when unknown. */
export function brandOf(number: string): string {
  return cardValidator.number(number.replace(/[\s-]/g, "")).card?.niceType ?? "";
}
