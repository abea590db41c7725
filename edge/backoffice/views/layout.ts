/**
 * The shell of every console page, on the kit: language and direction, a
 * skip link to <main>, the kit's stylesheet under the console's, scripts only
 * from the console itself under this response's nonce (deferred; pages work
 * without them where a form suffices). Signed in, a header names the
 * operator and offers the pages their role may open and a sign-out form.
 */
import { CONSOLE_ASSETS } from "../assets.ts";
import type { Asset } from "../../pages/kit/assets.ts";
import { hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";
import type { OperatorView, Section } from "./model.ts";

export interface ConsoleShell {
  tr: ConsoleTranslator;
  nonce: string;
  title: string;
  body: Html;
  /** The signed-in operator (absent on the sign-in and enrolment pages). */
  operator?: OperatorView;
  /** The CSRF token of this page's forms (the sign-out form among them). */
  csrf?: string;
  /** The section the page belongs to (marked aria-current in the header). */
  section?: Section;
  /** Vendor scripts the page needs (chart.js, the WebAuthn bundle), loaded before the console's. */
  scripts?: readonly ("chart" | "webauthn")[];
  /** The page's own CSS (the branding preview's colours), in a <style> under the nonce: no inline style attribute. */
  style?: string;
}

const SECTIONS: readonly { section: Section; href: string; label: ConsoleKey }[] = [
  { section: "dashboard", href: "/", label: "bo.nav.dashboard" },
  { section: "transactions", href: "/transactions", label: "bo.nav.transactions" },
  { section: "payouts", href: "/payouts", label: "bo.nav.payouts" },
  { section: "stuck", href: "/stuck", label: "bo.nav.stuck" },
  { section: "merchants", href: "/merchants", label: "bo.nav.merchants" },
  { section: "operators", href: "/operators", label: "bo.nav.operators" },
  { section: "audit", href: "/audit", label: "bo.nav.audit" },
];

function script(asset: Asset, nonce: string): Html {
  return html`<script src="${asset.url}" integrity="${asset.integrity}" nonce="${nonce}" defer></script>`;
}

function header(s: ConsoleShell, operator: OperatorView): Html {
  const { tr } = s;
  const links = SECTIONS.filter((x) => operator.sections.includes(x.section));
  return html`<header class="topbar">
<a class="brand" href="/">${tr.t("bo.product")}</a>
<nav aria-label="${tr.t("bo.nav.label")}"><ul>${links.map(
    (x) => html`<li><a href="${x.href}"${x.section === s.section ? html` aria-current="page"` : ""}>${tr.t(x.label)}</a></li>`,
  )}</ul></nav>
<form class="signout" method="post" action="/signout">
<a href="/account" id="whoami" class="whoami"${s.section === "account" ? html` aria-current="page"` : ""}>${tr.t("bo.whoami", { login: operator.login, role: tr.t(`bo.role.${operator.role}`) })}</a>
${hiddenFields({ [CSRF_FIELD]: s.csrf ?? "" })}<button type="submit" class="button secondary" id="signout">${tr.t("bo.signout")}</button>
</form>
</header>`;
}

export function consoleLayout(s: ConsoleShell): Html {
  const a = CONSOLE_ASSETS;
  return html`<!doctype html>
<html lang="${s.tr.locale}" dir="${s.tr.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${s.title} · ${s.tr.t("bo.product")}</title>
<link rel="icon" href="${a.icon.url}" type="image/svg+xml">
<link rel="stylesheet" href="${a.kitCss.url}" integrity="${a.kitCss.integrity}" nonce="${s.nonce}">
<link rel="stylesheet" href="${a.css.url}" integrity="${a.css.integrity}" nonce="${s.nonce}">
${
  s.style
    ? html`<style nonce="${s.nonce}">${s.style}</style>
`
    : ""
}${(s.scripts ?? []).map((name) => script(a[name], s.nonce))}${script(a.js, s.nonce)}</head>
<body class="${s.operator ? "console" : "gate"}"><a class="skip-link" href="#main">${s.tr.t("kit.skip")}</a>
${s.operator ? header(s, s.operator) : html`<header class="topbar"><span class="brand">${s.tr.t("bo.product")}</span></header>`}
<main id="main" tabindex="-1">${s.body}</main></body></html>
`;
}
