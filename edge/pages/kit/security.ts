/**
 * The headers every hosted page is sent with. Scripts run only with this
 * response's nonce and styles come only from the edge itself, so an injected
 * tag or attribute does nothing even if escaping ever failed; framing is
 * allowed only for the frontend's `allowed_origins`; nothing leaks through
 * the Referer; pages showing a customer's data are never cached; a page that
 * opened one (window.open, a link with target) keeps no handle on it
 * (Cross-Origin-Opener-Policy), so it can neither navigate it away nor read
 * whether it is still open.
 */
import { randomBytes } from "node:crypto";

/** A fresh nonce for one response: 128 random bits. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/** The origin of an absolute http(s) URL, else undefined (javascript:, data:, relative, garbage). */
export function httpOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The parent origin a request declares (`?parent=`), when it is exactly one of `allowed` (else none: no events are posted). */
export function declaredParent(query: unknown, allowed: readonly string[]): string | undefined {
  const parent = typeof query === "string" ? query : undefined;
  return parent && allowed.includes(parent) ? parent : undefined;
}

/** One of the service's own page addresses with the declared parent origin added, so that the next page posts its events too. */
export function withParent(url: string, parent: string | undefined): string {
  if (!parent) return url;
  const u = new URL(url);
  u.searchParams.set("parent", parent);
  return u.href;
}

export interface PageSecurity {
  /** This response's nonce, on every script and stylesheet tag. */
  nonce: string;
  /** Origins that may frame the page (the frontend's allowed_origins); empty: none. */
  frameAncestors?: readonly string[];
  /** Other origins a form may post to or be redirected to (the merchant's return_url). */
  formTargets?: readonly string[];
  /** Served over TLS: adds Strict-Transport-Security. */
  tls?: boolean;
  /** The page shows customer or payment data: never stored by any cache. */
  customerData?: boolean;
}

/** The Content-Security-Policy of a page: nothing inline without the nonce, nothing from another origin. */
export function contentSecurityPolicy(s: PageSecurity): string {
  const targets = (s.formTargets ?? []).filter((o) => httpOrigin(o) === o);
  // Only exact origins frame a page: a pattern stored before the engine refused them (`https://*.shop.example`)
  // would let every subdomain in, so it is left out here too.
  const exact = (s.frameAncestors ?? []).filter((o) => httpOrigin(o) === o && !o.includes("*"));
  const ancestors = exact.length > 0 ? exact.join(" ") : "'none'";
  return [
    "default-src 'none'",
    `script-src 'nonce-${s.nonce}'`,
    `style-src 'self' 'nonce-${s.nonce}'`,
    "img-src 'self'",
    "connect-src 'self'",
    `form-action 'self'${targets.length > 0 ? ` ${targets.join(" ")}` : ""}`,
    `frame-ancestors ${ancestors}`,
    "base-uri 'none'",
  ].join("; ");
}

/** Every security header of an HTML page. */
export function pageHeaders(s: PageSecurity): Record<string, string> {
  const framed = (s.frameAncestors ?? []).some((o) => httpOrigin(o) === o && !o.includes("*"));
  const headers: Record<string, string> = {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": contentSecurityPolicy(s),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": s.customerData === false ? "no-cache" : "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
    // same-origin: an opener of another origin loses its window handle (no navigating the page away, no
    // postMessage into it). Browsers apply it to top-level pages only, so framing by allowed_origins is untouched,
    // and redirects to an acquirer's 3-D Secure page and back are navigations, which it does not restrict.
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
  // X-Frame-Options cannot name several origins: it is sent only when no one may frame (old browsers).
  if (!framed) headers["X-Frame-Options"] = "DENY";
  if (s.tls) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}
