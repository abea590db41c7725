/**
 * The transaction search (filters in a GET form, so a search is a link that
 * can be shared and exported), its results with page tokens, and the detail
 * page that explains one attempt: who made it (the customer in the hosted
 * Cashier, with its session, or the platform through Process), the status
 * timeline with who and why, the cascade's attempts with the processor's
 * codes, related refunds, every callback with its request and each attempt's
 * reply, and a redeliver button for operators whose role allows it.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { FourEyesApproval } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import type { Callback } from "../../../gen/cashier/engine/v1/callback_pb.js";
import { CallbackKind } from "../../../gen/cashier/engine/v1/callback_pb.js";
import { type Transaction, TransactionType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { pinLink } from "./customer-link.ts";
import { dataTable } from "./controls.ts";
import { callbackBadge, kindName, money, reasonLabel, statusBadge, text, typeName, when } from "./format.ts";
import { noticeBox } from "./gate.ts";
import { type ReadSourceView, replicaNotice } from "./replica-notice.ts";
import type { Notice } from "./model.ts";
import { checkSection } from "./check.ts";
import { type Search, searchQuery } from "./search.ts";
import { filterChips, filterForm, preferencesForm, type SavedSearchView, savedSearches } from "./search-tools.ts";
import { columnsOf, DEFAULT_PAGE_SIZE } from "./transaction-columns.ts";

// The search's fields and links (search.ts), here too for the pages and tests that import them from the list's view.
export { EXTRA_FILTERS, type Search, SEARCH_FIELDS, SUPPORTED_EXTRA_FILTERS, searchQuery } from "./search.ts";

/** One result row; `extra` cells go at its end. */
export function transactionRow(tr: ConsoleTranslator, x: Transaction, extra?: Html): Html {
  return html`<tr><td><a href="/transactions/${x.traceId}">${x.traceId}</a></td><td>${when(tr, x.createTime)}</td><td>${x.merchantId}</td>
<td><bdi>${x.orderId}</bdi></td><td>${typeName(tr, x.transactionType)}</td><td>${statusBadge(tr, x.status, x.payoutLetter)}</td>
<td class="num">${money(tr, x.amount)}</td><td>${text(x.paymentProcessor)}</td><td><bdi dir="ltr">${text(x.card?.maskedNumber)}</bdi></td><td>${pinLink(x.merchantId, x.pin)}</td>${extra ?? ""}</tr>`;
}

/**
 * Who made the order, in words a support person can repeat to the platform:
 * the customer in the hosted Cashier or the platform through Process; any
 * other maker as the engine names it.
 */
export function madeBy(tr: ConsoleTranslator, x: Transaction): Html {
  if (x.createdBy === "customer") return html`${tr.t("bo.tx.madeByCustomer")}`;
  if (x.createdBy === "api") return html`${tr.t("bo.tx.madeByApi")}`;
  return text(x.createdBy);
}

export function transactionHead(tr: ConsoleTranslator): string[] {
  const t = tr.t;
  return [
    t("bo.tx.trace"),
    t("bo.tx.created"),
    t("bo.tx.merchant"),
    t("bo.tx.order"),
    t("bo.tx.type"),
    t("bo.tx.status"),
    t("bo.tx.amount"),
    t("bo.tx.processor"),
    t("bo.tx.card"),
    t("bo.tx.pin"),
  ];
}

export interface SearchView {
  search: Search;
  transactions: readonly Transaction[];
  nextPageToken: string;
  /** Whether this is a later page (a link back to the first). */
  paged: boolean;
  notice?: Notice;
  /** Where the engine read the page (a replica far behind is said above the form). */
  readSource?: ReadSourceView;
  /** The operator's kept columns (absent or empty: the default) and page size (absent: the default). */
  columns?: readonly string[];
  pageSize?: number;
  /** The operator's saved searches, and the CSRF token of the forms that change them. */
  savedSearches?: readonly SavedSearchView[];
  csrf?: string;
}

/**
 * The search: filters on one line with chips for the active ones, the
 * operator's saved searches and column choice folded beside the export, and
 * the list one line per row, full width; j/k or the arrows move between rows
 * (console.js), each row's trace id is its link.
 */
