/**
 * A branded frontend's pages on fixtures: the merchant's name in the title and
 * a header, the engine's colours as custom properties in a <style> under the
 * response's nonce (the CSP's style-src allows it, no style attribute), and a
 * value not of the engine's shape never reaching the CSS.
 */
import t from "tap";
import { create } from "@bufbuild/protobuf";
import { CashierBrandingSchema } from "../../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { pageBrand } from "../../../../edge/cashier/views/brand.ts";
import { depositPage } from "../../../../edge/cashier/views/deposit.ts";
import { translator } from "../../../../edge/pages/kit/i18n.ts";
import { SHOP, TOKEN, depositSession } from "../../../support/cashier-fixtures.ts";

const NONCE = "bm9uY2U=";
const brand = (over: Partial<Record<string, string>> = {}) =>
  create(CashierBrandingSchema, {
    displayName: "Lucky <Star> & Co",
    primaryColor: "#1d4ed8",
    backgroundColor: "#fffdf5",
    textColor: "#1d2330",
    buttonTextColor: "#ffffff",
    cornerStyle: "pill",
    ...over,
  });

function page(b = brand()) {
  const session = depositSession();
  session.frontendSettings!.branding = b;
  return depositPage(
    { tr: translator("en"), nonce: NONCE, tls: false },
    { session, sessionToken: TOKEN, parent: SHOP },
    { csrfToken: "x", submissionKey: "k" },
  );
}

t.test("a branded page names the merchant in its title and header, escaped", async (t) => {
  const h = page().html;
  t.match(h, /<title>[^<]+ · Lucky &#60;Star&#62; &#38; Co<\/title>/);
  t.match(h, '<header class="merchant-header"><p class="merchant-name">Lucky &#60;Star&#62; &#38; Co</p></header>');
  t.ok(h.indexOf('class="merchant-header"') < h.indexOf("<main"), "the header comes before the main landmark");
});

t.test("the colours and corners go in a nonce'd <style> after the stylesheet, never a style attribute", async (t) => {
  const p = page();
  const h = p.html;
  t.match(
    h,
    `<style nonce="${NONCE}">:root{--ink:#1d2330;--muted:#1d2330;--accent:#1d2330;--paper:#fffdf5;--ground:#fffdf5;--primary:#1d4ed8;--on-primary:#ffffff;--radius:16px;--button-radius:999px}</style>`,
  );
  t.ok(h.indexOf('rel="stylesheet"') < h.indexOf("<style"), "after the stylesheet it overrides");
  t.notMatch(h, / style="/, "no inline style attribute");
  t.match(p.headers["Content-Security-Policy"], `style-src 'self' 'nonce-${NONCE}'`);
});

t.test("no branding: the Cashier's own look and title", async (t) => {
  const session = depositSession();
  const h = depositPage(
    { tr: translator("en"), nonce: NONCE, tls: false },
    { session, sessionToken: TOKEN, parent: SHOP },
    { csrfToken: "x", submissionKey: "k" },
  ).html;
  t.notOk(h.includes("<style"), "no brand style");
  t.notOk(h.includes('class="merchant-header"'), "no brand header");
  t.notOk(/<title>[^<]* · /.test(h), "the title names no merchant");
});

t.test("a value not of the engine's shape is not rendered at all", async (t) => {
  t.equal(pageBrand(brand({ primaryColor: "red;}body{display:none" })), undefined);
  t.equal(pageBrand(brand({ textColor: "#FFF" })), undefined);
  t.equal(pageBrand(brand({ cornerStyle: "blob" })), undefined);
  t.equal(pageBrand(brand({ displayName: "" })), undefined);
  t.equal(pageBrand(undefined), undefined);
  t.equal(pageBrand(brand({ cornerStyle: "square" }))?.css.includes("--radius:0;--button-radius:0}"), true);
});

t.test("a logo shows in the header at its hashed address, the name as its alt text; a hash of another shape is dropped", async (t) => {
  const sha = "ab".repeat(32);
  t.match(
    page(brand({ logoSha256: sha })).html,
    `<header class="merchant-header"><img class="merchant-logo" src="/cashier/logo/${sha}.png" alt="Lucky &#60;Star&#62; &#38; Co"></header>`,
  );
  for (const bad of ["../../x", `${sha}.png`, "AB".repeat(32)]) {
    t.match(page(brand({ logoSha256: bad })).html, '<header class="merchant-header"><p class="merchant-name">', `${bad}: the name alone`);
  }
});
