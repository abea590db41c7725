/**
 * A merchant's processor accounts: the table on the merchant's page (connector, endpoint, which credentials are
 * set, never a value), the admin's way in to add one (the connector first, since it decides the form), and the
 * account's own form: its URL, its settings one field each (the ones the connector requires, the ones the account
 * holds, and free name/value pairs for the rest), and one password field per credential the connector takes, empty
 * always: blank keeps the stored value, typed replaces it. Faults come back beside the field the engine named.
 */
import type { Connector } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import type { ProcessorAccount } from "../../../gen/cashier/admin/v1/processor_account_pb.js";
import { button, type FieldError, field, hiddenFields, pathButton } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { dataTable, selectField } from "./controls.ts";
import { text, when } from "./format.ts";
import { noticeBox } from "./gate.ts";
import type { Notice } from "./model.ts";

/** How many blank name/value pairs the form offers for settings it does not list. */
export const EXTRA_SETTINGS = 3;

const merchantPath = (merchantId: string) => `/merchants/${encodeURIComponent(merchantId)}`;

/** The accounts on the merchant's page; for admins, an edit link per account and the form that starts a new one. */
export function accountsSection(
  tr: ConsoleTranslator,
  v: { merchantId: string; accounts: readonly ProcessorAccount[]; connectors: readonly Connector[]; canUpdate: boolean },
): Html {
  const t = tr.t;
  const path = merchantPath(v.merchantId);
  const head = [
    t("bo.pa.name"),
    t("bo.pa.connector"),
    t("bo.merchant.endpoint"),
    t("bo.merchant.enabled"),
    t("bo.pa.credentialsSet"),
    t("bo.merchant.updated"),
  ];
  return html`<h2 id="accounts">${t("bo.merchant.accounts")}</h2>
${dataTable({
  id: "accounts-table",
  caption: t("bo.merchant.accountsCaption"),
  head: v.canUpdate ? [...head, t("bo.pa.actions")] : head,
  rows: v.accounts.map(
    (a) =>
      html`<tr><td>${a.processor}</td><td>${a.connector}</td><td><bdi dir="ltr">${text(a.endpointUrl)}</bdi></td><td>${a.enabled ? t("bo.yes") : t("bo.no")}</td><td>${
        a.credentialsSet.length ? a.credentialsSet.join(", ") : t("bo.pa.noneSet")
      }</td><td>${when(tr, a.updateTime)}</td>${
        v.canUpdate
          ? html`<td><a href="${path}/accounts/${encodeURIComponent(a.processor)}" aria-label="${t("bo.pa.editNamed", { name: a.processor })}">${t("bo.pa.edit")}</a></td>`
          : ""
      }</tr>`,
  ),
  empty: t("bo.merchant.noAccounts"),
})}
<p><a href="${path}/routing" id="routing-link">${t("bo.routing.link")}</a></p>
<p><a href="${path}/risk" id="risk-link">${t("bo.risk.link")}</a></p>
${
  v.canUpdate
    ? html`<form method="get" action="${path}/new-account" class="inline-form">
${selectField({ name: "connector", id: "new-account-connector", label: t("bo.pa.addAt"), options: v.connectors.map((c) => ({ value: c.name, label: c.name })) })}
<div class="actions">${button({ label: t("bo.pa.continue"), id: "add-account", variant: "secondary" })}</div></form>`
    : ""
}`;
}

/** The account form's values as the admin typed them (or as stored), never a credential. */
export interface AccountFormValues {
  name: string;
  url: string;
  enabled: boolean;
  /** Setting name (dotted for nested: payout_sender.city) -> value. */
  settings: readonly (readonly [string, string])[];
}

export interface AccountPageView {
  merchantId: string;
  connector: Connector;
  /** The stored account; undefined for a new one. */
  account?: ProcessorAccount;
  values: AccountFormValues;
  errors: readonly FieldError[];
  csrf: string;
  notice?: Notice;
}

/** A setting's input id: what a refusal naming account.settings.<name> points at. */
export const settingId = (name: string) => `setting-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
/** A credential's input id: what a refusal naming credentials.<name> points at. */
export const credentialId = (name: string) => `credential-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;

