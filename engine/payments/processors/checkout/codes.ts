/**
 * Checkout.com's response codes, classified for the cascade. Checkout groups its
 * five-character `response_code` by the first digit (response-codes.json holds
 * the documented list and names its source): 10xxx approved, 20xxx soft declines
 * ("subsequent attempts may be successful"), 30xxx hard declines ("the issuer or
 * cardholder must rectify"), 4xxxx risk responses, 50xxx card payout declines.
 * A soft decline is `retryable` (the cascade goes on to the next account); a
 * hard one, a risk block and a payout decline are `declined` (it stops: a fraud
 * block is not sent on to another acquirer). The few codes that say the answer
 * is not final yet, or that the merchant's own account is at fault, are the
 * documented exceptions below.
 */
import documented from "./response-codes.json" with { type: "json" };

/** Checkout.com's own groups, as its response-code page names them. */
export type CodeGroup = "approved" | "soft decline" | "hard decline" | "risk" | "card payout decline";

/** What a code means to Cashier: the outcome a Declined answer with it becomes. */
export type CodeClass = "approved" | "soft" | "hard" | "unavailable" | "unknown";

/** Every documented code with Checkout's response text. */
export const RESPONSE_CODES: Readonly<Record<string, string>> = documented.codes;

const GROUPS: Record<string, CodeGroup> = {
  "1": "approved",
  "2": "soft decline",
  "3": "hard decline",
  "4": "risk",
  "5": "card payout decline",
};

const CLASS_OF_GROUP: Record<CodeGroup, CodeClass> = {
  approved: "approved",
  "soft decline": "soft",
  "hard decline": "hard",
  risk: "hard",
  "card payout decline": "hard",
};

/**
 * The codes whose class is not their group's, each with the reason. "unknown"
 * keeps the attempt open and asks Checkout again (the payment may still be
 * authorised); "unavailable" fails it as the merchant's side (E for a sale,
 * PROCESSOR_UNAVAILABLE), not as the card's decline.
 */
export const EXCEPTIONS: Readonly<Record<string, { class: CodeClass; why: string }>> = {
  "20009": { class: "unknown", why: "Request in progress: the first request with this key may still be authorised" },
  "20118": { class: "unknown", why: "Transaction pending: not a final answer" },
  "50003": { class: "unavailable", why: "The merchant's currency account lacks the funds: not the recipient card's decline" },
  "50200": { class: "unavailable", why: "Configuration error of the merchant's account: not the recipient card's decline" },
};

/**
 * The codes that say the cardholder failed 3-D Secure ("Cardholder failed 3DS authentication"): Cashier's own 3-D
 * Secure decline (9004), whatever their group, so that a platform reads one code for it from every processor.
 */
export const THREE_DS_FAILED_CODES: ReadonlySet<string> = new Set(["20151"]);

/** Checkout's group of a code by its first digit; undefined for a code outside the documented ranges. */
export function codeGroup(code: string): CodeGroup | undefined {
  return /^[1-5][0-9A-Z]{4}$/.test(code) ? GROUPS[code[0]] : undefined;
}

export interface Classified {
  class: CodeClass;
  /** Checkout's documented text, when the code is in its table. */
  text?: string;
  group?: CodeGroup;
}

/**
 * A response code's class. A code outside every documented range (empty, a
 * stray value) on a Declined answer is a hard decline: Checkout says the
 * payment was not taken, and no table says another attempt may succeed.
 */
export function classify(code: string): Classified {
  const text = Object.hasOwn(RESPONSE_CODES, code) ? RESPONSE_CODES[code] : undefined;
  const group = codeGroup(code);
  const exception = Object.hasOwn(EXCEPTIONS, code) ? EXCEPTIONS[code] : undefined;
  const cls = exception?.class ?? (group ? CLASS_OF_GROUP[group] : "hard");
  return { class: cls, ...(text === undefined ? {} : { text }), ...(group ? { group } : {}) };
}
