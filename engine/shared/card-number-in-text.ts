/**
 * Whether a platform's identifier (an order id, a PIN, an e-mail, a URL, the
 * session's SCOrderID and Udef members) holds a card number. Such members are
 * stored, searched, logged and echoed back in callbacks exactly as sent, where
 * CONTRACT section 8 allows no full card number, and masking would change an
 * identifier the platform expects back unchanged: the request is refused
 * instead, naming the member (validate-process.ts, cashier's session start).
 *
 * A card number here is what data-loss scanners look for: 13 to 19 digits
 * that pass the Luhn check and begin as a card brand does (cardBrand), written
 * together or grouped as card numbers are written, split by single spaces,
 * dashes or dots: in fours, the last group shorter when the digits run out
 * ("4111 1111 1111 1111", "3782 8224 6310 005", or "4111.1111.1111.1111" in an
 * e-mail's local part), 4-6-5 and 4-6-4 (American Express, Diners); in a URL
 * also percent-encoded. Luhn alone passes one digit
 * string in ten, so a platform's numeric ids (a 19-digit snowflake id begins
 * with 1, which no brand does) are rarely taken for one. A run of digits
 * glued to more digits (a 24-digit reference) is no card number; nor are
 * groups of other lengths joined: "ord-45123-1764403200000" (a process id and
 * a time in milliseconds) is an order id, which reading its groups as one
 * number would refuse once in ten. Groups split off a longer run
 * ("2030-12-4111111111111111") are looked at one by one.
 */
import { cardBrand, luhnValid } from "./card.ts";

/** Digit groups joined by at most one space, dash or dot between each two. */
const GROUPED_RUN = /\d+(?:[ .-]\d+)*/g;

/**
 * How card numbers are written in groups: the lengths, in order. Fours, the last group shorter when the digits run
 * out (an American Express number typed in fours is 4-4-4-3, a 19-digit one 4-4-4-4-3), and the 4-6-5 and 4-6-4
 * that American Express and Diners cards print.
 */
const PRINTED_LAYOUTS: readonly (readonly number[])[] = [
  [4, 4, 4, 1],
  [4, 4, 4, 2],
  [4, 4, 4, 3],
  [4, 4, 4, 4],
  [4, 4, 4, 4, 1],
  [4, 4, 4, 4, 2],
  [4, 4, 4, 4, 3],
  [4, 6, 5],
  [4, 6, 4],
];

const isCard = (digits: string) => digits.length >= 13 && digits.length <= 19 && luhnValid(digits) && cardBrand(digits) !== "CARD";

/** The first card number found in `text` (to be named, never echoed), or undefined. */
export function cardNumberIn(text: string): string | undefined {
  for (const [run] of text.matchAll(GROUPED_RUN)) {
    const groups = run.split(/[ .-]/);
    for (let from = 0; from < groups.length; from++) {
      if (isCard(groups[from])) return groups[from];
      for (const layout of PRINTED_LAYOUTS) {
        if (from + layout.length > groups.length) continue;
        const parts = groups.slice(from, from + layout.length);
        if (parts.every((g, i) => g.length === layout[i]) && isCard(parts.join(""))) return parts.join("");
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
