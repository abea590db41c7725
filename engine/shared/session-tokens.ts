/**
 * The hosted Cashier's tokens (decision 0010). None is stored:
 * - the autologin token and the auth_token are derived from the session's
 *   random nonce with HMAC-SHA256 under the token key (a key of the master
 *   key), domain-separated, so a repeated session start answers the same ones
 *   and the database alone cannot produce them;
 * - the browser session's token is random, handed out once at redemption.
 * Lookups go by keyed hashes of the autologin and browser-session tokens.
 * Every token is 43 characters of base64url (256 bits).
 */
import { createHmac, randomBytes, type KeyObject } from "node:crypto";
import { fingerprint } from "./hmac.ts";

const derive = (key: KeyObject, purpose: string, nonce: string) => createHmac("sha256", key).update(`cashier-session/${purpose}:${nonce}`).digest("base64url");

export const newNonce = (): string => randomBytes(16).toString("base64url");

export const autologinToken = (key: KeyObject, nonce: string): string => derive(key, "autologin", nonce);

/** Validation's auth_token for the session's transactions (at most 75 characters: 43). */
export const authToken = (key: KeyObject, nonce: string): string => derive(key, "auth-token", nonce);

export const newSessionToken = (): string => randomBytes(32).toString("base64url");

/** The stored, keyed hash of a token, per kind so one kind never finds another. */
export const tokenHash = (key: KeyObject, kind: "autologin" | "session" | "card-token", token: string): string =>
  fingerprint(key, `cashier-session/${kind}-hash:${token}`);

/**
 * A Cashier deposit's order id, named by the session and the form's one-time
 * submission key: `cashier-` and 16 characters of base64url (96 bits of the
 * HMAC). The same key in the same session always names the same order, so the
 * unique (merchant_id, order_id) constraint turns a second submit of one form
 * into a repeat of its order; another session's key, or a guess, names another.
 */
export const depositOrderId = (key: KeyObject, nonce: string, submissionKey: string): string =>
  `cashier-${derive(key, "deposit-order", `${nonce}:${submissionKey}`).slice(0, 16)}`;

/** What a form's submission key may look like: random base64url, at least 128 bits. */
export const SUBMISSION_KEY_SHAPE = /^[A-Za-z0-9_-]{22,64}$/;

/** What a token may look like: anything else is refused before any lookup. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