export function searchPage(tr: ConsoleTranslator, v: SearchView): Html {
  const t = tr.t;
  const s = v.search;
  const shown = columnsOf(v.columns ?? []);
  const amountAt = shown.findIndex((c) => c.numeric);
  return html`<h1>${t("bo.nav.transactions")}</h1>
${noticeBox(v.notice)}
${replicaNotice(tr, v.readSource)}
${filterForm(tr, s)}
${filterChips(tr, s)}
<div class="list-tools">${savedSearches(tr, v.savedSearches ?? [], s, v.csrf ?? "")}${preferencesForm(tr, shown, v.pageSize ?? DEFAULT_PAGE_SIZE, s, v.csrf ?? "")}<a href="/transactions.csv${searchQuery(s)}" id="export" download>${t("bo.search.export")}</a></div>
${dataTable({ id: "results", caption: t("bo.search.results"), head: shown.map((c) => t(c.label)), rows: v.transactions.map((x) => html`<tr>${shown.map((c) => c.cell(tr, x))}</tr>`), empty: v.nextPageToken ? t("bo.search.noneOnPage") : t("bo.search.none"), numeric: amountAt >= 0 ? [amountAt] : [], rowNav: t("bo.prefs.keys") })}
<nav class="pager" aria-label="${t("bo.search.pages")}">${v.paged ? html`<a href="/transactions${searchQuery(s)}" id="first-page">${t("bo.search.first")}</a>` : ""}${
    v.nextPageToken ? html`<a href="/transactions${searchQuery(s, { page_token: v.nextPageToken })}" id="next-page">${t("bo.search.next")}</a>` : ""
  }</nav>`;
}

export interface DetailView {
  transaction: Transaction;
  /** A four-eyes payout's first approval: a row of the timeline, though it changes no status. */
  firstApproval?: FourEyesApproval;
  cascade: readonly Transaction[];
  related: readonly Transaction[];
  callbacks: readonly Callback[];
  canRedeliver: boolean;
  /** The role holds transaction.check and the engine offers a check on this attempt (check_offered). */
  canCheck?: boolean;
  /** The money actions' section (views/money-actions.ts), drawn by its route when the role may refund or cancel. */
  money?: Html;
  csrf: string;
  notice?: Notice;
}

function callbackSection(tr: ConsoleTranslator, c: Callback, v: DetailView): Html {
  const t = tr.t;
  const redeliverable = v.canRedeliver && c.kind !== CallbackKind.VALIDATION;
  return html`<section class="card" aria-labelledby="callback-${c.id}">
<h3 id="callback-${c.id}">${kindName(tr, c.kind)} · ${callbackBadge(tr, c.state)}</h3>
<dl><dt>${t("bo.cb.url")}</dt><dd><bdi dir="ltr">${c.url}</bdi></dd><dt>${t("bo.cb.event")}</dt><dd><code>${c.eventId}</code></dd>
<dt>${t("bo.cb.attempts")}</dt><dd>${c.attemptCount}</dd><dt>${t("bo.cb.created")}</dt><dd>${when(tr, c.createTime)}</dd>
${c.nextAttemptTime ? html`<dt>${t("bo.cb.next")}</dt><dd>${when(tr, c.nextAttemptTime)}</dd>` : ""}</dl>
<h4>${t("bo.cb.request")}</h4><pre dir="ltr" tabindex="0">${c.body}</pre>
${dataTable({
  caption: t("bo.cb.replies"),
  label: `${t("bo.cb.replies")}: ${kindName(tr, c.kind)} ${c.id}`,
  head: [t("bo.cb.time"), t("bo.cb.duration"), t("bo.cb.http"), t("bo.cb.outcome"), t("bo.cb.error"), t("bo.cb.reply")],
  rows: c.attempts.map(
    (a) =>
      html`<tr><td>${when(tr, a.time)}</td><td class="num">${a.durationMs} ms</td><td class="num">${text(a.httpStatus)}</td><td>${a.outcome}</td><td>${text(a.error)}</td><td>${a.responseBody ? html`<pre dir="ltr" tabindex="0">${a.responseBody}</pre>` : text("")}</td></tr>`,
  ),
  empty: t("bo.cb.noAttempts"),
  numeric: [1, 2],
})}
${
  redeliverable
    ? html`<form method="post" action="/transactions/${v.transaction.traceId}/callbacks/${c.id.toString()}/redeliver" class="inline-actions">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}${button({ label: t("bo.cb.redeliver"), id: `redeliver-${c.id}`, variant: "secondary" })}</form>`
    : ""
}
</section>`;
}

/** The status changes, oldest first, with a four-eyes payout's first approval in its place among them. */
function timelineRows(tr: ConsoleTranslator, x: Transaction, first: FourEyesApproval | undefined): Html[] {
  const ms = (ts: Timestamp | undefined) => (ts ? Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6) : 0);
  const rows = x.history.map((h) => ({
    at: ms(h.time),
    row: html`<tr><td>${when(tr, h.time)}</td><td>${h.fromStatus ? statusBadge(tr, h.fromStatus) : text("")}</td><td>${statusBadge(tr, h.toStatus, h.payoutLetter)}</td><td><code>${h.cause}</code></td></tr>`,
  }));
  if (first) {
    rows.push({
      at: ms(first.time),
      row: html`<tr id="first-approval"><td>${when(tr, first.time)}</td><td>${text("")}</td><td>${text("")}</td><td>${tr.t("bo.detail.firstApproval", { login: first.login, reason: reasonLabel(tr, first.reason) })}</td></tr>`,
    });
  }
  // Stable: a first approval recorded in the same millisecond as a change stays after it.
  return rows.sort((a, b) => a.at - b.at).map((r) => r.row);
}

