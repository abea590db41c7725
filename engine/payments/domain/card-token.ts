/**
 * The rules of a card token in Process (CONTRACT 12), pure: a token comes
 * alone (the card's three members absent), and it is usable only by its own
 * merchant, frontend and customer pin, once, before it expires. Every refusal
 * names `cardToken`; the description says which rule failed, except that a
 * token of another merchant, frontend or pin reads as unknown, so that no
 * caller learns that a token it does not own exists.
 */
import type { FieldViolation } from "../../shared/errors.ts";
import type { ProcessInput } from "../../shared/transaction.ts";

/** What a token looks like (256 random bits in base64url): anything else is refused before any lookup. */
export const CARD_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What Process needs to judge a token it found by its hash. */
export interface CardTokenState {
  merchantId: string;
  frontend: string;
  pin: string;
  expiresAt: Date;
  usedAt: Date | null;
  /** The order_id of the Process request that used it. */
  usedOrderId: string | null;
}

/** Who asks to use a token: the Process request's merchant, frontend, pin and order. */
export interface CardTokenUse {
  merchantId: string;
  frontend: string;
  pin: string;
  orderId: string;
}

export const CARD_TOKEN_UNKNOWN = "names no card token of this merchant, frontend and pin";
export const CARD_TOKEN_USED = "was used already: a card token pays one order";
/** A copy of the request that used the token, come before that request's order exists: it may not make the order, lacking the CVV. */
export const CARD_TOKEN_IN_FLIGHT = "is being used by this order_id's other request, whose order is not made yet: send it again for that order's answer";
export const CARD_TOKEN_EXPIRED = "has expired: ask the hosted payment fields for a new one";
export const CARD_TOKEN_MIXED = "comes in place of card_number, card_exp and cvv: send the token or the card, not both";
export const CARD_TOKEN_REFUND = "is for sales and payouts: a refund names its sale by reference_id and takes the sale's card_number";

/** The token's verdict: usable now, or a repeat of the very order that used it, or refused with a reason. */
export type CardTokenVerdict = { kind: "usable" } | { kind: "repeat" } | { kind: "refused"; description: string };

export function judgeCardToken(t: CardTokenState | undefined, use: CardTokenUse, now: Date): CardTokenVerdict {
  if (!t || t.merchantId !== use.merchantId || t.frontend !== use.frontend || t.pin !== use.pin) return { kind: "refused", description: CARD_TOKEN_UNKNOWN };
  if (t.usedAt !== null) {
    // The platform's repeat of the request that used it (same order_id) is answered as a repeat of that order.
    return t.usedOrderId === use.orderId ? { kind: "repeat" } : { kind: "refused", description: CARD_TOKEN_USED };
  }
  if (t.expiresAt.getTime() <= now.getTime()) return { kind: "refused", description: CARD_TOKEN_EXPIRED };
  return { kind: "usable" };
}

/**
 * The request's own faults with a token, before any lookup: the card sent
 * beside it, a refund, a malformed token. Empty when the request has no token.
 */
export function cardTokenRequestViolations(i: ProcessInput): FieldViolation[] {
  const token = i.cardToken ?? "";
  if (token === "") return [];
  const c = i.card;
  if (c.number !== "" || c.expiry !== "" || c.cvv !== "") return [{ field: "cardToken", description: CARD_TOKEN_MIXED }];
  if (i.type === "refund") return [{ field: "cardToken", description: CARD_TOKEN_REFUND }];
  if (!CARD_TOKEN_SHAPE.test(token)) return [{ field: "cardToken", description: CARD_TOKEN_UNKNOWN }];
  return [];
}
