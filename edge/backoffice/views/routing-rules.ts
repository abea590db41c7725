/**
 * A merchant's routing (CONTRACT 11, docs/routing.md) on one page: the cascade order (`processors`), the rules in
 * the order the engine reads them, each told in words and, for admins, a form of its own (fields, not JSON: the
 * conditions as lists, the cascade as account names, a split as "account weight" lines) with buttons to move it up
 * or down or delete it, a form for a new rule, and the preview: a hypothetical sale or payout and where the
 * engine's routing would send it. The page decides nothing; the engine checks and routes.
 */
import type { RoutingRule } from "../../../gen/cashier/admin/v1/routing_pb.js";
import { button, type FieldError, field, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { inputField, selectField, textArea } from "./controls.ts";
import { noticeBox } from "./gate.ts";
import type { Notice } from "./model.ts";

/** A rule's form as typed (or as stored): every field a string, the checkboxes as lists. */
export interface RuleFormValues {
  name: string;
  types: readonly string[];
  currency: string;
  country: string;
  brands: readonly string[];
  bin: string;
  amountMin: string;
  amountMax: string;
  processors: string;
  split: string;
}

/** The preview's question as typed, and the engine's answer once asked. */
export interface PreviewView {
  type: string;
  currency: string;
  amount: string;
  country: string;
  bin: string;
  brand: string;
  answer?: { ruleMatched: boolean; rule: string; cascade: readonly string[]; split: readonly { account: string; weight: number }[] };
  errors: readonly FieldError[];
}

export interface RoutingPageView {
  merchantId: string;
  processors: readonly string[];
  /** The merchant's own accounts' names, which rules and processors may name (besides the default ones). */
  accounts: readonly string[];
  rules: readonly RoutingRule[];
  etag: string;
  cardBrands: readonly string[];
  canUpdate: boolean;
  csrf: string;
  notice?: Notice;
  /** A refused rule form shown again as typed: its place ("new" for the add form) and the faults by input id. */
  retry?: { place: number | "new"; values: RuleFormValues; errors: readonly FieldError[] };
  preview: PreviewView;
}

/** A stored rule as its form's values. */
export function ruleValues(r: RoutingRule): RuleFormValues {
  const w = r.when;
  return {
    name: r.name,
    types: w?.transactionType ?? [],
    currency: (w?.currency ?? []).join(", "),
    country: (w?.country ?? []).join(", "),
    brands: w?.cardBrand ?? [],
    bin: (w?.bin ?? []).join(", "),
    amountMin: w?.amountMin === undefined ? "" : w.amountMin.toString(),
    amountMax: w?.amountMax === undefined ? "" : w.amountMax.toString(),
    processors: r.processors.join(", "),
    split: r.split.map((s) => `${s.account} ${s.weight}`).join("\n"),
  };
}

export const EMPTY_RULE: RuleFormValues = {
  name: "",
  types: [],
  currency: "",
  country: "",
  brands: [],
  bin: "",
  amountMin: "",
  amountMax: "",
  processors: "",
  split: "",
};

/** A rule's label as the engine gives it: its name, else "rule N". */
const labelOf = (tr: ConsoleTranslator, r: RoutingRule, n: number) => r.name || tr.t("bo.routing.ruleN", { n });

/** What a rule says, in words: "sale, EUR, visa or mastercard -> adyen-eu, then cko-main". */
function ruleSummary(tr: ConsoleTranslator, r: RoutingRule): Html {
  const t = tr.t;
  const w = r.when;
  const parts: string[] = [];
  if (w?.transactionType.length) parts.push(t("bo.routing.sumType", { list: w.transactionType.join(", ") }));
  if (w?.currency.length) parts.push(t("bo.routing.sumCurrency", { list: w.currency.join(", ") }));
  if (w?.country.length) parts.push(t("bo.routing.sumCountry", { list: w.country.join(", ") }));
  if (w?.cardBrand.length) parts.push(t("bo.routing.sumBrand", { list: w.cardBrand.join(", ") }));
  if (w?.bin.length) parts.push(t("bo.routing.sumBin", { list: w.bin.join(", ") }));
  if (w?.amountMin !== undefined) parts.push(t("bo.routing.sumMin", { amount: w.amountMin.toString() }));
  if (w?.amountMax !== undefined) parts.push(t("bo.routing.sumMax", { amount: w.amountMax.toString() }));
  const to = r.split.length
    ? t("bo.routing.sumSplit", { list: r.split.map((s) => `${s.account} (${s.weight})`).join(", ") })
    : t("bo.routing.sumCascade", { list: r.processors.join(" → ") });
  return html`<p class="rule-summary"><span>${parts.length ? parts.join("; ") : t("bo.routing.sumAny")}</span> → <bdi dir="ltr">${to}</bdi></p>`;
}

function checkboxes(name: string, idPrefix: string, legend: string, options: readonly { value: string; label: string }[], checked: readonly string[]): Html {
  return html`<fieldset class="checks"><legend>${legend}</legend>${options.map(
    (o) =>
      html`<span class="check"><input type="checkbox" id="${idPrefix}-${o.value}" name="${name}" value="${o.value}"${checked.includes(o.value) ? html` checked` : ""}> <label for="${idPrefix}-${o.value}">${o.label}</label></span> `,
  )}</fieldset>`;
}

/** One rule's fields; `id` prefixes every input (rule-3, rule-new), which is what a refusal's field points at. */
function ruleFields(tr: ConsoleTranslator, id: string, values: RuleFormValues, brands: readonly string[], errors: readonly FieldError[]): Html {
  const t = tr.t;
  const err = (f: string) => errors.find((e) => e.field === `${id}-${f}`)?.message;
  const text = (f: string, name: string, label: string, hint: string, value: string, inputmode?: "numeric") =>
    field({ name, id: `${id}-${f}`, label, hint, value, maxlength: 2000, error: err(f), autocomplete: "off", ...(inputmode ? { inputmode } : {}) });
  return html`${text("name", "name", t("bo.routing.name"), t("bo.routing.nameHint"), values.name)}
${checkboxes(
  "transaction_type",
  `${id}-type`,
  t("bo.routing.types"),
  [
    { value: "sale", label: t("bo.routing.sale") },
    { value: "payout", label: t("bo.routing.payout") },
  ],
  values.types,
)}
${err("transaction_type") ? html`<p class="error" id="${id}-transaction_type">${err("transaction_type")}</p>` : ""}
${text("currency", "currency", t("bo.routing.currency"), t("bo.routing.currencyHint"), values.currency)}
${text("country", "country", t("bo.routing.country"), t("bo.routing.countryHint"), values.country)}
${checkboxes(
  "card_brand",
  `${id}-brand`,
  t("bo.routing.brands"),
  brands.map((b) => ({ value: b, label: b })),
  values.brands,
)}
${err("card_brand") ? html`<p class="error" id="${id}-card_brand">${err("card_brand")}</p>` : ""}
${text("bin", "bin", t("bo.routing.bin"), t("bo.routing.binHint"), values.bin, "numeric")}
${text("amount_min", "amount_min", t("bo.routing.amountMin"), t("bo.routing.amountHint"), values.amountMin, "numeric")}
${text("amount_max", "amount_max", t("bo.routing.amountMax"), t("bo.routing.amountHint"), values.amountMax, "numeric")}
${text("processors", "processors", t("bo.routing.cascade"), t("bo.routing.cascadeHint"), values.processors)}
${err("split") ? html`<p class="error" id="${id}-split-error">${err("split")}</p>` : ""}
${textArea({ name: "split", id: `${id}-split`, label: t("bo.routing.split"), hint: t("bo.routing.splitHint"), value: values.split, maxlength: 2000 })}`;
}

function ruleCard(tr: ConsoleTranslator, v: RoutingPageView, r: RoutingRule, i: number): Html {
  const t = tr.t;
  const n = i + 1;
  const path = `/merchants/${encodeURIComponent(v.merchantId)}/routing/rules/${n}`;
  const retry = v.retry?.place === n ? v.retry : undefined;
  const csrf = hiddenFields({ [CSRF_FIELD]: v.csrf, etag: v.etag });
  return html`<section class="card rule" id="rule-${n}" aria-labelledby="rule-${n}-heading">
<h3 id="rule-${n}-heading">${t("bo.routing.ruleHeading", { n, label: labelOf(tr, r, n) })}</h3>
${ruleSummary(tr, r)}
${
  v.canUpdate
    ? html`<details${retry ? html` open` : ""}><summary>${t("bo.routing.editRule", { label: labelOf(tr, r, n) })}</summary>
<form method="post" action="${path}">${csrf}
${ruleFields(tr, `rule-${n}`, retry?.values ?? ruleValues(r), v.cardBrands, retry?.errors ?? [])}
<div class="actions">${button({ label: t("bo.routing.saveRule", { n }), id: `save-rule-${n}` })}</div></form></details>
<div class="actions rule-actions">${
        i > 0
          ? html`<form method="post" action="${path}/move">${csrf}${hiddenFields({ direction: "up" })}${button({ label: t("bo.routing.up"), id: `up-rule-${n}`, variant: "secondary", ariaLabel: t("bo.routing.upNamed", { n }) })}</form>`
          : ""
      }${
        i < v.rules.length - 1
          ? html`<form method="post" action="${path}/move">${csrf}${hiddenFields({ direction: "down" })}${button({ label: t("bo.routing.down"), id: `down-rule-${n}`, variant: "secondary", ariaLabel: t("bo.routing.downNamed", { n }) })}</form>`
          : ""
      }<form method="post" action="${path}/delete">${csrf}${button({ label: t("bo.routing.delete"), id: `delete-rule-${n}`, variant: "danger", ariaLabel: t("bo.routing.deleteNamed", { n }) })}</form></div>`
    : ""
}
</section>`;
}

function previewSection(tr: ConsoleTranslator, v: RoutingPageView): Html {
  const t = tr.t;
  const p = v.preview;
  const err = (f: string) => p.errors.find((e) => e.field === `preview-${f}`)?.message;
  const a = p.answer;
  const what = p.type === "payout" ? t("bo.routing.thisPayout") : t("bo.routing.thisSale");
  return html`<h2 id="preview">${t("bo.routing.previewHeading")}</h2>
<p>${t("bo.routing.previewIntro")}</p>
<form method="get" action="/merchants/${encodeURIComponent(v.merchantId)}/routing#preview" id="preview-form">
${selectField({
  name: "type",
  id: "preview-type",
  label: t("bo.routing.previewType"),
  options: [
    { value: "sale", label: t("bo.routing.sale") },
    { value: "payout", label: t("bo.routing.payout") },
  ],
  value: p.type || "sale",
})}
${field({ name: "currency", id: "preview-currency", label: t("bo.routing.previewCurrency"), value: p.currency, maxlength: 3, required: true, autocomplete: "off", error: err("currency") })}
${field({ name: "amount", id: "preview-amount", label: t("bo.routing.previewAmount"), hint: t("bo.routing.amountHint"), value: p.amount, inputmode: "numeric", maxlength: 16, required: true, autocomplete: "off", error: err("amount") })}
${field({ name: "country", id: "preview-country", label: t("bo.routing.previewCountry"), hint: t("bo.routing.optional"), value: p.country, maxlength: 2, autocomplete: "off", error: err("country") })}
${field({ name: "bin", id: "preview-bin", label: t("bo.routing.previewBin"), hint: t("bo.routing.previewBinHint"), value: p.bin, inputmode: "numeric", maxlength: 8, autocomplete: "off", error: err("card_bin") })}
${selectField({ name: "brand", id: "preview-brand", label: t("bo.routing.previewBrand"), options: [{ value: "", label: t("bo.routing.previewBrandFromBin") }, ...v.cardBrands.map((b) => ({ value: b, label: b }))], value: p.brand })}
<div class="actions">${button({ label: t("bo.routing.previewButton"), id: "preview-button", variant: "secondary" })}</div></form>
${
  a
    ? html`<div class="notice info" role="status" id="preview-answer"><p>${
        a.ruleMatched ? t("bo.routing.wouldGoRule", { what, rule: a.rule }) : t("bo.routing.wouldGoDefault", { what })
      } <strong><bdi dir="ltr">${a.cascade.join(` → `)}</bdi></strong></p>${
        a.split.length ? html`<p>${t("bo.routing.previewSplit", { list: a.split.map((s) => `${s.account} (${s.weight})`).join(", ") })}</p>` : ""
      }</div>`
    : ""
}`;
}

export function routingPage(tr: ConsoleTranslator, v: RoutingPageView): Html {
  const t = tr.t;
  const path = `/merchants/${encodeURIComponent(v.merchantId)}`;
  const newRetry = v.retry?.place === "new" ? v.retry : undefined;
  return html`<p><a href="${path}">${t("bo.pa.back", { merchant: v.merchantId })}</a></p>
<h1>${t("bo.routing.title", { merchant: v.merchantId })}</h1>
${noticeBox(v.notice)}
<p>${t("bo.routing.intro")}</p>
<h2 id="cascade">${t("bo.routing.cascadeHeading")}</h2>
<p>${t("bo.routing.cascadeIntro")} <strong id="processors"><bdi dir="ltr">${v.processors.join(" → ")}</bdi></strong></p>
<p class="hint">${t("bo.routing.accountsKnown", { list: v.accounts.length ? v.accounts.join(", ") : t("bo.pa.noneSet") })}</p>
${
  v.canUpdate
    ? html`<form method="post" action="${path}/routing/processors">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
${inputField({ name: "processors", id: "cascade-processors", label: t("bo.merchant.processors"), hint: t("bo.merchant.processorsHint"), value: v.processors.join(", "), maxlength: 2000 })}
<div class="actions">${button({ label: t("bo.routing.saveCascade"), id: "save-cascade" })}</div></form>`
    : ""
}
<h2 id="rules">${t("bo.routing.rulesHeading")}</h2>
<p>${t("bo.routing.rulesIntro")}</p>
${v.rules.length ? html`<div class="routing-rules">${v.rules.map((r, i) => ruleCard(tr, v, r, i))}</div>` : html`<p id="no-rules">${t("bo.routing.noRules")}</p>`}
${
  v.canUpdate
    ? html`<details id="add-rule"${newRetry ? html` open` : ""}><summary>${t("bo.routing.addRule")}</summary>
<form method="post" action="${path}/routing/rules">
${hiddenFields({ [CSRF_FIELD]: v.csrf, etag: v.etag })}
${ruleFields(tr, "rule-new", newRetry?.values ?? EMPTY_RULE, v.cardBrands, newRetry?.errors ?? [])}
<div class="actions">${button({ label: t("bo.routing.addButton"), id: "add-rule-button" })}</div></form></details>`
    : ""
}
${previewSection(tr, v)}`;
}
