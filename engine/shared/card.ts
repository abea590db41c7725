/**
 * Card number rules and the only views of a card that may be kept: the masked
 * number (first 6, last 4) and the brand. Brand detection is card-validator's
 * (Braintree's maintained BIN-pattern table), not a regex list of our own.
 */
import cardValidator from "card-validator";
// One function's file, not the package's index, which loads all of validator's hundred-odd modules (about 30 ms a
// process). Its CommonJS module is the function, with itself as `default`, which is what its types declare.
import luhn from "validator/lib/isLuhnNumber.js";
import { ownEntry } from "./own-entry.ts";

/** The Luhn check digit holds (validator's, which the rule table already relies on). */
export function luhnValid(digits: string): boolean {
  return luhn.default(digits);
}

/** What is wrong with a card number as typed into the API (digits only), or undefined: 12 to 19 digits, Luhn. */
export function cardNumberProblem(n: string): "is required" | "must be 12 to 19 digits" | "fails the Luhn check" | undefined {
  if (n === "") return "is required";
  if (!/^\d{12,19}$/.test(n)) return "must be 12 to 19 digits";
  return luhnValid(n) ? undefined : "fails the Luhn check";
}

/**
 * card-validator's brand names (what a routing rule names) -> the code cardBrand gives a number of that brand
 * (what an attempt keeps).
 */
export const CARD_BRANDS = {
  visa: "VISA",
  mastercard: "MC",
  "american-express": "AMEX",
  discover: "DISCOVER",
  "diners-club": "DINERS",
  jcb: "JCB",
  unionpay: "UNIONPAY",
  maestro: "MAESTRO",
  mir: "MIR",
  elo: "ELO",
  hiper: "HIPER",
  hipercard: "HIPERCARD",
} as const satisfies Record<string, string>;
const BRANDS: Record<string, string> = CARD_BRANDS;

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
/** Decimal digits as people type them: ASCII, Arabic-Indic, Eastern Arabic-Indic and fullwidth. */
const DIGIT = "[0-9\u0660-\u0669\u06F0-\u06F9\uFF10-\uFF19]";
/** A run of digits with at most two separators (spaces, no-break spaces, dots, dashes, slashes) between each two. */
const DIGIT_RUN = new RegExp(`${DIGIT}(?:[\\s./-]{0,2}${DIGIT})+`, "gu");
const DIGIT_ONE = new RegExp(`^${DIGIT}$`, "u");

/** A digit's value, whichever of the DIGIT blocks it is from. */
function digitValue(c: string): number {
  const cp = c.codePointAt(0)!;
  for (const zero of [0x30, 0x660, 0x6f0, 0xff10]) if (cp >= zero && cp <= zero + 9) return cp - zero;
  return Number.NaN;
}

/**
 * Free text (an operator's reason or note, a platform's words, a processor's message) with every card number in it
 * masked: such text is stored, audited and sent in callbacks, where CONTRACT section 8 allows no full card number.
 * Every 12 to 19 consecutive digits of a run (separators between them allowed, other digits around them too: an
 * expiry, a CVV, a longer reference) that pass the Luhn check are masked as maskCard masks them, each separator
 * kept where it was. A long number may lose a few digits to a window that passes by chance; a card number is never
 * left whole.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(DIGIT_RUN, (run) => {
    const chars = [...run];
    const at = chars.flatMap((c, i) => (DIGIT_ONE.test(c) ? [i] : []));
    const digits = at.map((i) => String(digitValue(chars[i])));
    const hide = new Set<number>();
    const claimed = new Set<number>();
    // The usual lengths first, so that a card number followed by a CVV is found as the 16 digits it is; digits that
    // belong to a number found are not looked at again (inside it, shorter windows pass the check by chance).
    for (const len of [16, 15, 19, 18, 17, 14, 13, 12]) {
      for (let start = 0; start + len <= digits.length; start++) {
        if (digits.slice(start, start + len).some((_, k) => claimed.has(start + k))) continue;
        const window = digits.slice(start, start + len).join("");
        if (!luhnValid(window)) continue;
        const masked = maskCard(window);
        for (let k = 0; k < len; k++) {
          claimed.add(start + k);
          if (masked[k] === "*") hide.add(at[start + k]);
        }
      }
    }
    return hide.size === 0 ? run : chars.map((c, i) => (hide.has(i) ? "*" : c)).join("");
  });
}

/** The masked number a card may be kept as: first 6 and last 4 from 15 digits up, else the last 4. */
export function maskCard(digits: string): string {
  // First 6 and last 4 only when at least 5 digits stay hidden (15 digits and up):
  // with fewer, the Luhn digit and a few guesses would give the number back.
  if (digits.length >= 15) return digits.slice(0, 6) + "*".repeat(digits.length - 10) + digits.slice(-4);
  if (digits.length > 4) return "*".repeat(digits.length - 4) + digits.slice(-4);
  return "*".repeat(digits.length);
}
