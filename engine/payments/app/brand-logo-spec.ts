/**
 * A frontend's logo (docs/cashier.md, Logo): PNG only, checked byte by byte before it is stored, because the
 * hosted pages serve it from the Cashier's own origin. An SVG is refused (it is a document that can carry script
 * and external references, and sanitising one is a parser's worth of risk); so is anything whose signature, IHDR
 * or chunk CRCs are not a PNG's, or that goes on after IEND (a PNG with another file appended is a polyglot).
 * Every chunk's CRC is re-checked: a 64 KiB walk costs nothing and refuses a truncated or altered upload at save
 * instead of a broken image on the page. Each fault is a MerchantsFileError naming the field.
 */
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import type { BrandLogo } from "../../shared/branding.ts";
import { MerchantsFileError } from "./merchant-errors.ts";

/** At most 64 KiB: a header logo needs no more, and each page view may fetch it once. */
export const MAX_LOGO_BYTES = 64 * 1024;
/** Width and height each from 16 to 512 pixels: readable, and small enough to be shown scaled down. */
export const MIN_LOGO_PIXELS = 16;
export const MAX_LOGO_PIXELS = 512;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// The bit depths each colour type allows (PNG 11.2.2).
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function looksLikeSvg(b: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false })
    .decode(b.subarray(0, 512))
    .replace(/^\uFEFF/, "")
    .trimStart()
    .toLowerCase();
  return head.startsWith("<svg") || ((head.startsWith("<?xml") || head.startsWith("<!--") || head.startsWith("<!doctype")) && head.includes("<svg"));
}

/** The chunks of `b` after the signature, each CRC checked; a fault's problem text, else the IHDR's fields. */
function walk(b: Uint8Array): string | { width: number; height: number } {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = SIGNATURE.length;
  let first = true;
  let size: { width: number; height: number } | undefined;
  let sawData = false;
  while (at < b.length) {
    if (at + 12 > b.length) return "is not a whole PNG (it ends inside a chunk)";
    const length = view.getUint32(at);
    const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
    if (!/^[A-Za-z]{4}$/.test(type)) return "is not a PNG (a chunk has no valid type)";
    if (at + 12 + length > b.length) return `is not a whole PNG (its ${type} chunk ends past the file)`;
    const crc = view.getUint32(at + 8 + length);
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== crc) return `is a damaged PNG (its ${type} chunk's CRC does not match)`;
    if (first) {
      if (type !== "IHDR" || length !== 13) return "is not a PNG (its first chunk is not IHDR)";
      const width = view.getUint32(at + 8);
      const height = view.getUint32(at + 12);
      const depth = b[at + 16] as number;
      const colour = b[at + 17] as number;
      if (!DEPTHS[colour]?.includes(depth) || b[at + 18] !== 0 || b[at + 19] !== 0 || (b[at + 20] as number) > 1)
        return "is not a valid PNG (its IHDR names no valid colour type, depth, compression, filter or interlace)";
      size = { width, height };
      first = false;
    }
    if (type === "IDAT") sawData = true;
    at += 12 + length;
    if (type === "IEND") {
      if (at !== b.length) return "has bytes after the PNG's end (IEND); upload the PNG alone";
      if (!sawData || !size) return "is not a whole PNG (it has no image data)";
      return size;
    }
  }
  return "is not a whole PNG (it has no IEND chunk)";
}

/** The logo `b` at field `where`, checked: PNG, at most 64 KiB, 16 to 512 pixels each way. */
export function checkLogo(b: Uint8Array, where: string): BrandLogo {
  if (b.length === 0) throw new MerchantsFileError(where, "is empty; give a PNG image");
  if (looksLikeSvg(b)) throw new MerchantsFileError(where, "is an SVG image; only PNG is accepted (an SVG can carry scripts)");
  if (b.length < SIGNATURE.length || SIGNATURE.some((x, i) => b[i] !== x))
    throw new MerchantsFileError(where, "is not a PNG image (it does not start with the PNG signature)");
  if (b.length > MAX_LOGO_BYTES) throw new MerchantsFileError(where, `is ${b.length} bytes; a logo may have at most ${MAX_LOGO_BYTES} (64 KiB)`);
  const walked = walk(b);
  if (typeof walked === "string") throw new MerchantsFileError(where, walked);
  const { width, height } = walked;
  for (const [name, v] of [
    ["width", width],
    ["height", height],
  ] as const) {
    if (v < MIN_LOGO_PIXELS || v > MAX_LOGO_PIXELS)
      throw new MerchantsFileError(where, `is ${width}x${height} pixels; its ${name} must be from ${MIN_LOGO_PIXELS} to ${MAX_LOGO_PIXELS}`);
  }
  const png = Uint8Array.from(b);
  return { sha256: createHash("sha256").update(png).digest("hex"), png, width, height };
}

/** The merchants file's `logo_png`: the PNG in base64 (RFC 4648, padding optional, whitespace allowed). */
export function logoBytesOf(v: unknown, where: string): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v !== "string") throw new MerchantsFileError(where, "must be the PNG's bytes in base64");
  const text = v.replace(/\s+/g, "");
  if (!BASE64.test(text) || text.length % 4 === 1) throw new MerchantsFileError(where, "must be the PNG's bytes in base64 (A-Z, a-z, 0-9, + and /)");
  return new Uint8Array(Buffer.from(text, "base64"));
}
