/**
 * Adyen's refusal reasons (`refusalReasonCode` and `refusalReason` of a
 * Refused, Error or Cancelled answer, and the `reason` of a failed
 * AUTHORISATION notification), each classed for the cascade: `soft`, another
 * route may succeed (the acquirer, the issuer's host or the 3-D Secure
 * directory failed, not the card), so the attempt is `retryable`; `hard`, the
 * card or the shopper said no and no other acquirer will change that, so it is
 * `declined`.
 *
 * Source of codes and names: Adyen's refusal reasons page
 * (https://docs.adyen.com/development-resources/refusal-reasons) and its test
 * table (https://docs.adyen.com/development-resources/testing/result-code-testing/adyen-response-codes).
 * Adyen describes each reason (a blocked, expired or invalid card is
 * "therefore unusable"; an unreachable issuer or an acquirer error is about the
 * route); the page gives no retry column, so the class is our reading of that
 * description, written beside each row. Code 0 comes
 * only with Authorised ("ignore the refusal reason code") and is not a refusal.
 * A code not listed here is hard: a decline Cashier does not know is not
 * retried elsewhere.
 */

export type RefusalClass = "soft" | "hard";

export interface RefusalReason {
  /** Adyen's `refusalReasonCode`, as it comes (a string of digits). */
  code: string;
  /** Adyen's `refusalReason` for it, as its documentation writes it. */
  reason: string;
  class: RefusalClass;
}

const row = (code: number, reason: string, cls: RefusalClass): RefusalReason => ({ code: String(code), reason, class: cls });

/** Every refusal reason Adyen documents, classed. */
export const REFUSAL_REASONS: readonly RefusalReason[] = [
  row(2, "Refused", "hard"), // the issuer refused, no reason given: another acquirer asks the same issuer
  row(3, "Referral", "hard"), // the issuer wants a voice referral: not possible online
  row(4, "Acquirer Error", "soft"), // the acquirer failed, not the card
  row(5, "Blocked Card", "hard"), // "therefore unusable"
  row(6, "Expired Card", "hard"), // "therefore unusable"
  row(7, "Invalid Amount", "hard"), // the request's amount, the same at any acquirer
  row(8, "Invalid Card Number", "hard"),
  row(9, "Issuer Unavailable", "soft"), // the issuer could not be reached
  row(10, "Not supported", "hard"), // the shopper's bank does not allow this transaction
  row(11, "3D Not Authenticated", "hard"), // the shopper did not pass 3-D Secure
  row(12, "Not enough balance", "hard"),
  row(14, "Acquirer Fraud", "hard"),
  row(15, "Cancelled", "hard"),
  row(16, "Shopper Cancelled", "hard"),
  row(17, "Invalid Pin", "hard"),
  row(18, "Pin tries exceeded", "hard"),
  row(19, "Pin validation not possible", "soft"), // a technical failure, not a wrong PIN
  row(20, "FRAUD", "hard"), // Adyen's risk checks: routing around them is not a retry
  row(21, "Not Submitted", "soft"), // "not submitted correctly for processing": it never reached the issuer
  row(22, "FRAUD-CANCELLED", "hard"),
  row(23, "Transaction Not Permitted", "hard"), // not permitted to this cardholder
  row(24, "CVC Declined", "hard"),
  row(25, "Restricted Card", "hard"),
  row(26, "Revocation Of Auth", "hard"), // the shopper revoked the authorisation: never retry
  row(27, "Declined Non Generic", "hard"),
  row(28, "Withdrawal amount exceeded", "hard"),
  row(29, "Withdrawal count exceeded", "hard"),
  row(31, "Issuer Suspected Fraud", "hard"),
  row(32, "AVS Declined", "hard"),
  row(33, "Card requires online pin", "hard"),
  row(34, "No checking account available on Card", "hard"),
  row(35, "No savings account available on Card", "hard"),
  row(36, "Mobile pin required", "hard"),
  row(37, "Contactless fallback", "hard"),
  row(38, "Authentication required", "soft"), // the SCA soft decline: an authenticated attempt can pass
  row(39, "RReq not received from DS", "soft"), // the 3-D Secure directory did not answer
  row(40, "Current AID is in Penalty Box.", "hard"),
  row(41, "CVM Required Restart Payment", "hard"),
  row(42, "3DS Authentication Error", "soft"), // a 3-D Secure technical error, not a failed challenge
  row(46, "Transaction blocked by Adyen to prevent excessive retry fees", "hard"), // Adyen says: stop retrying
];

/**
 * The refusal that says the shopper failed 3-D Secure ("3D Not Authenticated"): Cashier's own 3-D Secure decline
 * (9004), so that a platform reads one code for it from every processor.
 */
export const THREE_DS_FAILED_CODE = "11";

const byCode = new Map(REFUSAL_REASONS.map((r) => [r.code, r]));
const byReason = new Map(REFUSAL_REASONS.map((r) => [r.reason.toLowerCase(), r]));

/** The refusal reason of a `refusalReasonCode`, if Adyen documents it. */
export function refusalByCode(code: string): RefusalReason | undefined {
  return byCode.get(code);
}

/**
 * The refusal reason of a `refusalReason` text (notifications carry the text
 * only, in `reason`), if Adyen documents it; case is ignored.
 */
export function refusalByReason(text: string): RefusalReason | undefined {
  return byReason.get(text.trim().toLowerCase());
}

/**
 * The code Cashier keeps for an Adyen refusal: namespaced, so that Adyen's own
 * numbering (24 is "CVC Declined") is never read as the ISO 8583 response code
 * of the same number (24 is "file update not supported"), which is what a bare
 * one- or two-digit processor code means to Cashier (outcome.ts declineCode).
 */
export function cashierCode(adyenCode: string): string {
  return `adyen-${adyenCode}`;
}
