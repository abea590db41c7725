/**
 * The card tokens of the hosted payment fields (CONTRACT 12), as Process and
 * the fields page's use case need them: minted by the Cashier's fields form,
 * found and used once by Process. Implemented on Postgres by
 * store/card-token-store.ts; the token itself is never stored, only its keyed
 * hash.
 */
import type { CardTokenState, CardTokenUse } from "../domain/card-token.ts";

/** A token as stored: its binding, its card masked and sealed, its use. */
export interface CardTokenRecord extends CardTokenState {
  cardMasked: string;
  cardBrand: string;
  cardExpiry: string;
  cardFingerprint: string;
  /** The number, sealed (held-card.ts's cipher) and bound to the token's hash. */
  cardSealed: string;
  /** The CVV sealed the same way; null once the token was used. */
  cvvSealed: string | null;
  holder: string;
}

export type NewCardToken = Omit<CardTokenRecord, "usedAt" | "usedOrderId"> & { tokenHash: string };

export interface CardTokenStore {
  mint(t: NewCardToken): Promise<void>;
  /** The token of this hash, used or not, until the retention sweep deletes it after its expiry. */
  find(tokenHash: string): Promise<CardTokenRecord | undefined>;
  /**
   * Uses the token for `use.orderId` and erases its CVV, in one statement that
   * holds only while the token is bound to `use`, unused and unexpired at
   * `now`: of two uses at the same moment one is true.
   */
  claim(tokenHash: string, use: CardTokenUse, now: Date): Promise<boolean>;
}
