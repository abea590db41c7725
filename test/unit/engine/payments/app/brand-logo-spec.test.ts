/**
 * A frontend's logo (docs/cashier.md, Logo) as the merchants file gives it (base64 in branding.logo_png) and
 * AdminService (bytes, the same parser): a PNG within the limits is kept by its SHA-256; an SVG, another type, a
 * PNG too big, too small or too large, damaged or with a file appended is refused naming the field.
 */
import { createHash, randomBytes } from "node:crypto";
import t from "tap";
import { MAX_LOGO_BYTES } from "../../../../../engine/payments/app/brand-logo-spec.ts";
import { MerchantsFileError, parseMerchantsFile } from "../../../../../engine/payments/app/merchant-spec.ts";
import { pngChunk, solidPng } from "../../../../support/png.ts";

const W = "merchants[0].frontends[0].branding";

function branding(logo: unknown, key = "logo_png") {
  const b = { display_name: "Lucky", [key]: logo };
  const file = { merchants: [{ merchant_id: "m-1", secret: "secret-0123456789abcdef", frontends: [{ name: "f", base_currency: "USD", branding: b }] }] };
  return parseMerchantsFile(JSON.stringify(file))[0]!.frontends[0]!.settings!.branding!;
}

function refusal(logo: unknown, key?: string): [string, string] | "accepted" {
  try {
    branding(logo, key);
    return "accepted";
  } catch (err) {
    if (!(err instanceof MerchantsFileError)) throw err;
    return [err.field, err.problem];
  }
}

t.test("a PNG within the limits is kept by the SHA-256 of its bytes", async (t) => {
  const png = solidPng(120, 40);
  const b = branding(png.toString("base64"));
  const sha = createHash("sha256").update(png).digest("hex");
  t.equal(b.logoSha256, sha);
  t.same([b.newLogo?.width, b.newLogo?.height, Buffer.from(b.newLogo!.png).equals(png)], [120, 40, true]);
  t.equal(branding(png.toString("base64").replace(/(.{60})/g, "$1\n")).logoSha256, sha, "line breaks in the base64 are allowed");
  t.equal(branding(solidPng(16, 512).toString("base64")).newLogo?.height, 512, "16 and 512 pixels are within");
  const kept = branding(sha, "logo_sha256");
  t.same([kept.logoSha256, kept.newLogo], [sha, undefined], "a stored logo's hash names it without its bytes");
});

t.test("an SVG or another type is refused naming the field", async (t) => {
  const svg = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
  t.same(refusal(Buffer.from(svg).toString("base64")), [`${W}.logo_png`, "is an SVG image; only PNG is accepted (an SVG can carry scripts)"]);
  t.same(refusal(Buffer.from("<svg/>").toString("base64"))[1], "is an SVG image; only PNG is accepted (an SVG can carry scripts)");
  const gif = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1");
  t.same(refusal(gif.toString("base64")), [`${W}.logo_png`, "is not a PNG image (it does not start with the PNG signature)"]);
  t.same(refusal(""), "accepted", "an empty logo is none");
  t.same(refusal("not base64!"), [`${W}.logo_png`, "must be the PNG's bytes in base64 (A-Z, a-z, 0-9, + and /)"]);
  t.same(refusal(42), [`${W}.logo_png`, "must be the PNG's bytes in base64"]);
  t.same(refusal("ABC", "logo_sha256"), [`${W}.logo_sha256`, "must be a stored logo's SHA-256: 64 lowercase hex digits"]);
});

t.test("size and dimensions are bounded", async (t) => {
  t.same(refusal(solidPng(15, 40).toString("base64")), [`${W}.logo_png`, "is 15x40 pixels; its width must be from 16 to 512"]);
  t.same(refusal(solidPng(40, 513).toString("base64")), [`${W}.logo_png`, "is 40x513 pixels; its height must be from 16 to 512"]);
  // Noise does not compress: a text chunk of random bytes makes the file pass 64 KiB.
  const big = solidPng(64, 64, "#000000", [pngChunk("zTXt", randomBytes(MAX_LOGO_BYTES))]);
  t.same(refusal(big.toString("base64")), [`${W}.logo_png`, `is ${big.length} bytes; a logo may have at most 65536 (64 KiB)`]);
});

t.test("a damaged, truncated or appended-to PNG is refused", async (t) => {
  const png = solidPng(32, 32);
  const flipped = Buffer.from(png);
  flipped[45] = (flipped[45] as number) ^ 0xff; // a byte of the IDAT data
  t.match(refusal(flipped.toString("base64")), [`${W}.logo_png`, /CRC does not match/]);
  t.match(refusal(png.subarray(0, png.length - 6).toString("base64")), [`${W}.logo_png`, /is not a whole PNG/]);
  const polyglot = Buffer.concat([png, Buffer.from("<script>alert(1)</script>")]);
  t.same(refusal(polyglot.toString("base64")), [`${W}.logo_png`, "has bytes after the PNG's end (IEND); upload the PNG alone"]);
  const noIhdr = Buffer.concat([png.subarray(0, 8), pngChunk("IEND", Buffer.alloc(0))]);
  t.same(refusal(noIhdr.toString("base64")), [`${W}.logo_png`, "is not a PNG (its first chunk is not IHDR)"]);
});
