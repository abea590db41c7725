/**
 * The transaction search's tools around the list (docs/backoffice.md, Work
 * views): the filter form on one line (the filters used most, the others
 * under "More filters"), a chip per active filter that is a link to the same
 * search without it (no script needed), the operator's saved searches, and
 * the choice of columns and page size. Everything is a link or a form.
 */
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleKey, ConsoleTranslator } from "../i18n.ts";
import { STATUS_WORDS } from "../../wire/status-words.ts";
import { inputField, type Option, selectField } from "./controls.ts";
import { TYPE_NAMES } from "./format.ts";
import { PAGE_SIZES, TRANSACTION_COLUMNS, type TransactionColumn } from "./transaction-columns.ts";
import { type Search, SEARCH_FIELDS, searchQuery } from "./search.ts";

/** Each filter's label. */
const FILTER_LABEL: Readonly<Record<keyof Search, ConsoleKey>> = {
  trace_id: "bo.tx.trace",
  merchant_id: "bo.tx.merchant",
  order_id: "bo.tx.order",
  pin: "bo.tx.pin",
  status: "bo.tx.status",
  type: "bo.tx.type",
  from: "bo.search.from",
  to: "bo.search.to",
  email: "bo.search.email",
  card_last_four: "bo.search.card_last_four",
  processor: "bo.search.processor",
  frontend: "bo.search.frontend",
  processor_transaction_id: "bo.search.processor_transaction_id",
};

/** The filters on the form's one line: the ones an agent types most. */
const INLINE: readonly (keyof Search)[] = ["trace_id", "order_id", "pin", "status", "type"];

function options(tr: ConsoleTranslator, names: Readonly<Record<number, string>>, prefix: "bo.status" | "bo.type"): Option[] {
  return [{ value: "", label: tr.t("bo.search.any") }, ...Object.values(names).map((n) => ({ value: n, label: tr.t(`${prefix}.${n}` as never) }))];
}

function filterField(tr: ConsoleTranslator, s: Search, f: keyof Search): Html {
  const t = tr.t;
  const label = t(FILTER_LABEL[f]);
  switch (f) {
    case "status":
      return selectField({ name: f, label, options: options(tr, STATUS_WORDS, "bo.status"), value: s.status });
    case "type":
      return selectField({ name: f, label, options: options(tr, TYPE_NAMES, "bo.type"), value: s.type });
    case "from":
      return inputField({ name: f, label, type: "date", value: s.from });
    case "to":
      return inputField({ name: f, label, type: "date", value: s.to, hint: t("bo.search.toHint") });
    case "trace_id":
      return inputField({ name: f, label, value: s.trace_id, inputmode: "numeric", maxlength: 10 });
    case "card_last_four":
      return inputField({ name: f, label, value: s[f], inputmode: "numeric", maxlength: 4 });
    case "merchant_id":
      return inputField({ name: f, label, value: s[f], maxlength: 64 });
    default:
      return inputField({ name: f, label, value: s[f], maxlength: 128 });
  }
}

/** The filter form: one line, the rest folded (open when one of them is set). */
export function filterForm(tr: ConsoleTranslator, s: Search): Html {
  const t = tr.t;
  // The dates last, as the form always had them (a date input holds the focus over its parts).
  const more = [...SEARCH_FIELDS.filter((f) => !INLINE.includes(f) && f !== "from" && f !== "to"), "from", "to"] as const;
  const open = more.some((f) => s[f] !== "");
  return html`<form method="get" action="/transactions" class="filters compact" role="search" aria-label="${t("bo.search.label")}">
${INLINE.map((f) => filterField(tr, s, f))}
<div class="actions">${button({ label: t("bo.search.submit"), id: "search" })}</div>
<details id="more-filters" class="more-filters"${open ? html` open` : ""}><summary>${t("bo.search.more")}</summary>
<div class="more-grid">${more.map((f) => filterField(tr, s, f))}</div></details>
</form>`;
}

