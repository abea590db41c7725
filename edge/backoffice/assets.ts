/**
 * The console's static files, served by the console itself (no CDN): the
 * kit's stylesheet (fields, buttons, error summary, focus) under the
 * console's own, the console's script, and two vendor bundles from
 * node_modules: chart.js (the dashboard) and @simplewebauthn/browser
 * (passkeys). Each at a content-hashed URL with its SRI hash.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type Router from "@koa/router";
import { ASSETS } from "../pages/kit/assets.ts";
import { assetSetRoutes, loadAsset } from "../pages/kit/asset-set.ts";

const require = createRequire(import.meta.url);
const moduleFile = (specifier: string) => pathToFileURL(require.resolve(specifier));
const JS = "text/javascript; charset=utf-8";

export const CONSOLE_ASSETS = {
  kitCss: ASSETS.css,
  icon: ASSETS.icon,
  css: loadAsset({ from: new URL("./assets/console.css", import.meta.url), name: "console.css", type: "text/css; charset=utf-8" }),
  js: loadAsset({ from: new URL("./assets/console.js", import.meta.url), name: "console.js", type: JS }),
  // The packages export no subpath for their browser bundles: found next to their main entry.
  chart: loadAsset({ from: new URL("./chart.umd.min.js", moduleFile("chart.js")), name: "chart.js", type: JS }),
  webauthn: loadAsset({
    from: new URL("../dist/bundle/index.umd.min.js", moduleFile("@simplewebauthn/browser")),
    name: "webauthn.js",
    type: JS,
  }),
} as const;

/** GET /assets/<hashed name> for the console's files. */
export function consoleAssetRoutes(router: Router): void {
  assetSetRoutes(router, Object.values(CONSOLE_ASSETS));
}
