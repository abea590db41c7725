/**
 * The platform's own words for the customer (Validation's `description` when
 * it refuses, CONTRACT section 6), as the hosted Cashier may show them: plain
 * text on one line, no control or bidirectional formatting characters (which
 * could reorder what the customer reads), at most PLATFORM_WORDS_MAX
 * characters, cut at a word. Words that hold a card number, whole or masked,
 * are not shown at all: the customer is told the Cashier's own reason
 * instead. Escaping is the page's (views escape by construction); this only
 * decides which text may stand there.
 */
import { cardNumberIn } from "./card-number-in-text.ts";

/** What a result page shows of the platform's words: two lines on a 375 px screen's receipt, no essay. */
export const PLATFORM_WORDS_MAX = 200;

/** Control (Cc), format (Cf: bidirectional overrides, zero-width joiners), line and paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** What maskCardNumbers leaves of a card number (411111******1111): a masked number is still one. */
const MASKED_NUMBER = /\d[\d .-]*\*{2,}[\d* .-]*\d/;

/** The words to show, or "" when there are none to show. */
export function platformWords(text: string): string {
  const clean = text.replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
  if (clean === "" || cardNumberIn(clean) !== undefined || MASKED_NUMBER.test(clean)) return "";
  const chars = [...clean];
  if (chars.length <= PLATFORM_WORDS_MAX) return clean;
  const cut = chars.slice(0, PLATFORM_WORDS_MAX - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > PLATFORM_WORDS_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
