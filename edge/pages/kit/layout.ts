/**
 * The shell of every hosted page: language and direction on <html>, the
 * title, a skip link to the main landmark, the edge's stylesheet and script
 * with this response's nonce. The script is `defer`red and only enhances: the
 * page is complete without it.
 */
import { ASSETS, type Asset } from "./assets.ts";
import { type Html, html } from "./html.ts";
import type { Translator } from "./i18n.ts";

export interface Shell {
  tr: Translator;
  nonce: string;
  title: string;
  /** The page's own content, inside <main>. */
  body: Html;
  /** The exact origin of the parent window the script may post events to (framed pages only). */
  parentOrigin?: string;
  /** Seconds the page's session has left when it is sent: the script posts cashier:expired when they pass. */
  expiresIn?: number;
  /** More of the edge's own scripts (a face's enhancements), deferred, under the same nonce. */
  scripts?: readonly Asset[];
  /** Seconds after which a page without scripts reloads itself (a result that is not final yet). */
  refreshWithoutScript?: number;
  /**
   * An address the page sends the browser on to at once, scripts or not (a declarative refresh of 0 seconds): a
   * navigation of its own, so that a step of the journey reached by a form's redirect may lead to another site
   * without that site in the form's CSP form-action (the Cashier's way to an acquirer's 3-D Secure page).
   */
  goTo?: string;
  /**
   * A frontend's branding (edge/cashier/views/brand.ts): its name after the title and in a header above the page,
   * its custom properties in a <style> under the nonce, after the stylesheet they override.
   */
  brand?: { name: string; css: string; logo?: string };
}

export function layout(s: Shell): Html {
  return html`<!doctype html>
<html lang="${s.tr.locale}" dir="${s.tr.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">${s.goTo ? html`<meta http-equiv="refresh" content="0; url=${s.goTo}">` : ""}<title>${s.brand ? `${s.title} · ${s.brand.name}` : s.title}</title>
<link rel="icon" href="${ASSETS.icon.url}" type="image/svg+xml">
<link rel="stylesheet" href="${ASSETS.css.url}" integrity="${ASSETS.css.integrity}" nonce="${s.nonce}">${s.brand ? html`\n<style nonce="${s.nonce}">${s.brand.css}</style>` : ""}
<script src="${ASSETS.js.url}" integrity="${ASSETS.js.integrity}" nonce="${s.nonce}" defer></script>${(s.scripts ?? []).map(
    (a) => html`\n<script src="${a.url}" integrity="${a.integrity}" nonce="${s.nonce}" defer></script>`,
  )}${s.refreshWithoutScript ? html`\n<noscript><meta http-equiv="refresh" content="${s.refreshWithoutScript}"></noscript>` : ""}</head>
<body${s.parentOrigin ? html` data-parent-origin="${s.parentOrigin}"` : ""}${s.expiresIn !== undefined ? html` data-expires-in="${String(s.expiresIn)}"` : ""}><a class="skip-link" href="#main">${s.tr.t("kit.skip")}</a>${s.brand ? html`\n<header class="merchant-header">${s.brand.logo ? html`<img class="merchant-logo" src="${s.brand.logo}" alt="${s.brand.name}">` : html`<p class="merchant-name">${s.brand.name}</p>`}</header>` : ""}
<main id="main" tabindex="-1">${s.body}</main></body></html>
`;
}
