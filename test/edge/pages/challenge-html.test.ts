/**
 * The challenge pages' pure rendering: what each state shows, that every value
 * is escaped, that amounts come from the integer, and the headers that keep
 * the page self-contained.
 */
import t from "tap";
import { escapeHtml, expiredPage, finishedPage, openPage, pageHeaders, refusalPage } from "../../../edge/pages/challenge-html.ts";

t.test("the open page shows the order, the amount in major units and the masked card, escaped", async (t) => {
  const page = openPage({ orderId: `<script>x</script>&"'`, amountMinor: 123456789012345678n, currency: "USD", maskedCard: "400000******3220" });
  t.equal(page.http, 200);
  t.match(page.html, "<h1>3-D Secure check</h1>");
  t.match(page.html, "&#60;script&#62;x&#60;/script&#62;&#38;&#34;&#39;");
  t.notMatch(page.html, "<script");
  t.match(page.html, ">1234567890123456.78 USD<", "no float anywhere: every digit kept");
  t.match(page.html, ">400000******3220<");
  t.match(page.html, '<button type="submit" id="approve" name="result" value="approve">Approve</button>');
  t.match(page.html, '<button type="submit" id="fail" name="result" value="fail">Fail</button>');
  t.notMatch(page.html, /src=|href=|<link|<script/, "no external resource");
});

t.test("amounts follow the currency's exponent", async (t) => {
  const rows: [bigint, string, string][] = [
    [1050n, "USD", "10.50 USD"],
    [1000n, "JPY", "1000 JPY"],
    [5000n, "BHD", "5.000 BHD"],
    [5n, "EUR", "0.05 EUR"],
  ];
  for (const [minor, currency, shown] of rows) {
    t.match(openPage({ orderId: "o", amountMinor: minor, currency, maskedCard: "" }).html, `>${shown}<`, shown);
  }
});

t.test("finished and expired pages link back only to an http(s) return_url", async (t) => {
  const url = "https://shop.example/back?a=1&b=<2>";
  const finished = finishedPage(url);
  t.equal(finished.http, 200);
  t.match(finished.html, `id="continue" class="button" href="https://shop.example/back?a=1&#38;b=&#60;2&#62;"`);
  const expired = expiredPage(url);
  t.equal(expired.http, 410);
  t.match(expired.html, "This check has expired");
  t.match(expired.html, 'id="continue"');
  t.notMatch(finishedPage("javascript:alert(1)").html, "continue", "no link to a script URL");
  t.notMatch(expiredPage("").html, "continue");
});

t.test("headers: nothing external, the form may go only here and to the merchant", async (t) => {
  const h = pageHeaders("https://shop.example:8443/back?x=1");
  t.equal(
    h["Content-Security-Policy"],
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https://shop.example:8443; frame-ancestors 'none'; base-uri 'none'",
  );
  t.equal(h["Cache-Control"], "no-store");
  t.equal(h["X-Frame-Options"], "DENY");
  t.equal(h["Referrer-Policy"], "no-referrer");
  t.match(pageHeaders("")["Content-Security-Policy"], "form-action 'self';");
  t.match(pageHeaders("javascript:void(0)")["Content-Security-Policy"], "form-action 'self';");
});

t.test("engine refusals become pages without internal text", async (t) => {
  t.equal(refusalPage("NOT_FOUND").http, 404);
  t.equal(refusalPage("INVALID_FIELDS").http, 404, "a trace_id or MAC the engine cannot read names no check");
  t.equal(refusalPage("UNAVAILABLE").http, 503);
  t.equal(refusalPage("INTERNAL").http, 500);
  t.equal(escapeHtml(`<&>"'`), "&#60;&#38;&#62;&#34;&#39;");
});
