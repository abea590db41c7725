/**
 * CSRF protection for the hosted pages' forms, with the `csrf` package's
 * tokens (salted, compared in constant time). The page may live in a
 * cross-origin iframe where the browser blocks or partitions third-party
 * cookies, so nothing rests on a cookie: the form carries the page's own
 * session token, and the CSRF secret is derived from it with the edge's key
 * (HMAC). A token is accepted only with the session token it was made for, and
 * a page of another site can forge neither.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import Tokens from "csrf";

/** The hidden fields every protected form carries. */
export const CSRF_FIELD = "csrf_token";
export const SESSION_FIELD = "session_token";

export interface Csrf {
  /**
   * A new token for a form of the page bound to `sessionToken`. `parent`: the framing origin the page was sent for,
   * already checked against the frontend's allowed_origins; the token then carries a proof of it (below).
   */
  token(sessionToken: string, parent?: string): string;
  /** Whether `token` was made for `sessionToken` by an edge with this key. */
  verify(sessionToken: string, token: string | null | undefined): boolean;
  /**
   * `declared` when `token` (already verified) was made for `sessionToken` together with that parent origin, else
   * undefined. The page that answers a form of a session that has ended may then be framed by that origin and post
   * it cashier:expired, although the engine no longer tells the session's allowed_origins.
   */
  provenParent(sessionToken: string, token: string | null | undefined, declared: unknown): string | undefined;
}

/** Between a token's CSRF part and its parent proof: a character neither part uses. */
const PROOF_MARK = ".";

/** `key`: at least 32 bytes shared by every edge (derived from CASHIER_EDGE_TOKEN at the edge). */
export function createCsrf(key: Buffer): Csrf {
  if (key.length < 32) throw new Error("the CSRF key must be at least 32 bytes");
  const tokens = new Tokens({ saltLength: 16 });
  const secretOf = (sessionToken: string) => createHmac("sha256", key).update(`cashier-csrf:${sessionToken}`).digest("base64url");
  const proofOf = (sessionToken: string, parent: string) =>
    createHmac("sha256", key).update(`cashier-parent:${sessionToken}\n${parent}`).digest("base64url").slice(0, 32);
  return {
    token(sessionToken, parent) {
      if (!sessionToken) throw new Error("a CSRF token needs the page's session token");
      const token = tokens.create(secretOf(sessionToken));
      return parent ? `${token}${PROOF_MARK}${proofOf(sessionToken, parent)}` : token;
    },
    verify(sessionToken, token) {
      if (!sessionToken || !token || token.length > 200) return false;
      const [csrf, proof, ...rest] = token.split(PROOF_MARK);
      if (rest.length > 0 || proof === "") return false;
      return tokens.verify(secretOf(sessionToken), csrf);
    },
    provenParent(sessionToken, token, declared) {
      if (typeof declared !== "string" || !sessionToken || !token || token.length > 200) return undefined;
      const proof = token.split(PROOF_MARK)[1];
      if (!proof) return undefined;
      const expected = Buffer.from(proofOf(sessionToken, declared));
      const given = Buffer.from(proof);
      return given.length === expected.length && timingSafeEqual(given, expected) ? declared : undefined;
    },
  };
}

/** The edge's CSRF key from its engine token: the same on every edge of one deployment. */
export function csrfKeyFrom(edgeToken: string): Buffer {
  return createHmac("sha256", "cashier edge csrf key").update(edgeToken).digest();
}
