/**
 * Adyen's test behaviour, from its testing documentation: the 3-D Secure
 * test cards that redirect the shopper to a challenge, and the refusal
 * reasons triggered by `paymentMethod.holderName` or by
 * `additionalData.RequestedTestAcquirerResponseCode` ("Testing result codes
 * and refusal reasons"), and the holder name "refund failed" whose refunds
 * fail later (REFUND_FAILED). Any other card is authorised.
 */

export type AdyenResult = "Authorised" | "Refused" | "Error" | "Cancelled" | "Received";

export interface AdyenRefusal {
  resultCode: AdyenResult;
  /** Absent for Authorised and Received. */
  refusalReason?: string;
  refusalReasonCode?: string;
}

/** [holderName, RequestedTestAcquirerResponseCode, resultCode, refusalReason] as Adyen's table lists them. */
const TABLE: [string, number, AdyenResult, string | undefined][] = [
  ["UNKNOWN", 0, "Error", "Unknown"],
  ["APPROVED", 1, "Authorised", undefined],
  ["DECLINED", 2, "Refused", "Refused"],
  ["REFERRAL", 3, "Refused", "Referral"],
  ["ERROR", 4, "Error", "Acquirer Error"],
  ["BLOCK_CARD", 5, "Refused", "Blocked Card"],
  ["CARD_EXPIRED", 6, "Refused", "Expired Card"],
  ["INVALID_AMOUNT", 7, "Refused", "Invalid Amount"],
  ["INVALID_CARD_NUMBER", 8, "Refused", "Invalid Card Number"],
  ["ISSUER_UNAVAILABLE", 9, "Refused", "Issuer Unavailable"],
  ["NOT_SUPPORTED", 10, "Refused", "Not supported"],
  ["NOT_3D_AUTHENTICATED", 11, "Refused", "3D Not Authenticated"],
  ["NOT_ENOUGH_BALANCE", 12, "Refused", "Not enough balance"],
  ["PENDING", 13, "Received", undefined],
  ["ACQUIRER_FRAUD", 14, "Refused", "Acquirer Fraud"],
  ["CANCELLED", 15, "Refused", "Cancelled"],
  ["SHOPPER_CANCELLED", 16, "Refused", "Shopper Cancelled"],
  ["INVALID_PIN", 17, "Refused", "Invalid Pin"],
  ["PIN_TRIES_EXCEEDED", 18, "Refused", "Pin tries exceeded"],
  ["PIN_VALIDATION_NOT_POSSIBLE", 19, "Refused", "Pin validation not possible"],
  ["FRAUD", 20, "Refused", "FRAUD"],
  ["NOT_SUBMITTED", 21, "Refused", "Not Submitted"],
  ["FRAUD_CANCELLED", 22, "Cancelled", "FRAUD-CANCELLED"],
  ["TRANSACTION_NOT_PERMITTED", 23, "Refused", "Transaction Not Permitted"],
  ["CVC_DECLINED", 24, "Refused", "CVC Declined"],
  ["RESTRICTED_CARD", 25, "Refused", "Restricted Card"],
  ["REVOCATION_OF_AUTH", 26, "Refused", "Revocation Of Auth"],
  ["DECLINED_NON_GENERIC", 27, "Refused", "Declined Non Generic"],
  ["WITHDRAWAL_AMOUNT_EXCEEDED", 28, "Refused", "Withdrawal amount exceeded"],
  ["WITHDRAWAL_COUNT_EXCEEDED", 29, "Refused", "Withdrawal count exceeded"],
  ["ISSUER_SUSPECTED_FRAUD", 31, "Refused", "Issuer Suspected Fraud"],
  ["AVS_DECLINED", 32, "Refused", "AVS Declined"],
  ["PIN_REQUIRED", 33, "Refused", "Card requires online pin"],
];

const byHolder = new Map(TABLE.map(([holder, code, resultCode, reason]) => [holder, { resultCode, refusalReason: reason, refusalReasonCode: String(code) }]));
const byCode = new Map(TABLE.map(([, code, resultCode, reason]) => [String(code), { resultCode, refusalReason: reason, refusalReasonCode: String(code) }]));

/** 3-D Secure 2 test cards that redirect the shopper to a challenge. */
export const CHALLENGE_CARDS: ReadonlySet<string> = new Set([
  "4917610000000000",
  "4212345678910006",
  "5454545454545454",
  "5212345678901234",
  "371449635398431",
]);

/** The holder name whose sale is authorised and whose refunds fail later (REFUND, then REFUND_FAILED). */
export const REFUND_FAILS_HOLDER = "refund failed";

export const AUTHORISED: AdyenRefusal = { resultCode: "Authorised" };
export const NOT_AUTHENTICATED: AdyenRefusal = { resultCode: "Refused", refusalReason: "3D Not Authenticated", refusalReasonCode: "11" };
export const EXPIRED: AdyenRefusal = { resultCode: "Refused", refusalReason: "Expired Card", refusalReasonCode: "6" };

export type AdyenDecision = { kind: "result"; result: AdyenRefusal } | { kind: "challenge" };

/** A card payment's outcome: the requested test code, then the holder name, then the card. */
export function decide(card: string, holderName: string | undefined, testCode: string | undefined, expired: boolean): AdyenDecision {
  const requested = (testCode !== undefined && byCode.get(testCode)) || (holderName !== undefined && byHolder.get(holderName.split(":")[0].trim()));
  if (requested) return { kind: "result", result: stripped(requested) };
  if (expired) return { kind: "result", result: EXPIRED };
  return CHALLENGE_CARDS.has(card) ? { kind: "challenge" } : { kind: "result", result: AUTHORISED };
}

/** Authorised and Received carry no refusal fields. */
function stripped(r: AdyenRefusal): AdyenRefusal {
  return r.resultCode === "Authorised" || r.resultCode === "Received" ? { resultCode: r.resultCode } : r;
}
