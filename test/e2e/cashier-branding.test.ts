/**
 * Branding per frontend (docs/cashier.md, Branding) through the running
 * service: the merchants file's branding reads back through AdminService with
 * the button text colour the engine chose; a colour pair below WCAG AA is
 * refused at save as INVALID_ARGUMENT naming the field and its ratio, and
 * nothing changes; a branded frontend's page, reached by its one-time link,
 * names the merchant in its title and header and carries its colours in a
 * <style> under the page's nonce; another frontend's page carries none.
 */
import t from "tap";
import { Code } from "@connectrpc/connect";
import { postSession, sessionBody } from "../support/cashier-session.ts";
import { SECRET } from "../support/merchants.ts";
import { useService } from "../support/service.ts";
import { refusal } from "../support/refusal.ts";

const LUCKY = {
  display_name: "Lucky Star Casino",
  primary_color: "#FFD60A",
  background_color: "#fffdf5",
  text_color: "#1d2330",
  corner_style: "pill",
};

const svc = useService(
  t,
  {},
  {
    merchants: {
      merchants: [
        {
          merchant_id: "m-brand",
          secret: SECRET,
          frontends: [
            { name: "lucky-usd", base_currency: "USD", branding: LUCKY },
            { name: "plain-usd", base_currency: "USD" },
          ],
        },
      ],
    },
  },
);

const brandingOf = async (frontend: string) =>
  (await svc().admin.getMerchant({ merchantId: "m-brand" })).merchant!.frontends.find((f) => f.name === frontend)?.branding;

t.test("the merchants file's branding reads back, with the button text colour the engine chose", async (t) => {
  const b = await brandingOf("lucky-usd");
  t.same(
    [b?.displayName, b?.primaryColor, b?.backgroundColor, b?.textColor, b?.cornerStyle, b?.buttonTextColor],
    ["Lucky Star Casino", "#ffd60a", "#fffdf5", "#1d2330", "pill", "#1d2330"],
    "yellow buttons carry the dark text colour: white would have 1.41:1 on them",
  );
  t.equal(await brandingOf("plain-usd"), undefined, "a frontend without branding has none");
  const rows = await svc().sql("select branding from frontend where name = $1", ["lucky-usd"]);
  t.same(rows, [
    { branding: { displayName: "Lucky Star Casino", primaryColor: "#ffd60a", backgroundColor: "#fffdf5", textColor: "#1d2330", cornerStyle: "pill" } },
  ]);
});

t.test("a pair below WCAG AA is refused at save, naming the field and the ratio; nothing changes", async (t) => {
  const admin = svc().admin;
  const save = (branding: Record<string, string>) =>
    admin.updateFrontend({ merchantId: "m-brand", frontend: { name: "lucky-usd", branding }, updateMask: { paths: ["branding"] } });
  const rows: [Record<string, string>, string, RegExp][] = [
    [{ displayName: "Lucky", textColor: "#777777" }, "frontend.branding.text_color", /#777777 on background_color #ffffff has a contrast of 4\.47:1/],
    [{ displayName: "Lucky", primaryColor: "#ff0000" }, "frontend.branding.primary_color", /white has 3\.99:1 on it and text_color #1d2330 3\.93:1/],
    [{ displayName: "Lucky", backgroundColor: "#101010", textColor: "#ffffff" }, "frontend.branding.background_color", /2\.91:1/],
    [{ displayName: "Lucky", primaryColor: "red" }, "frontend.branding.primary_color", /#rrggbb/],
    [{ displayName: "L".repeat(61) }, "frontend.branding.display_name", /at most 60/],
    [{ displayName: "Lucky", cornerStyle: "blob" }, "frontend.branding.corner_style", /square, rounded, pill/],
  ];
  for (const [branding, field, message] of rows) {
    const r = await refusal(save(branding));
    t.equal(r.code, Code.InvalidArgument, field);
    t.same(r.fields, [field], `names ${field}`);
    t.match(r.message, message, `says why: ${r.message}`);
  }
  t.equal((await brandingOf("lucky-usd"))?.textColor, "#1d2330", "the stored branding is unchanged");

  const saved = await save({ displayName: "Lucky Star", primaryColor: "#1d4ed8", cornerStyle: "square" });
  const b = saved.merchant!.frontends.find((f) => f.name === "lucky-usd")!.branding!;
  t.same([b.displayName, b.primaryColor, b.backgroundColor, b.cornerStyle, b.buttonTextColor], ["Lucky Star", "#1d4ed8", "#ffffff", "square", "#ffffff"]);
  await save(Object.fromEntries(Object.entries(LUCKY).map(([k, v]) => [k.replace(/_(.)/g, (_, c: string) => c.toUpperCase()), v])));
  const cleared = await admin.updateFrontend({ merchantId: "m-brand", frontend: { name: "plain-usd" }, updateMask: { paths: ["branding"] } });
  t.equal(cleared.merchant!.frontends.find((f) => f.name === "plain-usd")!.branding, undefined, "a mask naming branding without one clears it");
});

/** The page a session of `frontend` opens on: the one-time link followed as a browser would. */
async function pageOf(frontend: string): Promise<{ html: string; csp: string }> {
  const started = await postSession(svc().edgeUrl, sessionBody({ merchant_id: "m-brand", frontend, pin: `brand-${frontend}-${process.pid}` }));
  if (started.http !== 200) throw new Error(`session start: ${started.text}`);
  const res = await fetch(started.body.redirect_url as string);
  t.equal(res.status, 200, `${frontend}'s page opens`);
  return { html: await res.text(), csp: res.headers.get("content-security-policy") ?? "" };
}

t.test("a branded frontend's page names the merchant and carries its colours under the nonce", async (t) => {
  const { html, csp } = await pageOf("lucky-usd");
  t.match(html, /<title>[^<]+ · Lucky Star Casino<\/title>/);
  t.match(html, '<header class="merchant-header"><p class="merchant-name">Lucky Star Casino</p></header>');
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  t.ok(nonce, "the page has a nonce");
  t.match(html, `<style nonce="${nonce}">:root{--ink:#1d2330;`);
  t.match(html, "--primary:#ffd60a;--on-primary:#1d2330;--radius:16px;--button-radius:999px}</style>");
  t.notOk(/ style="/.test(html), "no inline style attribute");

  const plain = await pageOf("plain-usd");
  t.notOk(plain.html.includes("<style"), "an unbranded frontend's page has no brand style");
  t.notOk(plain.html.includes('class="merchant-header"'), "nor a brand header");
});