/** The add or edit page of one account. */
export function accountPage(tr: ConsoleTranslator, v: AccountPageView): Html {
  const t = tr.t;
  const path = merchantPath(v.merchantId);
  const c = v.connector;
  const errorOf = (id: string) => v.errors.find((e) => e.field === id)?.message;
  const listed = new Set(v.values.settings.map(([k]) => k));
  const settings: (readonly [string, string])[] = [...c.requiredSettings.filter((s) => !listed.has(s)).map((s) => [s, ""] as const), ...v.values.settings];
  const action = v.account ? `${path}/accounts/${encodeURIComponent(v.account.processor)}` : `${path}/accounts`;
  return html`<p><a href="${path}#accounts">${t("bo.pa.back", { merchant: v.merchantId })}</a></p>
<h1>${v.account ? t("bo.pa.editTitle", { name: v.account.processor }) : t("bo.pa.newTitle", { connector: c.name })}</h1>
${noticeBox(v.notice)}
<p>${t("bo.pa.capabilities", { connector: c.name, capabilities: c.capabilities.join(", ") })}</p>
<form method="post" action="${action}" id="account-form">
${hiddenFields({ [CSRF_FIELD]: v.csrf, connector: c.name })}
${
  v.account
    ? hiddenFields({ name: v.account.processor })
    : field({
        name: "name",
        id: "account-name",
        label: t("bo.pa.name"),
        hint: t("bo.pa.nameHint"),
        value: v.values.name,
        required: true,
        maxlength: 64,
        autocomplete: "off",
        error: errorOf("account-name"),
      })
}
${field({ name: "url", id: "account-url", label: t("bo.pa.url"), hint: t("bo.pa.urlHint"), value: v.values.url, required: true, maxlength: 2048, error: errorOf("account-url") })}
<div class="field check"><input type="checkbox" id="account-enabled" name="enabled" value="1"${v.values.enabled ? html` checked` : ""}> <label for="account-enabled">${t("bo.pa.enabled")}</label></div>
<fieldset><legend>${t("bo.pa.settings")}</legend>
<p class="hint">${t("bo.pa.settingsHint")}</p>
${settings.map(([name, value]) =>
  field({
    name: `setting:${name}`,
    id: settingId(name),
    label: name,
    hint: c.requiredSettings.includes(name) ? t("bo.pa.required") : t("bo.pa.blankRemoves"),
    value,
    maxlength: 512,
    error: errorOf(settingId(name)),
  }),
)}
${Array.from(
  { length: EXTRA_SETTINGS },
  (_, i) => html`<div class="pair">
${field({ name: `extra_name_${i + 1}`, id: `extra-name-${i + 1}`, label: t("bo.pa.extraName", { n: i + 1 }), maxlength: 128, autocomplete: "off" })}
${field({ name: `extra_value_${i + 1}`, id: `extra-value-${i + 1}`, label: t("bo.pa.extraValue", { n: i + 1 }), maxlength: 512, autocomplete: "off" })}
</div>`,
)}
</fieldset>
<fieldset><legend>${t("bo.pa.credentials")}</legend>
<p class="hint">${t("bo.pa.credentialsHint")}</p>
${c.credentials.map((name) => {
  const set = v.account?.connector === c.name && v.account.credentialsSet.includes(name);
  return field({
    name: `credential:${name}`,
    id: credentialId(name),
    label: name,
    hint: set ? t("bo.pa.credentialSet") : t("bo.pa.credentialMissing"),
    type: "password",
    autocomplete: "new-password",
    maxlength: 512,
    error: errorOf(credentialId(name)),
  });
})}
${c.optionalCredentials.map((name) => {
  const set = v.account?.connector === c.name && v.account.credentialsSet.includes(name);
  return html`${field({
    name: `credential:${name}`,
    id: credentialId(name),
    label: name,
    hint: set ? t("bo.pa.credentialSet") : t("bo.pa.credentialOptional"),
    type: "password",
    autocomplete: "new-password",
    maxlength: 512,
    error: errorOf(credentialId(name)),
  })}${
    set
      ? html`<div class="field check"><input type="checkbox" id="${credentialId(name)}-remove" name="remove_credential" value="${name}"> <label for="${credentialId(name)}-remove">${t("bo.pa.credentialRemove", { name })}</label></div>`
      : ""
  }`;
})}
</fieldset>
<div class="actions">${button({ label: v.account ? t("bo.pa.save") : t("bo.pa.add"), id: "save-account" })}</div>
</form>
${
  v.account
    ? html`<h2>${t("bo.pa.removeHeading")}</h2>
<p>${t("bo.pa.removeIntro")}</p>
<form method="post" action="${path}/accounts/${encodeURIComponent(v.account.processor)}/delete">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
<div class="actions">${button({ label: t("bo.pa.remove", { name: v.account.processor }), id: "remove-account", variant: "danger" })}</div></form>`
    : ""
}
<p>${pathButton(t("bo.pa.cancel"), `${path}#accounts`, "cancel-account", "secondary")}</p>`;
}
