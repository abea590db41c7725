/**
 * The hosted Cashier's addresses. The browser session lives in the path
 * (`/cashier/s/<session token>/...`) and in each form, never only in a
 * cookie: a Cashier framed by another site gets no third-party cookie in
 * Chromium as shipped, and a path works the same in a tab, a new tab and a
 * frame. Pages send no Referer, and the access log writes the token as
 * `[session]`. The framing parent's origin, declared by the merchant as
 * `?parent=<origin>` on the autologin address, follows in the query and is
 * honoured only when it is one of the frontend's allowed_origins.
 */

import { SessionIntent } from "../../gen/cashier/engine/v1/cashier_service_pb.js";

/** An autologin or browser session token as the engine makes them (base64url). */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

export function isToken(value: string | undefined): value is string {
  return value !== undefined && TOKEN.test(value);
}

/** The pages of a session. */
export type SessionPage =
  | "deposit"
  | "withdrawal"
  | "return"
  | `result/${number}`
  | `result/${number}/status`
  | `challenge/${number}`
  | "cancel"
  | "cards/delete"
  | "fields";

/** The page a session of `intent` is opened on, and where any other session page sends it. */
export function intentPage(intent: SessionIntent): "deposit" | "withdrawal" | "fields" {
  if (intent === SessionIntent.FIELDS) return "fields";
  return intent === SessionIntent.WITHDRAWAL ? "withdrawal" : "deposit";
}

/** The address of a session's page, with the declared parent origin when there is one, and any other parameters. */
export function sessionPath(sessionToken: string, page: SessionPage, parent?: string, query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...(parent ? { parent } : {}), ...query }).toString();
  const base = `/cashier/s/${sessionToken}/${page}`;
  return params ? `${base}?${params}` : base;
}

/**
 * The access log's form of a Cashier path: tokens replaced by their kind. The
 * router matches paths without regard to case (and a 404 is logged too), so
 * the named forms are found in any case, and any other segment long enough to
 * be a token (32 characters or more), wherever it stands, is replaced as well.
 */
export function redactPath(path: string): string {
  return path
    .replace(/^\/cashier\/autologin\/[^/]+/i, "/cashier/autologin/[token]")
    .replace(/^\/cashier\/s\/[^/]+/i, "/cashier/s/[session]")
    .replace(/(?<=\/)[^/]{32,}(?=\/|$)/g, "[token]");
}
