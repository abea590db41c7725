/**
 * The Backoffice's branding preview on the engine's side (ConsoleSettingsService.PreviewFrontendBranding,
 * docs/backoffice.md Branding): an admin's draft comes back as the engine would store it (colours in lower case,
 * the button text colour it chose, the logo by its SHA-256) with each pair's contrast as it measured it; a fault is
 * INVALID_ARGUMENT naming the field as a save's would; the frontend is unchanged; the previewed logo is stored so
 * that the save names it by hash; a viewer, another merchant's scope and an unknown frontend are refused.
 */
import { createHash } from "node:crypto";
import t from "tap";
import { Code } from "@connectrpc/connect";
import { movableClock } from "../support/clock.ts";
import { SECRET } from "../support/merchants.ts";
import { backofficeClient, ctx, enrolOperator } from "../support/operators.ts";
import { solidPng } from "../support/png.ts";
import { useService } from "../support/service.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
const svc = useService(
  t,
  {},
  {
    now: clock.now,
    merchants: {
      merchants: [
        { merchant_id: "m-preview", secret: SECRET, frontends: [{ name: "web-usd", base_currency: "USD" }] },
        { merchant_id: "m-other", secret: SECRET, frontends: [{ name: "web-usd", base_currency: "USD" }] },
      ],
    },
  },
);
const bo = () => backofficeClient(svc().engineUrl);

t.test("a draft comes back checked, with its contrasts, and nothing of the frontend changes", async (t) => {
  const admin = (await enrolOperator(svc(), bo(), clock, "brand-admin", "admin")).sessionToken;
  const preview = (token: string, branding: Record<string, unknown>, over: Record<string, unknown> = {}) =>
    bo().previewFrontendBranding({ context: ctx(token), merchantId: "m-preview", frontend: "web-usd", branding, ...over });
  const png = solidPng(96, 32, "#ffd60a");
  const sha = createHash("sha256").update(png).digest("hex");

  const r = await preview(admin, { displayName: "Lucky Star", primaryColor: "#FFD60A", backgroundColor: "#fffdf5", logoPng: png });
  const b = r.branding!;
  t.same(
    [b.displayName, b.primaryColor, b.backgroundColor, b.textColor, b.cornerStyle, b.buttonTextColor, b.logoSha256, b.logoPng.length],
    ["Lucky Star", "#ffd60a", "#fffdf5", "#1d2330", "rounded", "#1d2330", sha, 0],
  );
  t.same(
    r.contrasts.map((c) => [c.pair, c.foreground, c.background, c.ratio]),
    [
      ["text", "#1d2330", "#fffdf5", "15.44:1"],
      ["button_text", "#1d2330", "#ffd60a", "11.13:1"],
      ["approval", "#1d6b3a", "#fffdf5", "6.41:1"],
      ["refusal", "#8a1c1c", "#fffdf5", "9.10:1"],
    ],
    "each pair the engine checked, with its ratio",
  );
  t.same(
    await svc().sql("select branding from frontend where name = 'web-usd' and merchant_id = 'm-preview'"),
    [{ branding: null }],
    "the frontend is unchanged",
  );
  t.same(await svc().sql("select width from brand_logo where sha256 = $1", [sha]), [{ width: 96 }], "the previewed logo is stored");

  const saved = await bo().updateFrontend({
    context: ctx(admin),
    update: {
      merchantId: "m-preview",
      frontend: { name: "web-usd", branding: { displayName: "Lucky Star", logoSha256: sha } },
      updateMask: { paths: ["branding"] },
    },
  });
  t.equal(saved.merchant!.frontends[0]!.branding!.logoSha256, sha, "the save names the previewed logo by hash");

  const bad = await refusal(preview(admin, { displayName: "Lucky", textColor: "#777777" }));
  t.same([bad.code, bad.fields], [Code.InvalidArgument, ["branding.text_color"]]);
  t.match(bad.message, /4\.47:1; WCAG AA needs at least 4\.5:1/);
  const svg = await refusal(preview(admin, { displayName: "Lucky", logoPng: Buffer.from("<svg/>") }));
  t.same([svg.code, svg.fields], [Code.InvalidArgument, ["branding.logo_png"]]);

  const viewer = (await enrolOperator(svc(), bo(), clock, "brand-viewer", "viewer")).sessionToken;
  t.equal((await refusal(preview(viewer, { displayName: "Lucky" }))).code, Code.PermissionDenied, "a viewer may not");
  const scoped = (await enrolOperator(svc(), bo(), clock, "brand-other", "admin", ["m-other"])).sessionToken;
  t.not((await refusal(preview(scoped, { displayName: "Lucky" }))).code, undefined, "an admin of another merchant may not");
  t.equal((await refusal(preview(admin, { displayName: "Lucky" }, { frontend: "nope" }))).code, Code.NotFound);
});