export function detailPage(tr: ConsoleTranslator, v: DetailView): Html {
  const t = tr.t;
  const x = v.transaction;
  return html`<h1>${t("bo.detail.title", { trace: x.traceId })}</h1>
${noticeBox(v.notice)}
<dl class="summary">
<dt>${t("bo.tx.status")}</dt><dd id="status">${statusBadge(tr, x.status, x.payoutLetter)}</dd>
<dt>${t("bo.tx.type")}</dt><dd>${typeName(tr, x.transactionType)}</dd>
<dt>${t("bo.tx.amount")}</dt><dd>${money(tr, x.amount)}</dd>
<dt>${t("bo.tx.merchant")}</dt><dd>${x.merchantId}</dd>
<dt>${t("bo.tx.order")}</dt><dd><bdi>${x.orderId}</bdi></dd>
<dt>${t("bo.tx.processor")}</dt><dd>${text(x.paymentProcessor)}</dd>
<dt>${t("bo.tx.processorId")}</dt><dd>${text(x.transactionId)}</dd>
<dt>${t("bo.tx.routingRule")}</dt><dd id="routing-rule">${x.routingRule ? html`<bdi>${x.routingRule}</bdi>` : x.transactionType === TransactionType.REFUND ? t("bo.tx.routingRefund") : t("bo.tx.routingDefault")}</dd>
<dt>${t("bo.tx.error")}</dt><dd>${x.errorCode ? `${x.errorCode} ${x.errorDetails}` : text("")}</dd>
<dt>${t("bo.tx.card")}</dt><dd><bdi dir="ltr">${text(x.card?.maskedNumber)}</bdi> ${x.card?.brand ?? ""}</dd>
<dt>${t("bo.tx.pin")}</dt><dd>${pinLink(x.merchantId, x.pin)}</dd>
<dt>${t("bo.tx.frontend")}</dt><dd>${text(x.frontend)}</dd>
<dt>${t("bo.tx.attempt")}</dt><dd>${x.attempt}</dd>
<dt>${t("bo.tx.madeBy")}</dt><dd id="made-by">${madeBy(tr, x)}</dd>
${x.sessionId ? html`<dt>${t("bo.tx.session")}</dt><dd id="session">${x.sessionId.toString()}</dd>` : ""}
${x.scOrderId ? html`<dt>${t("bo.tx.scOrderId")}</dt><dd id="sc-order-id"><bdi>${x.scOrderId}</bdi></dd>` : ""}
${x.referenceTraceId ? html`<dt>${t("bo.tx.refunds")}</dt><dd><a href="/transactions/${x.referenceTraceId}">${x.referenceTraceId}</a></dd>` : ""}
<dt>${t("bo.tx.created")}</dt><dd>${when(tr, x.createTime)}</dd>
<dt>${t("bo.tx.updated")}</dt><dd>${when(tr, x.updateTime)}</dd>
</dl>
${v.canCheck ? checkSection(tr, x.traceId, v.csrf) : ""}
${v.money ?? ""}
<h2>${t("bo.detail.timeline")}</h2>
${dataTable({
  id: "timeline",
  caption: t(v.firstApproval ? "bo.detail.timelineCaptionFourEyes" : "bo.detail.timelineCaption"),
  head: [t("bo.cb.time"), t("bo.detail.from"), t("bo.detail.to"), t("bo.detail.cause")],
  rows: timelineRows(tr, x, v.firstApproval),
  empty: t("bo.detail.noHistory"),
})}
<h2>${t("bo.detail.cascade")}</h2>
${dataTable({
  id: "cascade",
  caption: t("bo.detail.cascadeCaption"),
  head: [t("bo.tx.attempt"), t("bo.tx.trace"), t("bo.tx.processor"), t("bo.tx.status"), t("bo.tx.errorCode"), t("bo.tx.errorDetails"), t("bo.tx.processorId")],
  rows: v.cascade.map(
    (a) =>
      html`<tr${a.traceId === x.traceId ? html` aria-current="true"` : ""}><td>${a.attempt}</td><td><a href="/transactions/${a.traceId}">${a.traceId}</a></td><td>${text(a.paymentProcessor)}</td><td>${statusBadge(tr, a.status, a.payoutLetter)}</td><td class="num">${text(a.errorCode)}</td><td>${text(a.errorDetails)}</td><td>${text(a.transactionId)}</td></tr>`,
  ),
  empty: t("bo.detail.noCascade"),
  numeric: [4],
})}
<h2>${t("bo.detail.related")}</h2>
${dataTable({ id: "related", caption: t("bo.detail.relatedCaption"), head: transactionHead(tr), rows: v.related.map((r) => transactionRow(tr, r)), empty: t("bo.detail.noRelated"), numeric: [6] })}
<h2>${t("bo.detail.callbacks")}</h2>
${v.callbacks.length ? v.callbacks.map((c) => callbackSection(tr, c, v)) : html`<p class="muted">${t("bo.detail.noCallbacks")}</p>`}`;
}
