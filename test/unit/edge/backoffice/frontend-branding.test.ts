/**
 * The Branding section's view and the engine's fields it maps (views/frontend-branding.ts,
 * routes/frontend-branding.ts): the preview drawn from the engine's answer only (the header with its logo from the
 * Backoffice's route, each pair as the engine measured it), a colour that is not #rrggbb never reaching the page's
 * CSS, the engine's field names (a preview's and a save's) beside their inputs, and no form for an operator who may
 * not change it.
 */
import { create } from "@bufbuild/protobuf";
import t from "tap";
import { BrandingContrastSchema } from "../../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { FrontendBrandingSchema } from "../../../../gen/cashier/admin/v1/merchant_pb.js";
import { consoleTranslator } from "../../../../edge/backoffice/i18n.ts";
import { brandingInputOf } from "../../../../edge/backoffice/routes/frontend-branding.ts";
import { type BrandingSectionView, brandingCss, brandingSection, brandingValues } from "../../../../edge/backoffice/views/frontend-branding.ts";

const tr = consoleTranslator("en");
const SHA = "ab".repeat(32);
const branding = create(FrontendBrandingSchema, {
  displayName: "Lucky <Star>",
  primaryColor: "#ffd60a",
  backgroundColor: "#fffdf5",
  textColor: "#1d2330",
  buttonTextColor: "#1d2330",
  cornerStyle: "pill",
  logoSha256: SHA,
});
const view = (over: Partial<BrandingSectionView> = {}): BrandingSectionView => ({
  action: "/merchants/m/frontends/f/branding",
  csrf: "tok",
  canUpdate: true,
  stored: undefined,
  values: brandingValues(undefined),
  errors: [],
  ...over,
});

t.test("the preview is the engine's answer: header, logo from the Backoffice, each pair with its ratio", async (t) => {
  const contrasts = [create(BrandingContrastSchema, { pair: "text", foreground: "#1d2330", background: "#fffdf5", ratio: "15.44:1" })];
  const v = view({ preview: { branding, contrasts } });
  const page = brandingSection(tr, v).value;
  t.match(page, `<img class="merchant-logo" src="/logos/${SHA}.png" alt="Lucky &#60;Star&#62;" id="brand-draft-logo">`);
  t.match(page, /<th scope="row">Text on the background<\/th><td><code>#1d2330<\/code> \/ <code>#fffdf5<\/code><\/td><td>15\.44:1<\/td><td[^>]*>Passes<\/td>/);
  t.match(page, 'class="brand-sample corner-pill" id="brand-draft"');
  t.equal(brandingCss(v), "#brand-draft{--brand-paper:#fffdf5;--brand-ink:#1d2330;--brand-primary:#ffd60a;--brand-on-primary:#1d2330}");
  t.match(page, 'enctype="multipart/form-data"');
  t.match(page, 'value="preview"');
  t.match(page, 'value="save"');
});

t.test("a colour not #rrggbb never reaches the CSS", async (t) => {
  const bad = create(FrontendBrandingSchema, { ...branding, backgroundColor: "red;}body{display:none" });
  t.equal(brandingCss(view({ stored: bad })), "");
});

t.test("the engine's fields beside their inputs; no form without the right to change", async (t) => {
  t.same(
    ["branding.text_color", "frontend.branding.display_name", "branding.logo_png", "frontend.branding.logo_sha256", "branding", "merchant_id"].map(
      brandingInputOf,
    ),
    ["brand-text_color", "brand-display_name", "brand-logo", "brand-logo", undefined, undefined],
  );
  const refused = brandingSection(tr, view({ errors: [{ field: "brand-text_color", message: "has a contrast of 2.84:1" }] })).value;
  t.match(refused, '<p class="error" id="brand-text_color-error">has a contrast of 2.84:1</p>');
  const read = brandingSection(tr, view({ canUpdate: false, stored: branding })).value;
  t.notMatch(read, "<form");
  t.match(read, 'id="brand-now"');
});
