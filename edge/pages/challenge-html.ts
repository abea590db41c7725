/**
 * The 3-D Secure challenge pages as pure functions: data in, HTML and headers
 * out. No external resource, inline CSS only, every value HTML-escaped, so the
 * strict Content-Security-Policy below holds and the pages can be table-tested.
 */
import { formatMajor } from "../../engine/domain/money.ts";
import type { Reason } from "../../engine/domain/errors.ts";

/** What the open challenge shows. Amounts stay integers in minor units until formatted. */
export interface ChallengeView {
  orderId: string;
  amountMinor: bigint;
  currency: string;
  maskedCard: string;
}

export interface Page {
  http: number;
  html: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The return_url's origin when it is an absolute http(s) URL: the only other place a form may lead. */
export function httpOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Headers of every page: nothing loads but inline style, the form may post
 * only here (and be redirected to the merchant), no framing, no caching, no
 * referrer carrying the challenge's MAC to the merchant.
 */
export function pageHeaders(returnUrl = ""): Record<string, string> {
  const origin = httpOrigin(returnUrl);
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${origin ? ` ${origin}` : ""}; frame-ancestors 'none'; base-uri 'none'`,
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  };
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0;padding:2rem 1rem}
main{max-width:26rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.3rem;margin:0 0 1rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem;margin:0 0 1.5rem}
dt{color:#5a6272}dd{margin:0;font-weight:600;overflow-wrap:anywhere}form{display:flex;gap:.75rem}
button,a.button{flex:1;font:inherit;padding:.7rem;border-radius:6px;border:1px solid #1d2330;cursor:pointer;text-align:center;text-decoration:none}
#approve{background:#1d6b3a;border-color:#1d6b3a;color:#fff}#fail{background:#fff;color:#8a1c1c;border-color:#8a1c1c}
a.button{display:inline-block;background:#1d2330;color:#fff}`;

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${content}</main></body></html>
`;
}

/** A link back to the merchant, only for an http(s) return_url (never javascript: or the like). */
function continueLink(returnUrl: string): string {
  if (!httpOrigin(returnUrl)) return "";
  return `<p><a id="continue" class="button" href="${escapeHtml(returnUrl)}">Continue to the merchant</a></p>`;
}

/** The form has no action: it posts back to the page's own address, whatever path CASHIER_PUBLIC_URL has. */
export function openPage(view: ChallengeView): Page {
  const amount = `${formatMajor(view.amountMinor, view.currency)} ${view.currency}`;
  return {
    http: 200,
    html: layout(
      "3-D Secure check",
      `<h1>3-D Secure check</h1>
<p>Confirm this payment with your card issuer.</p>
<dl><dt>Order</dt><dd id="order">${escapeHtml(view.orderId)}</dd>
<dt>Amount</dt><dd id="amount">${escapeHtml(amount)}</dd>
<dt>Card</dt><dd id="card">${escapeHtml(view.maskedCard)}</dd></dl>
<form method="post">
<button type="submit" id="approve" name="result" value="approve">Approve</button>
<button type="submit" id="fail" name="result" value="fail">Fail</button>
</form>`,
    ),
  };
}

export function finishedPage(returnUrl: string): Page {
  return {
    http: 200,
    html: layout(
      "3-D Secure check finished",
      `<h1>This check is finished</h1>
<p>The 3-D Secure check of this payment has already been answered.</p>${continueLink(returnUrl)}`,
    ),
  };
}

export function expiredPage(returnUrl: string): Page {
  return {
    http: 410,
    html: layout(
      "3-D Secure check expired",
      `<h1>This check has expired</h1>
<p>The 3-D Secure check was not answered in time; the payment was not made.</p>${continueLink(returnUrl)}`,
    ),
  };
}

/** The page's own refusal of what the browser sent (a wrong form field, a body too large). */
export function refusedPage(http: number, text: string): Page {
  return { http, html: layout("3-D Secure check", `<h1>Request refused</h1>\n<p>${escapeHtml(text)}</p>`) };
}

const NOT_FOUND: Page = {
  http: 404,
  html: layout(
    "3-D Secure check not found",
    `<h1>No such check</h1>
<p>This 3-D Secure check does not exist. Check the address, or go back to the merchant's site.</p>`,
  ),
};

/** The one table from an engine refusal to a page: no internal text is ever shown. */
export function refusalPage(reason: Reason): Page {
  switch (reason) {
    // The engine refusing the trace_id or MAC in any way means: no such check.
    case "NOT_FOUND":
    case "NO_ROUTE":
    case "INVALID_FIELDS":
    case "MALFORMED_BODY":
      return NOT_FOUND;
    case "UNAVAILABLE":
      return {
        http: 503,
        html: layout(
          "3-D Secure check unavailable",
          `<h1>Temporarily unavailable</h1>
<p>The 3-D Secure check cannot be shown right now. Reload this page in a moment.</p>`,
        ),
      };
    default:
      return {
        http: 500,
        html: layout(
          "3-D Secure check",
          `<h1>Something went wrong</h1>
<p>The 3-D Secure check cannot be shown. Reload this page in a moment.</p>`,
        ),
      };
  }
}

export function notFoundPage(): Page {
  return NOT_FOUND;
}