function chipValue(tr: ConsoleTranslator, f: keyof Search, v: string): string {
  if (f === "status" && Object.values(STATUS_WORDS).includes(v)) return tr.t(`bo.status.${v}` as ConsoleKey);
  if (f === "type" && Object.values(TYPE_NAMES).includes(v)) return tr.t(`bo.type.${v}` as ConsoleKey);
  return v;
}

/** A chip per active filter: a link to the same search without it; and one to clear them all. */
export function filterChips(tr: ConsoleTranslator, s: Search): Html {
  const active = SEARCH_FIELDS.filter((f) => s[f] !== "");
  if (active.length === 0) return html``;
  const t = tr.t;
  return html`<nav class="chips" aria-label="${t("bo.search.active")}" id="active-filters"><ul class="chip-list">${active.map((f) => {
    const label = t(FILTER_LABEL[f]);
    const value = chipValue(tr, f, s[f]);
    return html`<li><a class="chip" href="/transactions${searchQuery({ ...s, [f]: "" })}" aria-label="${t("bo.search.removeFilter", { label, value })}" data-filter="${f}">${label}: <bdi>${value}</bdi> <span aria-hidden="true">×</span></a></li>`;
  })}${active.length > 1 ? html`<li><a href="/transactions" id="clear-filters">${t("bo.search.clearAll")}</a></li>` : ""}</ul></nav>`;
}

export interface SavedSearchView {
  id: string;
  name: string;
  query: string;
}

/** The operator's saved searches (each a link, with a delete button), and a form to save the search shown. */
export function savedSearches(tr: ConsoleTranslator, searches: readonly SavedSearchView[], s: Search, csrf: string): Html {
  const t = tr.t;
  const current = searchQuery(s).slice(1);
  return html`<details class="tools" id="saved-searches"><summary>${t("bo.saved.heading")} (${searches.length})</summary>
${
  searches.length
    ? html`<ul class="saved-list">${searches.map(
        (x) =>
          html`<li><a href="/transactions?${x.query}" class="saved-link">${x.name}</a><form method="post" action="/transactions/saved-searches/${x.id}/delete" class="inline-actions">${hiddenFields({ [CSRF_FIELD]: csrf })}<button type="submit" class="button secondary small" aria-label="${t("bo.saved.delete", { name: x.name })}">×</button></form></li>`,
      )}</ul>`
    : html`<p class="muted">${t("bo.saved.none")}</p>`
}
<form method="post" action="/transactions/saved-searches" class="inline-actions">${hiddenFields({ [CSRF_FIELD]: csrf, query: current })}
${inputField({ name: "name", id: "saved-name", label: t("bo.saved.name"), maxlength: 64, required: true })}
${button({ label: t("bo.saved.save"), id: "save-search", variant: "secondary" })}</form>
</details>`;
}

/** The choice of columns and page size, kept by the engine for this operator. */
export function preferencesForm(tr: ConsoleTranslator, shown: readonly TransactionColumn[], pageSize: number, s: Search, csrf: string): Html {
  const t = tr.t;
  const on = new Set(shown.map((c) => c.name));
  return html`<details class="tools" id="view-preferences"><summary>${t("bo.prefs.heading")}</summary>
<form method="post" action="/transactions/preferences" class="wide">${hiddenFields({ [CSRF_FIELD]: csrf, back: searchQuery(s).slice(1) })}
<fieldset class="columns-choice"><legend>${t("bo.prefs.columns")}</legend>${TRANSACTION_COLUMNS.filter((c) => c.name !== "trace_id").map(
    (c) =>
      html`<label class="check"><input type="checkbox" name="column" value="${c.name}" id="column-${c.name}"${on.has(c.name) ? html` checked` : ""}> ${t(c.label)}</label>`,
  )}</fieldset>
${selectField({ name: "page_size", label: t("bo.prefs.pageSize"), options: PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) })), value: String(pageSize) })}
<div class="actions">${button({ label: t("bo.prefs.save"), id: "save-preferences", variant: "secondary" })}</div>
</form></details>`;
}
