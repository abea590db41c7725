/**
 * A frontend's logo (docs/cashier.md, Logo) through the running service: uploaded through AdminService as bytes
 * (or given in the merchants file as base64), read back as its SHA-256, shown by the hosted page in its header at
 * /cashier/logo/<sha256>.png, and served there by the edge (which asks the engine) as exactly those bytes, cached
 * for good; an unknown hash is 404; an SVG, a non-PNG, a PNG too big or of bad dimensions, and a hash the engine
 * does not hold are refused as INVALID_ARGUMENT naming the field, and nothing changes.
 */
import { createHash, randomBytes } from "node:crypto";
import t from "tap";
import { Code } from "@connectrpc/connect";
import { postSession, sessionBody } from "../support/cashier-session.ts";
import { SECRET } from "../support/merchants.ts";
import { pngChunk, solidPng } from "../support/png.ts";
import { useService } from "../support/service.ts";
import { refusal } from "../support/refusal.ts";

const FILE_LOGO = solidPng(200, 60, "#ffd60a");
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

const svc = useService(
  t,
  {},
  {
    merchants: {
      merchants: [
        {
          merchant_id: "m-logo",
          secret: SECRET,
          frontends: [
            { name: "file-usd", base_currency: "USD", branding: { display_name: "File Casino", logo_png: FILE_LOGO.toString("base64") } },
            { name: "admin-usd", base_currency: "USD", branding: { display_name: "Admin Casino" } },
          ],
        },
      ],
    },
  },
);

const brandingOf = async (frontend: string) =>
  (await svc().admin.getMerchant({ merchantId: "m-logo" })).merchant!.frontends.find((f) => f.name === frontend)?.branding;
const save = (branding: Record<string, unknown>) =>
  svc().admin.updateFrontend({ merchantId: "m-logo", frontend: { name: "admin-usd", branding }, updateMask: { paths: ["branding"] } });

/** The page a session of `frontend` opens on, and its CSP. */
async function pageOf(frontend: string): Promise<{ html: string; csp: string }> {
  const started = await postSession(svc().edgeUrl, sessionBody({ merchant_id: "m-logo", frontend, pin: `logo-${frontend}-${process.pid}` }));
  if (started.http !== 200) throw new Error(`session start: ${started.text}`);
  const res = await fetch(started.body.redirect_url as string);
  if (res.status !== 200) throw new Error(`${frontend}'s page: ${res.status}`);
  return { html: await res.text(), csp: res.headers.get("content-security-policy") ?? "" };
}

t.test("an uploaded logo: read back by hash, shown in the header, served as exactly its bytes", async (t) => {
  const png = solidPng(240, 80);
  const saved = await save({ displayName: "Admin Casino", primaryColor: "#1d4ed8", logoPng: png });
  const b = saved.merchant!.frontends.find((f) => f.name === "admin-usd")!.branding!;
  t.same([b.logoSha256, b.logoPng.length], [sha(png), 0], "read back as its SHA-256, without its bytes");
  const rows = await svc().sql("select width, height, octet_length(png) as size from brand_logo where sha256 = $1", [sha(png)]);
  t.same(rows, [{ width: 240, height: 80, size: png.length }], "stored once, with its size");
  t.same(await svc().sql("select branding->>'logoSha256' as logo, branding ? 'newLogo' as bytes from frontend where name = 'admin-usd'"), [
    { logo: sha(png), bytes: false },
  ]);

  const { html, csp } = await pageOf("admin-usd");
  const src = `/cashier/logo/${sha(png)}.png`;
  t.match(html, `<header class="merchant-header"><img class="merchant-logo" src="${src}" alt="Admin Casino"></header>`);
  t.match(csp, /img-src 'self'/, "the CSP lets the page show its own origin's image");

  const res = await fetch(new URL(src, svc().edgeUrl));
  t.equal(res.status, 200);
  t.same(
    [res.headers.get("content-type"), res.headers.get("cache-control"), res.headers.get("x-content-type-options")],
    ["image/png", "public, max-age=31536000, immutable", "nosniff"],
  );
  t.ok(Buffer.from(await res.arrayBuffer()).equals(png), "exactly the uploaded bytes");

  const kept = await save({ displayName: "Admin Casino", primaryColor: "#0f5132", logoSha256: sha(png) });
  t.equal(kept.merchant!.frontends.find((f) => f.name === "admin-usd")!.branding!.logoSha256, sha(png), "a colour change giving the hash back keeps the logo");
  const dropped = await save({ displayName: "Admin Casino" });
  t.equal(dropped.merchant!.frontends.find((f) => f.name === "admin-usd")!.branding!.logoSha256, "", "a branding without one has no logo");
  t.match((await pageOf("admin-usd")).html, '<header class="merchant-header"><p class="merchant-name">Admin Casino</p></header>');
});

t.test("the merchants file's logo (base64) is stored and served as well", async (t) => {
  t.equal((await brandingOf("file-usd"))?.logoSha256, sha(FILE_LOGO));
  t.match((await pageOf("file-usd")).html, `src="/cashier/logo/${sha(FILE_LOGO)}.png" alt="File Casino"`);
  const res = await fetch(new URL(`/cashier/logo/${sha(FILE_LOGO)}.png`, svc().edgeUrl));
  t.ok(Buffer.from(await res.arrayBuffer()).equals(FILE_LOGO));
});

t.test("an unknown or malformed logo address is 404", async (t) => {
  for (const path of [`/cashier/logo/${"0".repeat(64)}.png`, "/cashier/logo/abc.png", `/cashier/logo/${sha(FILE_LOGO).toUpperCase()}.png`]) {
    const res = await fetch(new URL(path, svc().edgeUrl));
    t.equal(res.status, 404, path);
    await res.arrayBuffer();
  }
});

t.test("refusals name the field, and nothing changes", async (t) => {
  const before = await brandingOf("admin-usd");
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
  const big = solidPng(64, 64, "#000000", [pngChunk("zTXt", randomBytes(70_000))]);
  const rows: [Record<string, unknown>, string, RegExp][] = [
    [{ logoPng: svg }, "frontend.branding.logo_png", /is an SVG image; only PNG is accepted/],
    [{ logoPng: Buffer.from("GIF89a....") }, "frontend.branding.logo_png", /is not a PNG image/],
    [{ logoPng: big }, "frontend.branding.logo_png", new RegExp(`is ${big.length} bytes; a logo may have at most 65536`)],
    [{ logoPng: solidPng(600, 40) }, "frontend.branding.logo_png", /is 600x40 pixels; its width must be from 16 to 512/],
    [{ logoPng: solidPng(40, 8) }, "frontend.branding.logo_png", /is 40x8 pixels; its height must be from 16 to 512/],
    [{ logoSha256: "f".repeat(64) }, "frontend.branding.logo_sha256", /names no stored logo/],
    [{ logoSha256: "logo.png" }, "frontend.branding.logo_sha256", /64 lowercase hex digits/],
  ];
  for (const [logo, field, message] of rows) {
    const r = await refusal(save({ displayName: "Admin Casino", ...logo }));
    t.equal(r.code, Code.InvalidArgument, message.source);
    t.same(r.fields, [field], `names ${field}`);
    t.match(r.message, message, `says why: ${r.message}`);
  }
  t.same(await brandingOf("admin-usd"), before, "the stored branding is unchanged");
});
