/**
 * Where a customer's page is: one merchant's PIN, in the query (a PIN is the
 * platform's free text, so never a path segment). The transaction lists and
 * detail link a PIN here.
 */
import { type Html, html } from "../../pages/kit/html.ts";

/** The customer page's path for a merchant's PIN, with optional further parameters (a notice, a page token). */
export function customerHref(merchantId: string, pin: string, extra: Record<string, string> = {}): string {
  return `/customer?${new URLSearchParams({ merchant_id: merchantId, pin, ...extra }).toString()}`;
}

/** A PIN as a link to its customer's page (cut to the column, whole in its title, in a list); a dash when the transaction has none. */
export function pinLink(merchantId: string, pin: string, clip = false): Html {
  if (!pin || !merchantId) return html`<span class="muted">–</span>`;
  return clip
    ? html`<a href="${customerHref(merchantId, pin)}" class="clip" title="${pin}"><bdi>${pin}</bdi></a>`
    : html`<a href="${customerHref(merchantId, pin)}"><bdi>${pin}</bdi></a>`;
}
