/**
 * `GET /cashier.js`: the embed script a platform loads from its own page
 * (CONTRACT 12) to frame the hosted Cashier or the payment fields. Its
 * address is fixed (the platform writes it once into its page), so it cannot
 * be immutable as the pages' hashed assets are: browsers keep it an hour and
 * then ask again with its ETag. Served with CORS and a cross-origin resource
 * policy, so that a platform may pin it with Subresource Integrity
 * (`integrity` + `crossorigin="anonymous"`); the hash to pin is sent in
 * `Cashier-Script-Integrity` and changes only when the script does.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type Router from "@koa/router";

/** The path platforms load the script from. */
export const EMBED_SCRIPT_PATH = "/cashier.js";

/** An hour in browsers and shared caches: a fix reaches every shop within it. */
export const EMBED_CACHE_CONTROL = "public, max-age=3600";

/** The script as served: its bytes, its SHA-384 for Subresource Integrity, its ETag. */
export interface EmbedScript {
  body: Buffer;
  integrity: string;
  etag: string;
}

/** Reads the script once at start. */
export function loadEmbedScript(): EmbedScript {
  const body = readFileSync(new URL("./assets/cashier-embed.js", import.meta.url));
  const digest = createHash("sha384").update(body).digest();
  return { body, integrity: `sha384-${digest.toString("base64")}`, etag: `"${digest.subarray(0, 12).toString("base64url")}"` };
}

/** GET (and HEAD) /cashier.js; a request with the current ETag gets 304. */
export function embedScriptRoutes(router: Router, script: EmbedScript = loadEmbedScript()): void {
  router.get(EMBED_SCRIPT_PATH, (ctx) => {
    ctx.set({
      "Content-Type": "application/javascript; charset=utf-8",
      "Cache-Control": EMBED_CACHE_CONTROL,
      ETag: script.etag,
      "Cashier-Script-Integrity": script.integrity,
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Expose-Headers": "Cashier-Script-Integrity",
      "Cross-Origin-Resource-Policy": "cross-origin",
      "X-Content-Type-Options": "nosniff",
    });
    if (ctx.get("If-None-Match") === script.etag) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    ctx.body = script.body;
  });
}
