/**
 * The admin's pages: operators (list, create with a one-time enrolment link
 * shown once, role and scope changes, disable, reset) and the audit log
 * (filters, pages, CSV export, the hash chain's check); and every operator's
 * own account page (password, passkeys).
 */
import type { AuditEntry } from "../../../gen/cashier/admin/v1/audit_pb.js";
import { AuditOutcome } from "../../../gen/cashier/admin/v1/audit_pb.js";
import type { Passkey } from "../../../gen/cashier/admin/v1/console_auth_service_pb.js";
import type { VerifyAuditChainResponse } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { type Operator, OperatorRole, OperatorState } from "../../../gen/cashier/admin/v1/operator_pb.js";
import { button, errorSummary, type FieldError, field, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";
import { dataTable, inputField, selectField } from "./controls.ts";
import { shortWhen, text, when } from "./format.ts";
import { noticeBox, passkeyRegistration } from "./gate.ts";
import type { Notice } from "./model.ts";
import { pendingChange } from "./pending-change.ts";

export const ROLE_NAMES: Readonly<Record<number, string>> = {
  [OperatorRole.VIEWER]: "viewer",
  [OperatorRole.SUPPORT]: "support",
  [OperatorRole.PAYOUTS]: "payouts",
  [OperatorRole.ADMIN]: "admin",
};

const STATE_KEYS: Readonly<Record<number, ConsoleKey>> = {
  [OperatorState.PROPOSED]: "bo.op.proposed",
  [OperatorState.ENROLLING]: "bo.op.enrolling",
  [OperatorState.ACTIVE]: "bo.op.active",
  [OperatorState.DISABLED]: "bo.op.disabled",
};

const roleLabel = (tr: ConsoleTranslator, r: OperatorRole) => tr.t(`bo.role.${ROLE_NAMES[r] ?? "viewer"}` as ConsoleKey);
const roleOptions = (tr: ConsoleTranslator) => Object.entries(ROLE_NAMES).map(([, n]) => ({ value: n, label: tr.t(`bo.role.${n}` as ConsoleKey) }));

export interface OperatorsView {
  operators: readonly Operator[];
  canManage: boolean;
  self: string;
  csrf: string;
  notice?: Notice;
  /** A new enrolment link, shown once after create or reset; `proposed`: it works once a second admin confirms. */
  link?: { login: string; url: string; proposed?: boolean };
}

export function operatorsPage(tr: ConsoleTranslator, v: OperatorsView): Html {
  const t = tr.t;
  const csrf = hiddenFields({ [CSRF_FIELD]: v.csrf });
  return html`<h1>${t("bo.nav.operators")}</h1>
${noticeBox(v.notice)}
${
  v.link
    ? html`<div class="notice success" role="status" id="enrolment-link"><p>${t(v.link.proposed ? "bo.op.linkProposed" : "bo.op.linkIntro", { login: v.link.login })}</p><p><code dir="ltr">${v.link.url}</code></p></div>`
    : ""
}
${dataTable({
  id: "operators",
  caption: t("bo.op.caption"),
  head: [
    t("bo.signin.login"),
    t("bo.op.role"),
    t("bo.op.merchants"),
    t("bo.op.state"),
    t("bo.op.lastSignIn"),
    t("bo.op.locked"),
    t("bo.op.passkeys"),
    t("bo.op.recovery"),
    ...(v.canManage ? [t("bo.op.actions")] : []),
  ],
  rows: v.operators.map(
    (o) =>
      html`<tr><td>${o.login}</td><td>${roleLabel(tr, o.role)}</td><td>${o.merchantIds.length ? o.merchantIds.join(", ") : t("bo.op.allMerchants")}</td><td>${t(STATE_KEYS[o.state] ?? "bo.op.active")}${pendingChange(tr, o, { self: v.self, csrf: v.csrf, canManage: v.canManage, roleNames: ROLE_NAMES })}</td>
<td>${when(tr, o.lastSignInTime)}</td><td>${o.lockedUntilTime ? when(tr, o.lockedUntilTime) : text("")}</td><td class="num">${o.passkeyCount}</td><td class="num">${o.recoveryCodesLeft}</td>${
        v.canManage
          ? html`<td>${
              o.login === v.self
                ? html`<span class="muted">${t("bo.op.you")}</span>`
                : html`<details><summary>${t("bo.op.change", { login: o.login })}</summary>
<form method="post" action="/operators/${o.login}/role">${csrf}
${selectField({ name: "role", id: `role-${o.login}`, label: t("bo.op.role"), options: roleOptions(tr), value: ROLE_NAMES[o.role] })}
${inputField({ name: "merchants", id: `merchants-${o.login}`, label: t("bo.op.merchants"), hint: t("bo.op.merchantsHint"), value: o.merchantIds.join(", ") })}
${button({ label: t("bo.op.saveRole"), id: `save-${o.login}`, variant: "secondary" })}</form>
<div class="inline-actions">
<form method="post" action="/operators/${o.login}/reset">${csrf}${button({ label: t("bo.op.reset"), id: `reset-${o.login}`, variant: "secondary" })}</form>
${
  o.state !== OperatorState.DISABLED
    ? html`<form method="post" action="/operators/${o.login}/disable">${csrf}${button({ label: t("bo.op.disable"), id: `disable-${o.login}`, variant: "danger" })}</form>`
    : ""
}</div></details>`
            }</td>`
          : ""
      }</tr>`,
  ),
  empty: t("bo.op.none"),
  numeric: [6, 7],
})}
${
  v.canManage
    ? html`<h2 id="create-heading">${t("bo.op.create")}</h2>
<form method="post" action="/operators" class="filters" aria-labelledby="create-heading">${csrf}
${inputField({ name: "login", id: "new-login", label: t("bo.signin.login"), hint: t("bo.op.loginHint"), maxlength: 64, required: true })}
${selectField({ name: "role", id: "new-role", label: t("bo.op.role"), options: roleOptions(tr), value: "viewer" })}
${inputField({ name: "merchants", id: "new-merchants", label: t("bo.op.merchants"), hint: t("bo.op.merchantsHint") })}
<div class="actions">${button({ label: t("bo.op.createSubmit"), id: "create-operator" })}</div></form>`
    : ""
}`;
}

export interface AuditFilter {
  actor: string;
  action: string;
  merchant_id: string;
  from: string;
  to: string;
}

export const AUDIT_FIELDS: readonly (keyof AuditFilter)[] = ["actor", "action", "merchant_id", "from", "to"];

export function auditQuery(f: AuditFilter, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const k of AUDIT_FIELDS) if (f[k]) q.set(k, f[k]);
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

function changes(tr: ConsoleTranslator, e: AuditEntry): Html {
  if (!e.beforeJson && !e.afterJson) return text("");
  return html`${e.beforeJson ? html`<span class="visually-hidden">${tr.t("bo.audit.before")}</span><pre dir="ltr" tabindex="0">${e.beforeJson}</pre>` : ""}${
    e.afterJson ? html`<span class="visually-hidden">${tr.t("bo.audit.after")}</span><pre dir="ltr" tabindex="0">${e.afterJson}</pre>` : ""
  }`;
}

export interface AuditView {
  filter: AuditFilter;
  entries: readonly AuditEntry[];
  nextPageToken: string;
  paged: boolean;
  canExport: boolean;
  verified?: VerifyAuditChainResponse;
  /** Filters not understood, named. */
  notice?: Notice;
}

export function auditPage(tr: ConsoleTranslator, v: AuditView): Html {
  const t = tr.t;
  const f = v.filter;
  const check = v.verified;
  return html`<h1>${t("bo.nav.audit")}</h1>
${
  check
    ? check.intact
      ? html`<div class="notice success" role="status" id="chain">${t("bo.audit.intact", { rows: Number(check.rowsChecked) })}</div>`
      : html`<div class="notice error" role="alert" id="chain">${t("bo.audit.broken", { id: Number(check.firstBrokenId), problem: check.problem })}</div>`
    : ""
}
${noticeBox(v.notice)}
<form method="get" action="/audit" class="filters compact" role="search" aria-label="${t("bo.audit.search")}">
${inputField({ name: "actor", label: t("bo.audit.actor"), value: f.actor, maxlength: 128 })}
${inputField({ name: "action", label: t("bo.audit.action"), value: f.action, hint: t("bo.audit.actionHint"), maxlength: 64 })}
${inputField({ name: "merchant_id", id: "audit-merchant", label: t("bo.tx.merchant"), value: f.merchant_id, maxlength: 64 })}
${inputField({ name: "from", id: "audit-from", label: t("bo.search.from"), type: "date", value: f.from })}
${inputField({ name: "to", id: "audit-to", label: t("bo.search.to"), type: "date", value: f.to })}
<div class="actions">${button({ label: t("bo.search.submit"), id: "audit-search" })}</div>
</form>
<div class="pager">${v.canExport ? html`<a href="/audit.csv${auditQuery(f)}" id="audit-export" download>${t("bo.audit.export")}</a>` : ""}<a href="/audit${auditQuery(f, { verify: "1" })}" id="verify">${t("bo.audit.verify")}</a></div>
${dataTable({
  id: "audit",
  caption: t("bo.audit.caption"),
  head: [
    "#",
    t("bo.cb.time"),
    t("bo.audit.actor"),
    t("bo.audit.action"),
    t("bo.audit.outcome"),
    t("bo.tx.merchant"),
    t("bo.audit.target"),
    t("bo.audit.details"),
  ],
  // One line per event; its address, before/after and detail on demand.
  rows: v.entries.map(
    (e) =>
      html`<tr><td class="num">${e.id.toString()}</td><td>${shortWhen(tr, e.time)}</td><td><bdi class="clip" title="${e.actor}">${e.actor}</bdi></td><td><code>${e.action}</code></td><td>${
        e.outcome === AuditOutcome.FAILURE
          ? html`<span class="status bad">${t("bo.audit.failure")}</span>`
          : html`<span class="status good">${t("bo.audit.success")}</span>`
      }</td><td>${text(e.merchantId)}</td><td>${e.target ? html`<bdi class="clip" title="${e.target}">${e.target}</bdi>` : text("")}</td><td class="row-details"><details><summary>${t("bo.audit.details")}<span class="visually-hidden"> #${e.id.toString()}</span></summary><dl class="audit-detail"><dt>${t("bo.cb.time")}</dt><dd>${when(tr, e.time)}</dd><dt>${t("bo.audit.address")}</dt><dd><bdi dir="ltr">${text(e.clientAddress)}</bdi></dd><dt>${t("bo.audit.changes")}</dt><dd>${changes(tr, e)}</dd><dt>${t("bo.audit.detail")}</dt><dd>${text(e.detail)}</dd></dl></details></td></tr>`,
  ),
  empty: t("bo.audit.none"),
  numeric: [0],
})}
<nav class="pager" aria-label="${t("bo.search.pages")}">${v.paged ? html`<a href="/audit${auditQuery(f)}">${t("bo.search.first")}</a>` : ""}${
    v.nextPageToken ? html`<a href="/audit${auditQuery(f, { page_token: v.nextPageToken })}" id="audit-next">${t("bo.search.next")}</a>` : ""
  }</nav>`;
}

export interface AccountView {
  login: string;
  role: string;
  passkeys: readonly Passkey[];
  /** Creation options for a new passkey, when the engine offers them. */
  passkeyOptions?: string;
  csrf: string;
  nonce: string;
  notice?: Notice;
  /** The password form's faults, when it came back refused. */
  passwordErrors?: readonly FieldError[];
  minPasswordLength: number;
}

export function accountPage(tr: ConsoleTranslator, v: AccountView): Html {
  const t = tr.t;
  const errors = v.passwordErrors ?? [];
  const errorOf = (f: string) => errors.find((e) => e.field === f)?.message;
  return html`<h1>${t("bo.account.title")}</h1>
