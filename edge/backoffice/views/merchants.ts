/**
 * Merchants and their frontends: the settings as stored (never a secret or a
 * processor credential), the hosted Cashier's settings per frontend, the
 * four-eyes amounts, and for admins the forms that change them and rotate the
 * merchant's secret (the new secret is typed, never shown back; the page says
 * until when the old one still works).
 */
import type { Merchant, Frontend } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { wireAmountToMinor } from "../../wire/amount.ts";
import { PayoutApproval } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import type { ProcessorAccount } from "../../../gen/cashier/admin/v1/processor_account_pb.js";
import type { Connector } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { accountsSection } from "./processor-accounts.ts";
import type { Money } from "../../../gen/cashier/engine/v1/money_pb.js";
import { button, field, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { majorString } from "../../pages/kit/i18n.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import { currencyExponent } from "../../../engine/shared/money.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { dataTable, inputField, selectField, textArea } from "./controls.ts";
import { money, text, when } from "./format.ts";
import { noticeBox } from "./gate.ts";
import type { Notice } from "./model.ts";

export function merchantsPage(tr: ConsoleTranslator, merchants: readonly Merchant[], nextPageToken: string): Html {
  const t = tr.t;
  return html`<h1>${t("bo.nav.merchants")}</h1>
${dataTable({
  id: "merchants",
  caption: t("bo.merchant.listCaption"),
  head: [t("bo.tx.merchant"), t("bo.merchant.site"), t("bo.merchant.approval"), t("bo.merchant.processors"), t("bo.merchant.frontends")],
  rows: merchants.map(
    (m) =>
      html`<tr><td><a href="/merchants/${encodeURIComponent(m.merchantId)}">${m.merchantId}</a></td><td>${m.siteId}</td><td>${approvalName(tr, m.payoutApproval)}</td><td>${m.processors.join(", ")}</td><td>${m.frontends.map((f) => f.name).join(", ")}</td></tr>`,
  ),
  empty: t("bo.merchant.none"),
})}
${nextPageToken ? html`<nav class="pager" aria-label="${t("bo.search.pages")}"><a href="/merchants?page_token=${encodeURIComponent(nextPageToken)}">${t("bo.search.next")}</a></nav>` : ""}`;
}

function approvalName(tr: ConsoleTranslator, a: PayoutApproval): string {
  return a === PayoutApproval.MANUAL ? tr.t("bo.merchant.manual") : tr.t("bo.merchant.auto");
}

const yesNo = (tr: ConsoleTranslator, v: boolean | undefined) => (v ? tr.t("bo.yes") : tr.t("bo.no"));

/** An amount in minor units as a plain decimal for a form field ("1500.00"). */
export function amountInput(m: Money): string {
  return majorString(m.amountMinor, currencyExponent(m.currency) ?? 2);
}

export interface MerchantView {
  merchant: Merchant;
  accounts: readonly ProcessorAccount[];
  /** The connectors an account may use (the engine's list), for the admin's "add an account". */
  connectors: readonly Connector[];
  fourEyes: readonly Money[];
  canUpdate: boolean;
  canRotate: boolean;
  /** The role may take a card payment by phone (transaction.moto): the page links the Virtual Terminal. */
  canMoto?: boolean;
  csrf: string;
  notice?: Notice;
}

/** A frontend limit, kept in the merchant interface's unit (cents; whole units for JPY, BHD, ...), as money. */
function limitText(tr: ConsoleTranslator, wire: bigint | undefined, currency: string): string {
  if (wire === undefined) return "–";
  const minor = wireAmountToMinor(Number(wire), currency);
  return minor.ok ? tr.amount(minor.minor, currency) : String(wire);
}

function frontendSection(tr: ConsoleTranslator, m: Merchant, f: Frontend, v: MerchantView): Html {
  const t = tr.t;
  const id = `frontend-${f.name}`;
  return html`<section class="card" aria-labelledby="${id}">
<h3 id="${id}">${f.name}</h3>
<dl>
<dt>${t("bo.merchant.currencies")}</dt><dd>${f.baseCurrency} (${f.currencies.join(", ")})</dd>
<dt>${t("bo.merchant.origins")}</dt><dd>${f.allowedOrigins.length ? f.allowedOrigins.map((o) => html`<bdi dir="ltr">${o}</bdi> `) : text("")}</dd>
<dt>${t("bo.merchant.presets")}</dt><dd>${f.depositPresets.join(", ") || text("")}</dd>
<dt>${t("bo.merchant.limits")}</dt><dd>${
    f.limits.length
      ? f.limits.map(
          (l) =>
            html`${l.currency}: ${t("bo.merchant.depositRange", { min: limitText(tr, l.depositMin, l.currency), max: limitText(tr, l.depositMax, l.currency) })}; ${t("bo.merchant.withdrawalRange", { min: limitText(tr, l.withdrawalMin, l.currency), max: limitText(tr, l.withdrawalMax, l.currency) })}. `,
        )
      : text("")
  }</dd>
<dt>${t("bo.merchant.locale")}</dt><dd>${f.defaultLocale ?? "en"}</dd>
<dt>${t("bo.merchant.saveCards")}</dt><dd>${yesNo(tr, f.saveCards)}</dd>
<dt>${t("bo.merchant.closedLoop")}</dt><dd>${yesNo(tr, f.closedLoopWithdrawals)}</dd>
<dt>${t("bo.merchant.playerCancel")}</dt><dd>${yesNo(tr, f.playerCancelWithdrawal)}</dd>
</dl>
<p><a href="/merchants/${encodeURIComponent(m.merchantId)}/frontends/${encodeURIComponent(f.name)}" id="${id}-amounts">${t(v.canUpdate ? "bo.fe.link" : "bo.fe.linkRead", { name: f.name })}</a></p>
${
  v.canUpdate
    ? html`<details><summary>${t("bo.merchant.editFrontend", { name: f.name })}</summary>
<form method="post" action="/merchants/${encodeURIComponent(m.merchantId)}/frontends/${encodeURIComponent(f.name)}">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
${textArea({ name: "allowed_origins", id: `${id}-origins`, label: t("bo.merchant.origins"), hint: t("bo.merchant.originsHint"), value: f.allowedOrigins.join("\n") })}
${inputField({ name: "default_locale", id: `${id}-locale`, label: t("bo.merchant.locale"), value: f.defaultLocale ?? "en", maxlength: 35 })}
${checkbox(`${id}-save`, "save_cards", t("bo.merchant.saveCards"), f.saveCards ?? true)}
${checkbox(`${id}-closed`, "closed_loop_withdrawals", t("bo.merchant.closedLoop"), f.closedLoopWithdrawals ?? true)}
${checkbox(`${id}-cancel`, "player_cancel_withdrawal", t("bo.merchant.playerCancel"), f.playerCancelWithdrawal ?? false)}
<div class="actions">${button({ label: t("bo.merchant.saveFrontend"), id: `${id}-submit` })}</div>
</form></details>`
    : ""
}
</section>`;
}

function checkbox(id: string, name: string, label: string, checked: boolean): Html {
  return html`<div class="field check"><input type="checkbox" id="${id}" name="${name}" value="1"${checked ? html` checked` : ""}> <label for="${id}">${label}</label></div>`;
}

export function merchantPage(tr: ConsoleTranslator, v: MerchantView): Html {
  const t = tr.t;
  const m = v.merchant;
  const path = `/merchants/${encodeURIComponent(m.merchantId)}`;
  return html`<h1>${t("bo.merchant.title", { merchant: m.merchantId })}</h1>
${noticeBox(v.notice)}
<dl class="summary">
<dt>${t("bo.merchant.site")}</dt><dd>${m.siteId}</dd>
<dt>${t("bo.merchant.platformUrl")}</dt><dd><bdi dir="ltr">${text(m.platformUrl)}</bdi></dd>
<dt>${t("bo.merchant.validationUrl")}</dt><dd><bdi dir="ltr">${text(m.validationUrl)}</bdi></dd>
<dt>${t("bo.merchant.updatePayoutUrl")}</dt><dd><bdi dir="ltr">${text(m.updatePayoutUrl)}</bdi></dd>
<dt>${t("bo.merchant.statuses")}</dt><dd>${text(m.updatePayoutStatuses)}</dd>
<dt>${t("bo.merchant.approval")}</dt><dd>${approvalName(tr, m.payoutApproval)}</dd>
<dt>${t("bo.merchant.processors")}</dt><dd>${m.processors.join(", ")}</dd>
<dt>${t("bo.merchant.secret")}</dt><dd id="secret-state">${
    m.previousSecretExpireTime ? html`${t("bo.merchant.overlapUntil")} ${when(tr, m.previousSecretExpireTime)}` : t("bo.merchant.secretHidden")
  }</dd>
<dt>${t("bo.merchant.updated")}</dt><dd>${when(tr, m.updateTime)}</dd>
</dl>
${v.canMoto ? html`<p><a href="${path}/virtual-terminal" id="virtual-terminal-link">${t("bo.vt.link")}</a></p>` : ""}
${accountsSection(tr, { merchantId: m.merchantId, accounts: v.accounts, connectors: v.connectors, canUpdate: v.canUpdate })}
<h2>${t("bo.merchant.fourEyes")}</h2>
<p>${t("bo.merchant.fourEyesIntro")}</p>
${dataTable({
  id: "four-eyes",
  caption: t("bo.merchant.fourEyesCaption"),
  head: [t("bo.payout.currency"), t("bo.tx.amount")],
  rows: v.fourEyes.map((x) => html`<tr><td>${x.currency}</td><td class="num">${money(tr, x)}</td></tr>`),
  empty: t("bo.merchant.noFourEyes"),
  numeric: [1],
})}
${
  v.canUpdate
    ? html`<form method="post" action="${path}/four-eyes">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
${textArea({ name: "thresholds", label: t("bo.merchant.fourEyesField"), hint: t("bo.merchant.fourEyesHint"), value: v.fourEyes.map((x) => `${x.currency} ${amountInput(x)}`).join("\n") })}
<div class="actions">${button({ label: t("bo.merchant.saveFourEyes"), id: "save-four-eyes" })}</div></form>`
    : ""
}
<h2>${t("bo.merchant.frontends")}</h2>
<div class="cards">${m.frontends.map((f) => frontendSection(tr, m, f, v))}</div>
${
  v.canUpdate
    ? html`<h2>${t("bo.merchant.editHeading")}</h2>
<form method="post" action="${path}/settings">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
${inputField({ name: "platform_url", label: t("bo.merchant.platformUrl"), type: "url", value: m.platformUrl })}
${inputField({ name: "validation_url", label: t("bo.merchant.validationUrl"), type: "url", value: m.validationUrl })}
${inputField({ name: "update_payout_url", label: t("bo.merchant.updatePayoutUrl"), type: "url", value: m.updatePayoutUrl })}
${selectField({
  name: "payout_approval",
  label: t("bo.merchant.approval"),
  options: [
    { value: "auto", label: t("bo.merchant.auto") },
    { value: "manual", label: t("bo.merchant.manual") },
  ],
  value: m.payoutApproval === PayoutApproval.MANUAL ? "manual" : "auto",
})}
${inputField({ name: "processors", label: t("bo.merchant.processors"), hint: t("bo.merchant.processorsHint"), value: m.processors.join(", ") })}
<div class="actions">${button({ label: t("bo.merchant.save"), id: "save-settings" })}</div></form>`
    : ""
}
${
  v.canRotate
    ? html`<h2>${t("bo.merchant.rotateHeading")}</h2>
<p>${t("bo.merchant.rotateIntro")}</p>
<form method="post" action="${path}/rotate-secret">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
${field({ name: "new_secret", label: t("bo.merchant.newSecret"), hint: t("bo.merchant.newSecretHint"), type: "password", autocomplete: "off", required: true, maxlength: 256 })}
${selectField({
  name: "overlap_hours",
  label: t("bo.merchant.overlap"),
  options: [1, 24, 72, 168].map((h) => ({ value: String(h), label: t("bo.merchant.hours", { hours: h }) })),
  value: "24",
})}
<div class="actions">${button({ label: t("bo.merchant.rotate"), id: "rotate", variant: "danger" })}</div></form>`
    : ""
}`;
}
