/**
 * The pages before the console: sign-in (password, then a second factor:
 * authenticator code, recovery code or passkey), enrolment from the one-time
 * link (password twice with its rules, the TOTP key as a QR code drawn on the
 * server and as text, a code to confirm), the recovery codes shown once, and
 * the offer of a passkey. Every form carries its CSRF token.
 */
import { button, errorSummary, type FieldError, field, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html, raw } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { consoleLayout } from "./layout.ts";
import type { Notice } from "./model.ts";

export interface GatePage {
  tr: ConsoleTranslator;
  nonce: string;
  csrf: string;
}

export function noticeBox(n: Notice | undefined): Html {
  if (!n) return html``;
  return n.kind === "error"
    ? html`<div class="notice error" role="alert" id="notice">${n.text}</div>`
    : html`<div class="notice ${n.kind}" role="status" id="notice">${n.text}</div>`;
}

export interface SignInView {
  login?: string;
  notice?: Notice;
}

export function signInPage(p: GatePage, v: SignInView): Html {
  const t = p.tr.t;
  return consoleLayout({
    tr: p.tr,
    nonce: p.nonce,
    title: t("bo.signin.title"),
    body: html`<h1>${t("bo.signin.title")}</h1>
${noticeBox(v.notice)}
<p>${t("bo.signin.intro")}</p>
<form method="post" action="/signin">
${hiddenFields({ [CSRF_FIELD]: p.csrf })}
${field({ name: "login", label: t("bo.signin.login"), value: v.login ?? "", autocomplete: "username", required: true, maxlength: 64 })}
${field({ name: "password", label: t("bo.signin.password"), type: "password", autocomplete: "current-password", required: true, maxlength: 1024 })}
<div class="actions">${button({ label: t("bo.signin.submit"), id: "signin" })}</div>
</form>`,
  });
}

export interface SecondStepView {
  login: string;
  /** The WebAuthn request options (JSON from the engine) when the operator has passkeys: the passkey section is offered. */
  passkeyOptions?: string;
  notice?: Notice;
  /** The field at fault (totp or recovery), so its error shows beside it. */
  errorField?: "totp" | "recovery";
}

export function secondStepPage(p: GatePage, v: SecondStepView): Html {
  const t = p.tr.t;
  const totpError = v.errorField === "totp" ? v.notice?.text : undefined;
  const recoveryError = v.errorField === "recovery" ? v.notice?.text : undefined;
  // The passkey options go round with the other forms, so a wrong code does not lose the passkey.
  const keep: Record<string, string> = { [CSRF_FIELD]: p.csrf, ...(v.passkeyOptions ? { passkey_options: v.passkeyOptions } : {}) };
  return consoleLayout({
    tr: p.tr,
    nonce: p.nonce,
    title: t("bo.second.title"),
    scripts: v.passkeyOptions ? ["webauthn"] : [],
    body: html`<h1>${t("bo.second.title")}</h1>
${v.errorField ? errorSummary(p.tr, [{ field: v.errorField, message: v.notice?.text ?? "" }]) : noticeBox(v.notice)}
<p>${t("bo.second.intro", { login: v.login })}</p>
${
  v.passkeyOptions
    ? html`<section class="passkey" aria-labelledby="passkey-heading" hidden data-passkey="signin">
<h2 id="passkey-heading">${t("bo.second.passkeyHeading")}</h2>
<form method="post" action="/signin/passkey" id="passkey-form">
${hiddenFields({ [CSRF_FIELD]: p.csrf, response: "" })}
<script type="application/json" id="passkey-options">${raw(jsonForScript(v.passkeyOptions))}</script>
<p class="passkey-error" id="passkey-error" role="alert" hidden>${t("bo.second.passkeyFailed")}</p>
${button({ label: t("bo.second.passkey"), id: "passkey", type: "button" })}
</form></section>`
    : ""
}
<form method="post" action="/signin/totp" class="stack">
${hiddenFields(keep)}
${field({ name: "totp", label: t("bo.second.totp"), hint: t("bo.second.totpHint"), error: totpError, autocomplete: "one-time-code", inputmode: "numeric", required: true, maxlength: 6, pattern: "[0-9]{6}" })}
<div class="actions">${button({ label: t("bo.second.totpSubmit"), id: "totp-submit" })}</div>
</form>
<details${recoveryError ? " open" : ""}><summary>${t("bo.second.recoveryHeading")}</summary>
<form method="post" action="/signin/recovery">
${hiddenFields(keep)}
${field({ name: "recovery", label: t("bo.second.recovery"), hint: t("bo.second.recoveryHint"), error: recoveryError, autocomplete: "off", required: true, maxlength: 64 })}
<div class="actions">${button({ label: t("bo.second.recoverySubmit"), id: "recovery-submit", variant: "secondary" })}</div>
</form></details>`,
  });
}

/**
 * JSON placed inside a <script type="application/json"> block: `<` is
 * escaped as \u003c so that no string in it can close the element, and the
 * block is never executed (the CSP would refuse it anyway: it has no nonce).
 */
