/**
 * Checkout.com's sandbox behaviour, from its testing documentation: the test
 * cards that trigger a response code, the 3-D Secure cards (challenge, and
 * frictionless outcomes), the card payout cards, and the amounts that trigger
 * a response code (only in currencies with two decimals, as documented:
 * "xxx05" is any amount ending in 05). Any other card is approved (10000).
 */
import { currencyExponent } from "../../../../shared/money.ts";

export interface CkoCode {
  code: string;
  summary: string;
}

const c = (code: string, summary: string): CkoCode => ({ code, summary });

/** Cards that decline a payment with a response code (Checkout.com's "Test cards" page). */
export const DECLINE_CARDS: Record<string, CkoCode> = {
  "4111111111111129": c("20001", "Refer to card issuer"),
  "4024007103573027": c("20012", "Invalid transaction"),
  "4158596042924182": c("20012", "Invalid transaction"),
  "4485381577182090": c("20014", "Invalid card number"),
  "4544249167673670": c("20051", "Insufficient Funds"),
  "4897453568485113": c("20059", "Suspected fraud"),
  "4556294593757189": c("20061", "Activity amount limit exceeded"),
  "4818924250131070": c("20062", "Restricted card"),
  "4556253752712245": c("20063", "Security violation"),
  "4095254802642505": c("20068", "Response received too late / timeout"),
  "4276038578596818": c("2005C", "Transaction not supported / blocked by issuer"),
  "4152812521833588": c("2009G", "Blocked by cardholder / Contact cardholder"),
  "4734868958733862": c("200N7", "Decline for CVV2 failure"),
  "4024007162185267": c("30015", "No such issuer"),
  "4941202060999329": c("30041", "Lost card - Pick up"),
  "4539253655711767": c("30043", "Stolen card - Pick up"),
};

/** Without 3-D Secure this card declines 20154; with it, it is challenged. */
export const AUTHENTICATION_REQUIRED_CARD = "4500622868341387";

/** Cards that the issuer challenges when the payment asks for 3-D Secure (`3ds.enabled`). */
export const CHALLENGE_CARDS: ReadonlySet<string> = new Set([
  AUTHENTICATION_REQUIRED_CARD,
  "4010061700000021",
  "5385308360135181",
  "372688581899681",
  "4152868552773614",
  "346126139326850",
  "4150561000000019",
  "375982239796002",
  "4243754271700719",
  "5258901507741160",
]);

/** Frictionless 3-D Secure cards whose authentication fails (not authenticated, rejected). */
export const FRICTIONLESS_FAILED_CARDS: ReadonlySet<string> = new Set(["4539628347117863", "371064645462927", "343397288296672", "4275765574319271"]);

/** A card payout's destination cards that decline (the "Card payouts" test cards); any other is paid. */
export const PAYOUT_DECLINE_CARDS: Record<string, CkoCode> = {
  "4818192525595285": c("20005", "Declined - Do not honour"),
  "4558473893020179": c("20005", "Declined - Do not honour"),
  "4811553373235190": c("20005", "Declined - Do not honour"),
  "4610179846730147": c("20005", "Declined - Do not honour"),
  "4818192160565981": c("20057", "Transaction not permitted to cardholder"),
  "4975992266555193": c("20057", "Transaction not permitted to cardholder"),
  "4815649658513826": c("20057", "Transaction not permitted to cardholder"),
  "4610174464118832": c("20057", "Transaction not permitted to cardholder"),
};

/** Whole amounts that trigger a code ("Response code testing"). */
const EXACT_AMOUNTS: Record<number, CkoCode> = {
  9998: c("20068", "Response received too late / timeout"),
  4001: c("40101", "Payment blocked due to risk"),
  4008: c("40108", "Gateway reject - Post code failed"),
  2011: c("200R1", "Issuer initiated a stop payment (revocation order) for this authorization"),
  2013: c("200R3", "Issuer initiated a stop payment (revocation order) for all payments"),
};

/** Whole amounts that trigger a code in a 3-D Secure payment only (the page's "Only for 3D Secure payments" rows). */
const THREE_DS_AMOUNTS: Record<number, CkoCode> = {
  5000: c("20153", "3D Secure system malfunction"),
  5029: c("20153", "3D Secure system malfunction"),
  6510: c("20154", "3D Secure authentication required"),
  6520: c("20154", "3D Secure authentication required"),
  6530: c("20154", "3D Secure authentication required"),
  6540: c("20154", "3D Secure authentication required"),
};

/** Amounts by their last two digits ("xxx05"). */
const AMOUNT_ENDINGS: Record<number, CkoCode> = {
  5: c("20005", "Declined - Do not honour"),
  12: c("20012", "Invalid payment"),
  14: c("20014", "Invalid card number"),
  33: c("30033", "Expired card - Pick up"),
  51: c("20051", "Insufficient Funds"),
  54: c("20087", "Bad track data"),
  62: c("20062", "Restricted card"),
  63: c("20063", "Security violation"),
};

export const APPROVED: CkoCode = c("10000", "Approved");
export const AUTHENTICATION_FAILED: CkoCode = c("20151", "Cardholder failed 3DS authentication");
export const AUTHENTICATION_REQUIRED: CkoCode = c("20154", "3D Secure authentication required");

export type CkoDecision = { kind: "approved" } | { kind: "declined"; code: CkoCode } | { kind: "challenge" };

/** A card sale's outcome: the card first, then the amount. */
export function decideSale(card: string, amountMinor: number, currency: string, threeDs: boolean, moto = false): CkoDecision {
  const byCard = DECLINE_CARDS[card];
  if (byCard) return { kind: "declined", code: byCard };
  if (threeDs && CHALLENGE_CARDS.has(card)) return { kind: "challenge" };
  if (threeDs && FRICTIONLESS_FAILED_CARDS.has(card)) return { kind: "declined", code: AUTHENTICATION_FAILED };
  // A MOTO payment is out of scope of strong customer authentication: the card that demands it elsewhere approves.
  if (!threeDs && !moto && card === AUTHENTICATION_REQUIRED_CARD) return { kind: "declined", code: AUTHENTICATION_REQUIRED };
  const byAmount = amountCode(amountMinor, currency, threeDs);
  return byAmount ? { kind: "declined", code: byAmount } : { kind: "approved" };
}

/** A card payout's outcome: the payout cards, then the payment decline cards, then the amount. */
export function decidePayout(card: string, amountMinor: number, currency: string): CkoDecision {
  const code = PAYOUT_DECLINE_CARDS[card] ?? DECLINE_CARDS[card] ?? amountCode(amountMinor, currency, false);
  return code ? { kind: "declined", code } : { kind: "approved" };
}

/** The code an amount triggers, if any (two-decimal currencies only). */
export function amountCode(amountMinor: number, currency: string, threeDs: boolean): CkoCode | undefined {
  if (currencyExponent(currency) !== 2) return undefined;
  if (threeDs && THREE_DS_AMOUNTS[amountMinor]) return THREE_DS_AMOUNTS[amountMinor];
  return EXACT_AMOUNTS[amountMinor] ?? AMOUNT_ENDINGS[amountMinor % 100];
}
