/**
 * A face's own set of static files (stylesheets, scripts, vendor bundles such
 * as chart.js), served like the kit's own assets: read once at start, at a URL
 * that carries a hash of the content, immutable for a year, a 404 for any
 * other name. assets.ts serves the hosted pages' two files; a face with more
 * files (the Backoffice) declares them here instead of copying the route.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type Router from "@koa/router";
import { type Asset, hashedName, sendAsset } from "./assets.ts";

export interface AssetFile {
  /** Where the file is read from (a file: URL). */
  from: URL;
  /** The name the URL is made of (`console.css` -> /<prefix>/console.<hash>.css). */
  name: string;
  type: string;
}

/** Reads one file into an Asset whose URL is under `prefix` (e.g. "/assets"). */
export function loadAsset(file: AssetFile, prefix = "/assets"): Asset {
  const body = readFileSync(file.from);
  const dot = file.name.lastIndexOf(".");
  return {
    url: `${prefix}/${hashedName(file.name.slice(0, dot), file.name.slice(dot + 1), body)}`,
    type: file.type,
    body,
    integrity: `sha384-${createHash("sha384").update(body).digest("base64")}`,
  };
}

/** GET (and HEAD) `<prefix>/:name` for exactly these assets; any other name is a 404. */
export function assetSetRoutes(router: Router, assets: readonly Asset[], prefix = "/assets"): void {
  const byUrl = new Map(assets.map((a) => [a.url, a]));
  router.get(`${prefix}/:name`, (ctx) => {
    sendAsset(ctx, byUrl.get(ctx.path));
  });
}
