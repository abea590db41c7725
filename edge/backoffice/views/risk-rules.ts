/**
 * A merchant's risk rules on one page (/merchants/:id/risk): the rules in the order the engine applies them, each
 * told by its fields; for admins an edit link and a delete button per rule, and one form (add, or edit the rule
 * chosen) whose two buttons save the rule or ask the engine's dry run over the last 7 days, the answer shown above
 * the form with what was typed kept. Plain forms, no script. The page decides nothing: the engine checks the role,
 * the fields and the rule, and counts.
 */
import type { RiskRule, RiskRuleSpec } from "../../../gen/cashier/admin/v1/console_risk_service_pb.js";
import { button, type FieldError, field, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { dataTable, selectField, textArea } from "./controls.ts";
import { when } from "./format.ts";
import { noticeBox } from "./gate.ts";
import type { Notice } from "./model.ts";

/** The form's fields as typed (or as stored), each a string. */
export interface RiskFormValues {
  name: string;
  kind: string;
  transactionType: string;
  key: string;
  windowSeconds: string;
  maxCount: string;
  maxAmountMinor: string;
  currency: string;
  period: string;
  binCountries: string;
}

/** The form's names, in the order of the form, and the spec field each one is (the engine names `spec.<field>`). */
export const RISK_FIELDS: readonly (readonly [keyof RiskFormValues, string])[] = [
  ["name", "name"],
  ["kind", "kind"],
  ["transactionType", "transaction_type"],
  ["key", "key"],
  ["windowSeconds", "window_seconds"],
  ["maxCount", "max_count"],
  ["maxAmountMinor", "max_amount_minor"],
  ["currency", "currency"],
  ["period", "period"],
  ["binCountries", "bin_countries"],
];

/** A stored rule as the form's values (0 as empty). */
export function riskValues(spec: RiskRuleSpec | undefined): RiskFormValues {
  const n = (v: bigint | undefined) => (v ? String(v) : "");
  return {
    name: spec?.name ?? "",
    kind: spec?.kind ?? "velocity",
    transactionType: spec?.transactionType ?? "",
    key: spec?.key ?? "",
    windowSeconds: n(spec?.windowSeconds),
    maxCount: n(spec?.maxCount),
    maxAmountMinor: n(spec?.maxAmountMinor),
    currency: spec?.currency ?? "",
    period: spec?.period ?? "",
    binCountries: spec?.binCountries ?? "",
  };
}

export interface RiskPageView {
  merchantId: string;
  rules: readonly RiskRule[];
  canEdit: boolean;
  csrf: string;
  notice?: Notice;
  /** The form: the rule being edited (0 for a new one), its values and the faults by input id. */
  form: { id: bigint; values: RiskFormValues; errors: readonly FieldError[] };
  /** The dry run's answer for the form's values. */
  dryRun?: { refused: number; examined: number; since: string };
}

/** A rule's fields in one line, the same in every language (the names are the engine's). */
function summary(spec: RiskRuleSpec | undefined): string {
  if (!spec) return "";
  if (spec.kind === "velocity") {
    const limits = [spec.maxCount ? `≤ ${spec.maxCount}` : "", spec.maxAmountMinor ? `≤ ${spec.maxAmountMinor} ${spec.currency} (minor units)` : ""].filter(
      Boolean,
    );
    return `${spec.transactionType} · ${spec.key} · ${spec.windowSeconds} s · ${limits.join(" · ")}`;
  }
  if (spec.kind === "deposit_limit") return `${spec.period} · ≤ ${spec.maxAmountMinor} ${spec.currency} (minor units)`;
  return spec.binCountries;
}

const errorOf = (errors: readonly FieldError[], id: string) => errors.find((e) => e.field === id)?.message;

export function riskPage(tr: ConsoleTranslator, v: RiskPageView): Html {
  const t = tr.t;
  const path = `/merchants/${encodeURIComponent(v.merchantId)}/risk`;
  const kinds = ["velocity", "deposit_limit", "country_mismatch"] as const;
  const kindLabel = (k: string) =>
    k === "velocity" ? t("bo.risk.kindVelocity") : k === "deposit_limit" ? t("bo.risk.kindLimit") : k === "country_mismatch" ? t("bo.risk.kindCountry") : k;
  const head = [t("bo.risk.id"), t("bo.risk.name"), t("bo.risk.kind"), t("bo.risk.rule"), t("bo.risk.updated")];
  const f = v.form.values;
  const input = (name: keyof RiskFormValues, label: string, hint?: string, inputmode?: "numeric") =>
    field({
      name: RISK_FIELDS.find(([k]) => k === name)?.[1] ?? name,
      id: `risk-${name}`,
      label,
      value: f[name],
      hint,
      inputmode,
      error: errorOf(v.form.errors, `risk-${name}`),
    });
  const empty = { value: "", label: t("bo.risk.notUsed") };
  return html`<h1>${t("bo.risk.title", { merchant: v.merchantId })}</h1>
<p><a href="/merchants/${encodeURIComponent(v.merchantId)}">${t("bo.risk.back")}</a></p>
${noticeBox(v.notice)}
<p>${t("bo.risk.intro")}</p>
${dataTable({
  id: "risk-table",
  caption: t("bo.risk.caption"),
  head: v.canEdit ? [...head, t("bo.risk.actions")] : head,
  rows: v.rules.map(
    (r) =>
      html`<tr><td>${String(r.id)}</td><td>${r.spec?.name ?? ""}</td><td>${kindLabel(r.spec?.kind ?? "")}</td><td><bdi dir="ltr">${summary(r.spec)}</bdi></td><td>${when(tr, r.updateTime)} ${r.updatedBy}</td>${
        v.canEdit && r.fromMerchantsFile
          ? html`<td>${t("bo.risk.fromFile")}</td>`
          : v.canEdit
            ? html`<td><a href="${path}?edit=${String(r.id)}#risk-form" aria-label="${t("bo.risk.editNamed", { name: r.spec?.name ?? "" })}">${t("bo.risk.edit")}</a>
<form method="post" action="${path}/${String(r.id)}/delete" class="inline-form">${hiddenFields({ [CSRF_FIELD]: v.csrf })}${button({
                label: t("bo.risk.delete"),
                variant: "secondary",
                ariaLabel: t("bo.risk.deleteNamed", { name: r.spec?.name ?? "" }),
              })}</form></td>`
            : ""
      }</tr>`,
  ),
  empty: t("bo.risk.none"),
})}
${
  v.canEdit
    ? html`<h2 id="risk-form-heading">${v.form.id ? t("bo.risk.editHeading", { id: String(v.form.id) }) : t("bo.risk.addHeading")}</h2>
${
  v.dryRun
    ? html`<div class="notice success" role="status" id="dry-run-result">${t("bo.risk.dryRunResult", { refused: v.dryRun.refused, examined: v.dryRun.examined, since: v.dryRun.since })}</div>`
    : ""
}
<form method="post" action="${path}" id="risk-form" aria-labelledby="risk-form-heading">${hiddenFields({ [CSRF_FIELD]: v.csrf, id: String(v.form.id) })}
${input("name", t("bo.risk.name"))}
${selectField({ name: "kind", id: "risk-kind", label: t("bo.risk.kind"), value: f.kind, options: kinds.map((k) => ({ value: k, label: kindLabel(k) })) })}
<fieldset><legend>${t("bo.risk.kindVelocity")}</legend>
${selectField({ name: "transaction_type", id: "risk-transactionType", label: t("bo.risk.type"), value: f.transactionType, options: [empty, { value: "sale", label: t("bo.risk.typeSale") }, { value: "payout", label: t("bo.risk.typePayout") }] })}
${selectField({
  name: "key",
  id: "risk-key",
  label: t("bo.risk.key"),
  value: f.key,
  options: [
    empty,
    { value: "customer", label: t("bo.risk.keyCustomer") },
    { value: "card", label: t("bo.risk.keyCard") },
    { value: "email", label: t("bo.risk.keyEmail") },
    { value: "ip", label: t("bo.risk.keyIp") },
  ],
})}
${input("windowSeconds", t("bo.risk.window"), undefined, "numeric")}
${input("maxCount", t("bo.risk.maxCount"), t("bo.risk.zeroHint"), "numeric")}
</fieldset>
<fieldset><legend>${t("bo.risk.amounts")}</legend>
${input("maxAmountMinor", t("bo.risk.maxAmount"), t("bo.risk.minorHint"), "numeric")}
${input("currency", t("bo.risk.currency"))}
${selectField({ name: "period", id: "risk-period", label: t("bo.risk.period"), value: f.period, options: [empty, { value: "day", label: t("bo.risk.day") }, { value: "week", label: t("bo.risk.week") }, { value: "month", label: t("bo.risk.month") }] })}
</fieldset>
<fieldset><legend>${t("bo.risk.kindCountry")}</legend>
${textArea({ name: "bin_countries", id: "risk-binCountries", label: t("bo.risk.bins"), hint: t("bo.risk.binsHint"), value: f.binCountries, maxlength: 6000 })}
${errorOf(v.form.errors, "risk-binCountries") ? html`<p class="error" id="risk-binCountries-error">${errorOf(v.form.errors, "risk-binCountries")}</p>` : ""}
</fieldset>
<div class="actions">${button({ label: t("bo.risk.dryRun"), id: "risk-dry-run", name: "do", value: "dry-run", variant: "secondary" })}${button({ label: t("bo.risk.save"), id: "risk-save", name: "do", value: "save" })}</div>
</form>`
    : ""
}`;
}
