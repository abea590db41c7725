/**
 * A card token in Process (CONTRACT 12): found by its keyed hash, judged
 * (domain/card-token.ts), its card opened into the request so that every
 * later step (Validation, routing, the cascade, 3-D Secure, callbacks) runs
 * exactly as with a card typed in; then used once, just before the order is
 * made. The sealing is the one place that seals and opens a token's card.
 */
import { open, seal } from "../../security/sealed-box.ts";
import type { KeyObject } from "node:crypto";
import type { FieldViolation } from "../../shared/errors.ts";
import { tokenHash } from "../../shared/session-tokens.ts";
import type { ProcessInput } from "../../shared/transaction.ts";
import { CARD_TOKEN_UNKNOWN, cardTokenRequestViolations, judgeCardToken, type CardTokenUse } from "../domain/card-token.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";

/** The keyed hash a token is stored and found by. */
export const cardTokenHash = (key: KeyObject, token: string): string => tokenHash(key, "card-token", token);

const binding = (hash: string, what: "number" | "cvv") => `card-token:${what}:${hash}`;

/** The card's number and CVV sealed for a token's row, bound to the token's hash (a row copied onto another opens nothing). */
export function sealTokenCard(key: KeyObject, hash: string, card: { number: string; cvv: string }): { cardSealed: string; cvvSealed: string } {
  return { cardSealed: seal(key, card.number, binding(hash, "number")), cvvSealed: seal(key, card.cvv, binding(hash, "cvv")) };
}

/**
 * No token: `none`. A token that cannot be used: the violations naming it. A
 * usable one (or the one the same order used, for a repeat): the request with
 * the token's card in place, and what using it needs.
 */
export type TokenResolution =
  | { kind: "none" }
  | { kind: "refused"; violations: FieldViolation[] }
  | { kind: "card"; input: ProcessInput; hash: string; use: CardTokenUse; repeat: boolean };

const refused = (description: string): TokenResolution => ({ kind: "refused", violations: [{ field: "cardToken", description }] });

export async function resolveCardToken(deps: ProcessDeps, input: ProcessInput, merchantId: string, now: Date): Promise<TokenResolution> {
  const token = input.cardToken ?? "";
  if (token === "") return { kind: "none" };
  const own = cardTokenRequestViolations(input);
  if (own.length > 0) return { kind: "refused", violations: own };
  if (!deps.cardTokens) return refused(CARD_TOKEN_UNKNOWN);
  const hash = cardTokenHash(deps.keys.tokenHash, token);
  const row = await deps.cardTokens.find(hash);
  const use: CardTokenUse = { merchantId, frontend: input.frontend, pin: input.customer.pin, orderId: input.orderId };
  const verdict = judgeCardToken(row, use, now);
  if (verdict.kind === "refused" || !row) return refused(verdict.kind === "refused" ? verdict.description : CARD_TOKEN_UNKNOWN);
  const key = deps.keys.encryption;
  const card = {
    number: open(key, row.cardSealed, binding(hash, "number")),
    expiry: row.cardExpiry,
    // A repeat of the order that used the token: its CVV is erased, and the order exists (or is being made) already.
    cvv: row.cvvSealed === null ? "" : open(key, row.cvvSealed, binding(hash, "cvv")),
  };
  return { kind: "card", input: { ...input, card }, hash, use, repeat: verdict.kind === "repeat" };
}

/**
 * What using the token did: `used` (this request used it, and holds its CVV: it alone makes the order), `repeat`
 * (the same order_id's other request used it: this one must not make the order, only read it, since the CVV it
 * may hold is the token's last copy or none at all), or the violation (another order took it, or it expired).
 */
export type TokenUse = { kind: "used" } | { kind: "repeat" } | { kind: "refused"; violations: FieldViolation[] };

/** Uses the token for this order (one conditional UPDATE: of two requests, exactly one changes the row). */
export async function useCardToken(deps: ProcessDeps, r: Extract<TokenResolution, { kind: "card" }>, now: Date): Promise<TokenUse> {
  if (r.repeat) return { kind: "repeat" };
  if (!deps.cardTokens) return { kind: "refused", violations: [{ field: "cardToken", description: CARD_TOKEN_UNKNOWN }] };
  if (await deps.cardTokens.claim(r.hash, r.use, now)) return { kind: "used" };
  const verdict = judgeCardToken(await deps.cardTokens.find(r.hash), r.use, now);
  if (verdict.kind === "repeat") return { kind: "repeat" };
  return { kind: "refused", violations: [{ field: "cardToken", description: verdict.kind === "refused" ? verdict.description : CARD_TOKEN_UNKNOWN }] };
}
