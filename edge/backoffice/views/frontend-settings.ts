/**
 * One frontend's page: what it takes and offers (base currency, currencies,
 * preset deposit amounts, limits per currency), the admin's form that changes
 * them, and a preview of the amounts as a customer paying in each currency
 * sees them on the hosted Cashier's deposit page. Amounts are shown and typed
 * as money of their currency (10.00), never as the wire unit the frontend
 * keeps them in. The page has one section per subject, so that the hosted
 * Cashier's branding can take its own beside these.
 */
import type { Frontend, FrontendLimits } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { button, type FieldError, field, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { majorString } from "../../pages/kit/i18n.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import { currencyExponent } from "../../../engine/shared/money.ts";
import { wireAmountToMinor } from "../../wire/amount.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { dataTable } from "./controls.ts";
import { noticeBox } from "./gate.ts";
import type { Notice } from "./model.ts";
import { offeredPresets } from "../../../engine/shared/offered-presets.ts";

/** The four bounds of a currency, by the form's names and the proto's keys. */
export const LIMIT_INPUTS = [
  ["deposit_min", "depositMin"],
  ["deposit_max", "depositMax"],
  ["withdrawal_min", "withdrawalMin"],
  ["withdrawal_max", "withdrawalMax"],
] as const;
export type LimitName = (typeof LIMIT_INPUTS)[number][0];

/** A bound's input: its name in the form and its id (what a refusal points at). */
export const limitInput = (currency: string, bound: LimitName) => `limit:${currency}:${bound}`;
export const limitId = (currency: string, bound: LimitName) => `limit-${currency.replace(/[^A-Z]/g, "_")}-${bound}`;

/** The form as typed (or as stored), amounts as money of their currency ("10.00"). */
export interface FrontendAmountsValues {
  baseCurrency: string;
  currencies: string;
  presets: string;
  /** Currency -> bound -> the amount typed ("" for none). */
  limits: Record<string, Partial<Record<LimitName, string>>>;
}

export interface FrontendPageView {
  merchantId: string;
  frontend: Frontend;
  values: FrontendAmountsValues;
  errors: readonly FieldError[];
  canUpdate: boolean;
  csrf: string;
  notice?: Notice;
}

/** A wire-unit amount of `currency` as the form's decimal ("10.00"); the wire number itself when it is no money. */
function wireDecimal(wire: bigint, currency: string): string {
  const minor = wireAmountToMinor(Number(wire), currency);
  const exponent = currencyExponent(currency);
  return minor.ok && exponent !== undefined ? majorString(minor.minor, exponent) : String(wire);
}

/** The stored frontend as the form's values. */
export function storedValues(f: Frontend): FrontendAmountsValues {
  const limits: FrontendAmountsValues["limits"] = {};
  for (const l of f.limits)
    limits[l.currency] = Object.fromEntries(LIMIT_INPUTS.map(([name, key]) => [name, l[key] === undefined ? "" : wireDecimal(l[key], l.currency)]));
  return {
    baseCurrency: f.baseCurrency,
    currencies: f.currencies.join(", "),
    presets: f.depositPresets.map((p) => wireDecimal(p, f.baseCurrency)).join(", "),
    limits,
  };
}

/** The currencies whose limits the form offers: those stored, and any typed in the currencies field. */
export function limitCurrencies(f: Frontend, typed: string): string[] {
  const out = [...f.currencies];
  for (const c of typed.split(",").map((x) => x.trim().toUpperCase())) if (/^[A-Z]{3}$/.test(c) && !out.includes(c)) out.push(c);
  return out;
}

function amountText(tr: ConsoleTranslator, wire: bigint, currency: string): string {
  const minor = wireAmountToMinor(Number(wire), currency);
  return minor.ok ? tr.amount(minor.minor, currency) : String(wire);
}

/** The bounds of deposits or withdrawals as words: from and up to, either alone, or any amount. */
function rangeText(tr: ConsoleTranslator, min: bigint | undefined, max: bigint | undefined, currency: string): string {
  if (min !== undefined && max !== undefined) return tr.t("bo.fe.range", { min: amountText(tr, min, currency), max: amountText(tr, max, currency) });
  if (min !== undefined) return tr.t("bo.fe.rangeFrom", { min: amountText(tr, min, currency) });
  if (max !== undefined) return tr.t("bo.fe.rangeTo", { max: amountText(tr, max, currency) });
  return tr.t("bo.fe.anyAmount");
}

/**
 * What a customer paying in `currency` sees: the preset buttons the hosted Cashier offers (engine/shared/offered-presets.ts)
 * and the bounds of what may be paid in and out.
 */
function previewRow(tr: ConsoleTranslator, f: Frontend, currency: string): Html {
  const l: FrontendLimits | undefined = f.limits.find((x) => x.currency === currency);
  const offered = offeredPresets(f.depositPresets, l?.depositMin, l?.depositMax);
  const left = f.depositPresets.length - offered.length;
  return html`<tr><th scope="row">${currency}</th><td>${
    offered.length
      ? html`<ul class="preset-preview">${offered.map((p) => html`<li><span class="preset-chip">${amountText(tr, p, currency)}</span></li>`)}</ul>`
      : tr.t("bo.fe.noPresets")
  }${left > 0 ? html`<p class="hint">${tr.t("bo.fe.presetsLeftOut", { count: left })}</p>` : ""}</td><td>${rangeText(tr, l?.depositMin, l?.depositMax, currency)}</td><td>${rangeText(
    tr,
    l?.withdrawalMin,
    l?.withdrawalMax,
    currency,
  )}</td></tr>`;
}

function amountsForm(tr: ConsoleTranslator, v: FrontendPageView, action: string): Html {
  const t = tr.t;
  const errorOf = (id: string) => v.errors.find((e) => e.field === id)?.message;
  const currencies = limitCurrencies(v.frontend, v.values.currencies);
  return html`<form method="post" action="${action}" id="amounts-form" novalidate>
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
${field({ name: "base_currency", id: "fe-base", label: t("bo.fe.base"), hint: t("bo.fe.baseHint"), value: v.values.baseCurrency, maxlength: 3, autocomplete: "off", error: errorOf("fe-base") })}
${field({ name: "currencies", id: "fe-currencies", label: t("bo.fe.currencies"), hint: t("bo.fe.currenciesHint"), value: v.values.currencies, maxlength: 200, autocomplete: "off", error: errorOf("fe-currencies") })}
${field({
  name: "deposit_presets",
  id: "fe-presets",
  label: t("bo.fe.presets", { currency: v.values.baseCurrency || v.frontend.baseCurrency }),
  hint: t("bo.fe.presetsHint"),
  value: v.values.presets,
  maxlength: 200,
  inputmode: "decimal",
  autocomplete: "off",
  error: errorOf("fe-presets"),
})}
${currencies.map(
  (c) => html`<fieldset class="limits" id="limits-${c}"><legend>${t("bo.fe.limitsOf", { currency: c })}</legend>
<p class="hint">${t("bo.fe.limitsHint", { currency: c })}</p>
<div class="pair">${LIMIT_INPUTS.map(([name]) =>
    field({
      name: limitInput(c, name),
      id: limitId(c, name),
      label: t(`bo.fe.${name}`),
      value: v.values.limits[c]?.[name] ?? "",
      maxlength: 20,
      inputmode: "decimal",
      autocomplete: "off",
      error: errorOf(limitId(c, name)),
    }),
  )}</div></fieldset>`,
)}
<div class="actions">${button({ label: t("bo.fe.save"), id: "save-amounts" })}</div>
</form>`;
}

/** The frontend's page. */
export function frontendPage(tr: ConsoleTranslator, v: FrontendPageView): Html {
  const t = tr.t;
  const f = v.frontend;
  const merchantPath = `/merchants/${encodeURIComponent(v.merchantId)}`;
  const path = `${merchantPath}/frontends/${encodeURIComponent(f.name)}`;
  return html`<p><a href="${merchantPath}#frontend-${f.name}">${t("bo.fe.back", { merchant: v.merchantId })}</a></p>
<h1>${t("bo.fe.title", { name: f.name })}</h1>
${noticeBox(v.notice)}
<section aria-labelledby="preview-heading">
<h2 id="preview-heading">${t("bo.fe.previewHeading")}</h2>
<p>${t("bo.fe.previewIntro")}</p>
${dataTable({
  id: "amounts-preview",
  caption: t("bo.fe.previewCaption", { name: f.name }),
  head: [t("bo.payout.currency"), t("bo.fe.previewPresets"), t("bo.fe.previewDeposits"), t("bo.fe.previewWithdrawals")],
  rows: f.currencies.map((c) => previewRow(tr, f, c)),
  empty: t("bo.fe.noPresets"),
})}
</section>
${
  v.canUpdate
    ? html`<section aria-labelledby="amounts-heading">
<h2 id="amounts-heading">${t("bo.fe.amountsHeading")}</h2>
<p>${t("bo.fe.amountsIntro")}</p>
${amountsForm(tr, v, `${path}/amounts`)}
</section>`
    : ""
}`;
}
