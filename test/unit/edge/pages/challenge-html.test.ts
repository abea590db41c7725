/**
 * The challenge pages' pure rendering: what each state shows, that every value
 * is escaped, that amounts come from the integer, and the headers that keep
 * the page self-contained; then the same pages in German and Arabic.
 */
import t from "tap";
import { escapeHtml, expiredPage, finishedPage, kitFor, openPage, pageHeaders, refusalPage } from "../../../../edge/pages/challenge-html.ts";

t.test("the open page shows the order, the amount in major units and the masked card, escaped", async (t) => {
  const page = openPage({ orderId: `<script>x</script>&"'`, amountMinor: 123456789012345678n, currency: "USD", maskedCard: "400000******3220" });
  t.equal(page.http, 200);
  t.match(page.html, "<h1>3-D Secure check</h1>");
  t.match(page.html, "&#60;script&#62;x&#60;/script&#62;&#38;&#34;&#39;");
  t.equal(page.html.match(/<script/g)?.length, 1, "no script but the edge's own");
  t.match(page.html, /<script src="\/assets\/cashier\.[0-9a-f]{16}\.js" integrity="sha384-[^"]+" nonce="[^"]+" defer><\/script>/);
  t.match(page.html, ">1,234,567,890,123,456.78 USD<", "no float anywhere: every digit kept");
  t.match(page.html, ">400000******3220<");
  t.match(page.html, /<button type="submit" class="button [a-z]+" id="approve" name="result" value="approve">Approve<\/button>/);
  t.match(page.html, /<button type="submit" class="button [a-z]+" id="fail" name="result" value="fail">Fail<\/button>/);
  const forms = [...page.html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]);
  t.same(
    forms.map((f) => f.match(/<button type="submit"/g)?.length ?? 0),
    [1, 1],
    "one form per answer, each with one submit button",
  );
  const targets = [...page.html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
  t.ok(targets.length > 0);
  for (const url of targets) t.match(url, /^(\/assets\/|#main$)/, `no external resource: ${url}`);
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
  t.match(finished.html, /id="continue" class="button[^"]*" href="https:\/\/shop\.example\/back\?a=1&#38;b=&#60;2&#62;"/);
  const expired = expiredPage(url);
  t.equal(expired.http, 410);
  t.match(expired.html, "This check has expired");
  t.match(expired.html, 'id="continue"');
  t.notMatch(finishedPage("javascript:alert(1)").html, "continue", "no link to a script URL");
  t.notMatch(expiredPage("").html, "continue");
});

t.test("headers: nothing external, the form may go only here and to the merchant", async (t) => {
  const h = pageHeaders("https://shop.example:8443/back?x=1", "n0nce");
  t.equal(
    h["Content-Security-Policy"],
    "default-src 'none'; script-src 'nonce-n0nce'; style-src 'self' 'nonce-n0nce'; img-src 'self'; connect-src 'self'; form-action 'self' https://shop.example:8443; frame-ancestors 'none'; base-uri 'none'",
  );
  t.notMatch(h["Content-Security-Policy"], "unsafe-inline");
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

t.test("the page's nonce is on its tags; each page gets its own", async (t) => {
  const a = openPage({ orderId: "o", amountMinor: 1n, currency: "USD", maskedCard: "" });
  const b = openPage({ orderId: "o", amountMinor: 1n, currency: "USD", maskedCard: "" });
  t.not(a.nonce, b.nonce);
  t.equal(a.html.match(new RegExp(`nonce="${a.nonce.replace(/[+/=]/g, "\\$&")}"`, "g"))?.length, 2, "stylesheet and script");
});

t.test("German and Arabic: the texts, the amount as each writes it, the direction", async (t) => {
  const view = { orderId: "ord-1", amountMinor: 12345678n, currency: "EUR", maskedCard: "400000******3220" };
  const de = openPage(view, kitFor("de")).html;
  t.match(de, '<html lang="de" dir="ltr">');
  t.match(de, "<h1>3-D-Secure-Prüfung</h1>");
  t.match(de, ">123.456,78 EUR<");
  t.match(de, ">Bestätigen</button>");
  const ar = openPage(view, kitFor("ar")).html;
  t.match(ar, '<html lang="ar" dir="rtl">');
  t.match(ar, "<h1>التحقق من \u20663-D Secure\u2069</h1>", "the Latin name isolated inside the Arabic text");
  t.match(ar, '<bdi dir="ltr">400000******3220</bdi>', "the card number stays left to right");
  t.equal(expiredPage("", kitFor("de")).http, 410);
  t.match(expiredPage("", kitFor("de")).html, "Diese Prüfung ist abgelaufen");
  t.match(refusalPage("NOT_FOUND", kitFor("ar")).html, "لا يوجد تحقق كهذا");
});

t.test("the added languages: the 3-D Secure page in French and Turkish, the amount as each writes money", async (t) => {
  const view = { orderId: "ord-1", amountMinor: 12345678n, currency: "EUR", maskedCard: "400000******3220" };
  const fr = openPage(view, kitFor("fr")).html;
  t.match(fr, '<html lang="fr" dir="ltr">');
  t.match(fr, "<h1>Vérification 3-D Secure</h1>");
  t.match(fr, ">123\u202f456,78\u00a0€<");
  t.match(fr, ">Approuver</button>");
  const tr = openPage(view, kitFor("tr")).html;
  t.match(tr, '<html lang="tr" dir="ltr">');
  t.match(tr, "<h1>3-D Secure doğrulaması</h1>");
  t.match(tr, ">€123.456,78<");
  t.match(expiredPage("", kitFor("tr")).html, "Bu doğrulamanın süresi doldu");
});