${errorSummary(tr, errors)}
${noticeBox(v.notice)}
<dl class="summary"><dt>${t("bo.signin.login")}</dt><dd>${v.login}</dd><dt>${t("bo.op.role")}</dt><dd>${v.role}</dd></dl>
<h2 id="password-heading">${t("bo.password.heading")}</h2>
<form method="post" action="/account/password" novalidate aria-labelledby="password-heading">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
<input type="text" name="username" value="${v.login}" autocomplete="username" hidden>
<p class="rules">${t("bo.password.intro", { min: v.minPasswordLength })}</p>
${field({ name: "current_password", label: t("bo.password.current"), type: "password", autocomplete: "current-password", required: true, error: errorOf("current_password"), maxlength: 256 })}
${field({ name: "new_password", label: t("bo.password.new"), hint: t("bo.enrol.rulesShort", { min: v.minPasswordLength }), type: "password", autocomplete: "new-password", required: true, error: errorOf("new_password"), maxlength: 256 })}
${field({ name: "new_password_again", label: t("bo.enrol.passwordAgain"), type: "password", autocomplete: "new-password", required: true, error: errorOf("new_password_again"), maxlength: 256 })}
<div class="actions">${button({ label: t("bo.password.submit"), id: "change-password" })}</div>
</form>
<h2>${t("bo.account.passkeys", { count: v.passkeys.length })}</h2>
${dataTable({
  id: "passkeys",
  caption: t("bo.account.passkeysCaption"),
  head: [t("bo.account.name"), t("bo.account.added"), t("bo.account.lastUsed"), html`<span class="visually-hidden">${t("bo.op.actions")}</span>`],
  rows: v.passkeys.map(
    (p) =>
      html`<tr><td>${p.name}</td><td>${when(tr, p.createTime)}</td><td>${when(tr, p.lastUsedTime)}</td><td><form method="post" action="/account/passkeys/delete">${hiddenFields(
        {
          [CSRF_FIELD]: v.csrf,
          id: p.id,
        },
      )}${button({ label: t("bo.account.remove", { name: p.name }), variant: "danger" })}</form></td></tr>`,
  ),
  empty: t("bo.account.noPasskeys"),
})}
${v.passkeyOptions ? passkeyRegistration({ tr, nonce: v.nonce, csrf: v.csrf }, v.passkeyOptions) : ""}`;
}
