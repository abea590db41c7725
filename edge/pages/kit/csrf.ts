/**
 * CSRF protection for the hosted pages' forms, with the `csrf` package's
 * tokens (salted, compared in constant time). The page may live in a
 * cross-origin iframe where the browser blocks or partitions third-party
 * cookies, so nothing rests on a cookie: the form carries the page's own
 * session token, and the CSRF secret is derived from it with the edge's key
 * (HMAC). A token is accepted only with the session token it was made for, and
 * a page of another site can forge neither.
 */
import { createHmac } from "node:crypto";
import Tokens from "csrf";

/** The hidden fields every protected form carries. */
export const CSRF_FIELD = "csrf_token";
export const SESSION_FIELD = "session_token";

export interface Csrf {
  /** A new token for a form of the page bound to `sessionToken`. */
  token(sessionToken: string): string;
  /** Whether `token` was made for `sessionToken` by an edge with this key. */
  verify(sessionToken: string, token: string | null | undefined): boolean;
}

/** `key`: at least 32 bytes shared by every edge (derived from CASHIER_EDGE_TOKEN at the edge). */
export function createCsrf(key: Buffer): Csrf {
  if (key.length < 32) throw new Error("the CSRF key must be at least 32 bytes");
  const tokens = new Tokens({ saltLength: 16 });
  const secretOf = (sessionToken: string) => createHmac("sha256", key).update(`cashier-csrf:${sessionToken}`).digest("base64url");
  return {
    token(sessionToken) {
      if (!sessionToken) throw new Error("a CSRF token needs the page's session token");
      return tokens.create(secretOf(sessionToken));
    },
    verify(sessionToken, token) {
      if (!sessionToken || !token || token.length > 200) return false;
      return tokens.verify(secretOf(sessionToken), token);
    },
  };
}

/** The edge's CSRF key from its engine token: the same on every edge of one deployment. */
export function csrfKeyFrom(edgeToken: string): Buffer {
  return createHmac("sha256", "cashier edge csrf key").update(edgeToken).digest();
}
