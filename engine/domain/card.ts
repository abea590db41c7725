/**
 * Card number rules and the only views of a card that may be kept: the masked
 * number (first 6, last 4) and the brand. Brand detection is card-validator's
 * (Braintree's maintained BIN-pattern table), not a regex list of our own.
 */
import cardValidator from "card-validator";
import validator from "validator";
import { ownEntry } from "./own-entry.ts";

/** The Luhn check digit holds (validator's, which the rule table already relies on). */
export function luhnValid(digits: string): boolean {
  return validator.isLuhnNumber(digits);
}

/** What is wrong with a card number as typed into the API (digits only), or undefined: 12 to 19 digits, Luhn. */
export function cardNumberProblem(n: string): "is required" | "must be 12 to 19 digits" | "fails the Luhn check" | undefined {
  if (n === "") return "is required";
  if (!/^\d{12,19}$/.test(n)) return "must be 12 to 19 digits";
  return luhnValid(n) ? undefined : "fails the Luhn check";
}

const BRANDS: Record<string, string> = {
  visa: "VISA",
  mastercard: "MC",
  "american-express": "AMEX",
  "diners-club": "DINERS",
  discover: "DISCOVER",
  jcb: "JCB",
  unionpay: "UNIONPAY",
  maestro: "MAESTRO",
  mir: "MIR",
  elo: "ELO",
  hiper: "HIPER",
  hipercard: "HIPERCARD",
};

const brandCache = new Map<string, string>();

/**
 * VISA, MC, AMEX, ... or CARD when the number matches no known brand. The
 * brand depends only on the leading digits and the length, so answers are
 * remembered by those (card-validator copies its table on every call).
 */
export function cardBrand(digits: string): string {
  const key = `${digits.slice(0, 8)}:${digits.length}`;
  const cached = brandCache.get(key);
  if (cached) return cached;
  const type = cardValidator.number(digits).card?.type;
  const brand = (type && ownEntry(BRANDS, type)) || "CARD";
  if (brandCache.size > 10_000) brandCache.clear();
  brandCache.set(key, brand);
  return brand;
}

/** 4111111111111111 -> 411111******1111. */
/** A run of 12 to 19 digits, single spaces or dashes allowed between them, not part of a longer run of digits. */
const CARD_LIKE = /(?<!\d)\d(?:[ -]?\d){11,18}(?!\d)/g;

/**
 * Free text (an operator's reason or note, a platform's words, a processor's message) with every card number in it
 * masked as maskCard does (first 6, last 4): such text is stored, audited and sent in callbacks, where CONTRACT
 * section 8 allows no full card number. A run counts as a card number when its digits pass the Luhn check.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(CARD_LIKE, (run) => {
    const digits = run.replace(/[ -]/g, "");
    return luhnValid(digits) ? maskCard(digits) : run;
  });
}

export function maskCard(digits: string): string {
  // First 6 and last 4 only when at least 5 digits stay hidden (15 digits and up):
  // with fewer, the Luhn digit and a few guesses would give the number back.
  if (digits.length >= 15) return digits.slice(0, 6) + "*".repeat(digits.length - 10) + digits.slice(-4);
  if (digits.length > 4) return "*".repeat(digits.length - 4) + digits.slice(-4);
  return "*".repeat(digits.length);
}
