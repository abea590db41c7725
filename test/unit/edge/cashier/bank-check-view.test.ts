/**
 * The page between the deposit form and a 3-D Secure check, on fixtures: it sends the browser on at once (a 0-second
 * refresh, scripts or not) to the check's address and offers the same address as a link; it posts no event to a
 * framing parent (it is gone before it is seen), is framed only by the session's allowed origins, and refuses to
 * lead anywhere but an http(s) address, serialised so that no quote can end the refresh's URL.
 */
import t from "tap";
import { bankCheckPage } from "../../../../edge/cashier/views/bank-check.ts";
import { translator } from "../../../../edge/pages/kit/i18n.ts";
import { SHOP, TOKEN, depositSession } from "../../../support/cashier-fixtures.ts";

const c = (locale: "en" | "de" | "ar" = "en") => ({ tr: translator(locale), nonce: "bm9uY2U=", tls: false });
const frame = { session: depositSession(), sessionToken: TOKEN, parent: SHOP };
const CHECK = `https://cashier.example/3ds/42/${"a".repeat(32)}?parent=${encodeURIComponent(SHOP)}`;

t.test("it goes on to the check at once and links to it, in the customer's language", async (t) => {
  const page = bankCheckPage(c(), frame, CHECK)!;
  t.equal(page.http, 200);
  const href = CHECK.replace(/&/g, "&amp;");
  t.match(page.html, `<meta http-equiv="refresh" content="0; url=${href}">`, "a refresh of 0 seconds, outside <noscript>");
  t.notMatch(page.html, /<noscript><meta http-equiv="refresh" content="0/);
  t.match(page.html, `<a id="to-bank" class="button primary" href="${href}">Continue to your bank</a>`);
  t.match(page.html, "<h1>Confirm the payment with your bank</h1>");
  t.notMatch(page.html, "data-parent-origin", "no event for the parent");
  t.match(page.headers["Content-Security-Policy"], `frame-ancestors ${SHOP};`);
  t.equal(page.headers["Cache-Control"], "no-store");
  t.equal(page.headers["Referrer-Policy"], "no-referrer");
  t.match(bankCheckPage(c("de"), frame, CHECK)!.html, "<h1>Zahlung bei Ihrer Bank bestätigen</h1>");
  t.match(bankCheckPage(c("ar"), frame, CHECK)!.html, 'dir="rtl"');
});

t.test("an address with quotes is serialised; one that is not http(s) gives no page", async (t) => {
  const page = bankCheckPage(c(), frame, `https://cashier.example/3ds/1/abc?x='"<>`)!;
  const refresh = /<meta http-equiv="refresh" content="([^"]*)">/.exec(page.html)?.[1] ?? "";
  t.equal(refresh, "0; url=https://cashier.example/3ds/1/abc?x=%27%22%3C%3E");
  for (const bad of ["javascript:alert(1)", "data:text/html,x", "/3ds/1/abc", "not a url"]) t.equal(bankCheckPage(c(), frame, bad), undefined, bad);
});
