/**
 * Whether a platform's identifier (an order id, a PIN, an e-mail, a URL, the
 * session's SCOrderID and Udef members) holds a card number. Such members are
 * stored, searched, logged and echoed back in callbacks exactly as sent, where
 * CONTRACT section 8 allows no full card number, and masking would change an
 * identifier the platform expects back unchanged: the request is refused
 * instead, naming the member (validate-process.ts, cashier's session start).
 *
 * A card number here is what data-loss scanners look for: 13 to 19 digits,
 * written together or in groups split by single spaces, dashes or dots
 * ("4111 1111 1111 1111", or "4111.1111.1111.1111" in an e-mail's local part;
 * in a URL also percent-encoded), that pass the Luhn check and begin as a card brand
 * does (cardBrand). Luhn alone passes one digit string in ten, so a platform's
 * numeric ids (a 19-digit snowflake id begins with 1, which no brand does) are
 * rarely taken for one. A run of digits glued to more digits (a 24-digit
 * reference) is no card number; groups split off a longer run
 * ("2030-12-4111111111111111") are looked at one by one and in neighbouring
 * sequences.
 */
import { cardBrand, luhnValid } from "./card.ts";

/** Digit groups joined by at most one space, dash or dot between each two. */
const GROUPED_RUN = /\d+(?:[ .-]\d+)*/g;

/** The first card number found in `text` (to be named, never echoed), or undefined. */
export function cardNumberIn(text: string): string | undefined {
  for (const [run] of text.matchAll(GROUPED_RUN)) {
    const groups = run.split(/[ .-]/);
    for (let from = 0; from < groups.length; from++) {
      let digits = "";
      for (let to = from; to < groups.length; to++) {
        digits += groups[to];
        if (digits.length > 19) break;
        if (digits.length >= 13 && luhnValid(digits) && cardBrand(digits) !== "CARD") return digits;
      }
    }
  }
  return undefined;
}

/** As cardNumberIn, for a URL: its text as written and percent-decoded ("4111%201111%20..." is the same number). */
export function cardNumberInUrl(url: string): string | undefined {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url.replace(/\+/g, " "));
  } catch {
    // A stray "%" leaves the text as written, which was looked at anyway.
  }
  return cardNumberIn(url) ?? (decoded === url ? undefined : cardNumberIn(decoded));
}

/** The refusal's words for a member holding a card number: what to do instead, never the number. */
export const CARD_NUMBER_IN_IDENTIFIER = "must not hold a card number (card data goes only in card_number, or as a card_token)";
