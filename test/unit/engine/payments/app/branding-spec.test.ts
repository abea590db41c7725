/**
 * A frontend's branding in the merchants file (and so in AdminService, which
 * parses the same entry): what it reads back as, the Cashier's own look for
 * what it leaves out, and every bad value refused by its exact path, contrast
 * refusals with their ratio.
 */
import t from "tap";
import { MerchantsFileError, parseMerchantsFile } from "../../../../../engine/payments/app/merchant-spec.ts";
import { STATUS_COLOURS } from "../../../../../engine/shared/branding.ts";
import { readFileSync } from "node:fs";

const W = "merchants[0].frontends[0].branding";

function parse(branding: unknown) {
  const file = { merchants: [{ merchant_id: "m-1", secret: "secret-0123456789abcdef", frontends: [{ name: "f", base_currency: "USD", branding }] }] };
  return parseMerchantsFile(JSON.stringify(file))[0].frontends[0].settings;
}

/** The field and message of a refusal, or "accepted". */
function refusal(branding: unknown): [string, string] | "accepted" {
  try {
    parse(branding);
    return "accepted";
  } catch (err) {
    if (!(err instanceof MerchantsFileError)) throw err;
    return [err.field, err.message];
  }
}

t.test("a full branding reads back as given, colours in lower case", async (t) => {
  const s = parse({ display_name: " Lucky Star Casino ", primary_color: "#1D4ED8", background_color: "#fffdf5", text_color: "#1d2330", corner_style: "pill" });
  t.same(s?.branding, { displayName: "Lucky Star Casino", primaryColor: "#1d4ed8", backgroundColor: "#fffdf5", textColor: "#1d2330", cornerStyle: "pill" });
});

t.test("a name alone takes the Cashier's own look; no branding is none", async (t) => {
  t.same(parse({ display_name: "Nordlicht" })?.branding, {
    displayName: "Nordlicht",
    primaryColor: "#1d2330",
    backgroundColor: "#ffffff",
    textColor: "#1d2330",
    cornerStyle: "rounded",
  });
  t.equal(parse(undefined)?.branding, undefined);
  t.equal(parse(null)?.branding, undefined);
});

t.test("every bad value refused by its path", async (t) => {
  const table: [unknown, string, RegExp][] = [
    ["Casino", W, /must be an object/],
    [{}, `${W}.display_name`, /is required/],
    [{ display_name: "   " }, `${W}.display_name`, /is required/],
    [{ display_name: "x".repeat(61) }, `${W}.display_name`, /at most 60 characters/],
    [{ display_name: "Evil\u202eCasino" }, `${W}.display_name`, /plain text/],
    [{ display_name: "A\nB" }, `${W}.display_name`, /plain text/],
    [{ display_name: "A", logo_url: "x" }, `${W}.logo_url`, /is not a branding setting/],
    [{ display_name: "A", primary_color: "blue" }, `${W}.primary_color`, /#rrggbb/],
    [{ display_name: "A", text_color: "#fff" }, `${W}.text_color`, /#rrggbb/],
    [{ display_name: "A", background_color: "#ffffff;}body{" }, `${W}.background_color`, /#rrggbb/],
    [{ display_name: "A", corner_style: "round" }, `${W}.corner_style`, /square, rounded, pill/],
    // Text on background below 4.5:1, with its ratio.
    [
      { display_name: "A", text_color: "#777777" },
      `${W}.text_color`,
      /#777777 on background_color #ffffff has a contrast of 4\.47:1; WCAG AA needs at least 4\.5:1/,
    ],
    // A red button: white 3.99:1, the text colour 3.93:1: neither reads on it.
    [
      { display_name: "A", primary_color: "#ff0000", text_color: "#1d2330" },
      `${W}.primary_color`,
      /#ff0000 carries no readable button text: white has 3\.99:1 on it and text_color #1d2330 3\.93:1/,
    ],
    // A dark background: the status colours would not read on it.
    [{ display_name: "A", background_color: "#101010", text_color: "#ffffff" }, `${W}.background_color`, /approval colour #1d6b3a at a contrast of 2\.91:1/],
  ];
  for (const [branding, field, message] of table) {
    const r = refusal(branding);
    t.not(r, "accepted", `${JSON.stringify(branding)} is refused`);
    if (r === "accepted") continue;
    t.equal(r[0], field, `${JSON.stringify(branding)} names ${field}`);
    t.match(r[1], message, `${JSON.stringify(branding)} says why`);
  }
});

t.test("a light primary takes the text colour on its buttons and is accepted", async (t) => {
  t.equal(refusal({ display_name: "Sunny", primary_color: "#ffd60a", text_color: "#1d2330" }), "accepted");
});

t.test("the status colours the background is checked against are the stylesheet's", async (t) => {
  const css = readFileSync(new URL("../../../../../edge/pages/kit/assets/cashier.css", import.meta.url), "utf8");
  t.match(css, `--ok: ${STATUS_COLOURS.ok};`);
  t.match(css, `--bad: ${STATUS_COLOURS.bad};`);
});
