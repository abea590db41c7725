/**
 * The 3-D Secure challenge page the Checkout.com and Adyen stand-ins send
 * the customer to, as a real acquirer's redirect URL does: two buttons,
 * authenticate or fail, posted back to the same URL. A pure function from
 * the payment's few shown facts to HTML, every value escaped.
 */
import { formatMajor } from "../../../shared/money.ts";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export interface ChallengeView {
  /** "Checkout.com" or "Adyen". */
  acquirer: string;
  amountMinor: number;
  currency: string;
  /** The card's last four digits. */
  last4: string;
  /** Set once the customer answered: the page says so and offers no buttons. */
  result?: "passed" | "failed";
}

export function challengePage(v: ChallengeView): string {
  const amount = `${formatMajor(v.amountMinor, v.currency)} ${v.currency}`;
  const body = v.result
    ? `<p id="result">Authentication ${v.result === "passed" ? "passed" : "failed"}.</p>`
    : `<form method="post">
<button type="submit" id="pass" name="result" value="pass">Authenticate</button>
<button type="submit" id="fail" name="result" value="fail">Fail authentication</button>
</form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>3-D Secure (simulated ${esc(v.acquirer)})</title></head>
<body><h1>3-D Secure challenge</h1>
<p>Simulated ${esc(v.acquirer)} issuer: ${esc(amount)}, card ending ${esc(v.last4)}.</p>
${body}
</body></html>
`;
}

/** The page as an answer, with headers that keep it in its place. */
export function challengeAnswer(html: string, http = 200) {
  return {
    http,
    body: html,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; form-action *; frame-ancestors *",
      "cache-control": "no-store",
    },
  };
}

/** The customer's button, from the posted form (result=pass|fail). */
export function challengeChoice(form: string): "passed" | "failed" | undefined {
  const v = new URLSearchParams(form).get("result");
  return v === "pass" ? "passed" : v === "fail" ? "failed" : undefined;
}

/** `url` with query parameters added, keeping its own. */
export function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
