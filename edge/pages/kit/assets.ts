/**
 * The pages' stylesheet, script and icon, served by the edge itself (no CDN, so the
 * CSP names no other origin). Each URL carries a hash of the file's content:
 * a changed file is a new URL, so browsers may keep every URL for a year
 * without ever running a stale script. An unknown or outdated name is a 404.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type Router from "@koa/router";
import type { Context } from "koa";

export interface Asset {
  /** The content-hashed path, e.g. /assets/cashier.3f2a9c1b0d4e5f67.css. */
  url: string;
  type: string;
  body: Buffer;
  /** The hash in the form a Subresource-Integrity attribute takes. */
  integrity: string;
}

/** A year, and never revalidated: the URL changes when the content does. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** The hashed URL of a file's content. */
export function hashedName(base: string, ext: string, body: Buffer): string {
  return `${base}.${createHash("sha256").update(body).digest("hex").slice(0, 16)}.${ext}`;
}

/** `dir`: the folder of the file (the kit's assets/ unless a face passes its own). */
export function load(file: string, type: string, dir: URL = new URL("./assets/", import.meta.url)): Asset {
  const body = readFileSync(new URL(file, dir));
  const [base, ext] = file.split(".");
  return {
    url: `/assets/${hashedName(base, ext, body)}`,
    type,
    body,
    integrity: `sha384-${createHash("sha384").update(body).digest("base64")}`,
  };
}

/** The pages' assets, read once at start; the icon spares every page the browser's request for /favicon.ico. */
export const ASSETS = {
  css: load("cashier.css", "text/css; charset=utf-8"),
  js: load("cashier.js", "text/javascript; charset=utf-8"),
  icon: load("icon.svg", "image/svg+xml"),
} as const;

const BY_URL = new Map<string, Asset>(Object.values(ASSETS).map((a) => [a.url, a]));

/** Serves a face's own asset at its hashed URL too. */
export function registerAsset(asset: Asset): Asset {
  BY_URL.set(asset.url, asset);
  return asset;
}

/** Answers with `asset`, immutable (its URL changes with its content), or a 404 when there is none by that name. */
export function sendAsset(ctx: Context, asset: Asset | undefined): void {
  if (!asset) {
    ctx.status = 404;
    ctx.set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
    ctx.body = "No such asset.\n";
    return;
  }
  ctx.status = 200;
  ctx.set({
    "Content-Type": asset.type,
    "Cache-Control": IMMUTABLE,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
  ctx.body = asset.body;
}

/** GET (and HEAD) /assets/<hashed name>. */
export function assetRoutes(router: Router): void {
  router.get("/assets/:name", (ctx) => {
    sendAsset(ctx, BY_URL.get(ctx.path));
  });
}