export function jsonForScript(json: string): string {
  return json
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export interface EnrolPasswordView {
  login: string;
  /** The form's action (/enrol/<token>). */
  action: string;
  minLength: number;
  errors: readonly FieldError[];
}

/** Enrolment, step 1: the password, twice, with its rules shown before it is typed. */
export function enrolPasswordPage(p: GatePage, v: EnrolPasswordView): Html {
  const t = p.tr.t;
  const errorOf = (f: string) => v.errors.find((e) => e.field === f)?.message;
  return consoleLayout({
    tr: p.tr,
    nonce: p.nonce,
    title: t("bo.enrol.title"),
    body: html`<h1>${t("bo.enrol.title")}</h1>
${errorSummary(p.tr, v.errors)}
<p>${t("bo.enrol.intro", { login: v.login })}</p>
<form method="post" action="${v.action}" novalidate>
${hiddenFields({ [CSRF_FIELD]: p.csrf })}
<input type="text" name="username" value="${v.login}" autocomplete="username" hidden>
<h2>${t("bo.enrol.passwordHeading")}</h2>
<p class="rules" id="password-rules">${t("bo.enrol.rules", { min: v.minLength })}</p>
${field({ name: "password", label: t("bo.enrol.password"), hint: t("bo.enrol.rulesShort", { min: v.minLength }), type: "password", autocomplete: "new-password", required: true, error: errorOf("password"), maxlength: 256 })}
${field({ name: "password_again", label: t("bo.enrol.passwordAgain"), type: "password", autocomplete: "new-password", required: true, error: errorOf("password_again"), maxlength: 256 })}
<div class="actions">${button({ label: t("bo.enrol.next"), id: "enrol-password" })}</div>
</form>`,
  });
}

export interface EnrolTotpView {
  login: string;
  /** The form's action (/enrol/<token>/totp). */
  action: string;
  /** The QR code of the otpauth URI, an SVG drawn on the server. */
  qrSvg: string;
  /** The TOTP key in base32. */
  secret: string;
  errors: readonly FieldError[];
}

/** The base32 key in groups of four ("JBSW Y3DP EHPK 3PXP"). */
export function groupKey(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

/** Enrolment, step 2: the authenticator app, by QR code or typed key, confirmed with a code. */
export function enrolTotpPage(p: GatePage, v: EnrolTotpView): Html {
  const t = p.tr.t;
  return consoleLayout({
    tr: p.tr,
    nonce: p.nonce,
    title: t("bo.enrol.title"),
    body: html`<h1>${t("bo.enrol.title")}</h1>
${errorSummary(p.tr, v.errors)}
<h2>${t("bo.enrol.totpHeading")}</h2>
<p>${t("bo.enrol.totpIntro")}</p>
<div class="qr" role="img" aria-label="${t("bo.enrol.qr", { login: v.login })}">${raw(v.qrSvg)}</div>
<p>${t("bo.enrol.key")}: <code class="secret" id="secret" dir="ltr">${groupKey(v.secret)}</code></p>
<form method="post" action="${v.action}" novalidate>
${hiddenFields({ [CSRF_FIELD]: p.csrf })}
${field({ name: "code", label: t("bo.enrol.code"), hint: t("bo.enrol.codeHint"), autocomplete: "one-time-code", inputmode: "numeric", required: true, maxlength: 6, pattern: "[0-9]{6}", error: v.errors.find((e) => e.field === "code")?.message })}
<div class="actions">${button({ label: t("bo.enrol.submit"), id: "enrol-totp" })}</div>
</form>`,
  });
}

export interface RecoveryView {
  codes: readonly string[];
  /** WebAuthn creation options (JSON from the engine), when passkeys can be added. */
  passkeyOptions?: string;
}

/** Shown once, right after enrolment; then the optional passkey. */
export function recoveryCodesPage(p: GatePage, v: RecoveryView): Html {
  const t = p.tr.t;
  return consoleLayout({
    tr: p.tr,
    nonce: p.nonce,
    title: t("bo.recovery.title"),
    scripts: v.passkeyOptions ? ["webauthn"] : [],
    body: html`<h1>${t("bo.recovery.title")}</h1>
<p>${t("bo.recovery.intro")}</p>
<ol class="codes" id="recovery-codes" aria-label="${t("bo.recovery.list")}">${v.codes.map((c) => html`<li><code dir="ltr">${c}</code></li>`)}</ol>
${v.passkeyOptions ? passkeyRegistration(p, v.passkeyOptions) : ""}
<p><a class="button primary" id="continue" href="/">${t("bo.recovery.continue")}</a></p>`,
  });
}

/** The optional passkey: a script-driven button; without a script, the page says so. */
export function passkeyRegistration(p: GatePage, optionsJson: string): Html {
  const t = p.tr.t;
  return html`<section class="passkey" aria-labelledby="add-passkey-heading" data-passkey="register">
<h2 id="add-passkey-heading">${t("bo.passkey.heading")}</h2>
<p>${t("bo.passkey.intro")}</p>
<form method="post" action="/account/passkeys" id="passkey-form">
${hiddenFields({ [CSRF_FIELD]: p.csrf, response: "" })}
<script type="application/json" id="passkey-options">${raw(jsonForScript(optionsJson))}</script>
<p class="passkey-error" id="passkey-error" role="alert" hidden>${t("bo.passkey.failed")}</p>
<p class="no-script-only">${t("bo.passkey.needsScript")}</p>
${button({ label: t("bo.passkey.add"), id: "passkey", type: "button", variant: "secondary" })}
</form></section>`;
}

export interface MessagePageView {
  title: string;
  body: string;
  /** A link onwards (sign-in, back). */
  link?: { href: string; label: string };
}

/** A page that only says something (a used enrolment link, a refusal). */
export function messagePage(
  p: Omit<GatePage, "csrf"> & { csrf?: string; operator?: Parameters<typeof consoleLayout>[0]["operator"] },
  v: MessagePageView,
): Html {
  return consoleLayout({
    tr: p.tr,
    nonce: p.nonce,
    csrf: p.csrf,
    operator: p.operator,
    title: v.title,
    body: html`<h1>${v.title}</h1><p>${v.body}</p>${v.link ? html`<p><a href="${v.link.href}" id="onwards">${v.link.label}</a></p>` : ""}`,
  });
}
