/**
 * The payout queue (payouts waiting in requested, oldest first, with how
 * long they wait and whether four eyes are needed), bulk approval, and one
 * payout's page with its customer's history at the merchant and the decision
 * form: approve, reject or cancel with a listed reason and a note; bulk
 * rejection and cancellation (payout-holds.ts) beside bulk approval. Operators
 * whose role may not decide see the queue without the forms.
 */
import {
  PayoutDecision,
  PayoutReason,
  type GetPayoutContextResponse,
  type QueuedPayout,
  type BulkApprovalResult,
} from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { TransactionStatus } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { dataTable, type Option, selectField, textArea } from "./controls.ts";
import { age, money, REASON_NAMES, reasonLabel, statusBadge, text, when } from "./format.ts";
import { noticeBox } from "./gate.ts";
import { NOTE_MAX } from "../../../engine/shared/payout-reasons.ts";
import type { Notice } from "./model.ts";
import { transactionHead, transactionRow } from "./transactions.ts";
import { bulkRefuseFieldset } from "./payout-holds.ts";

export const DECISION_NAMES: Readonly<Record<number, string>> = {
  [PayoutDecision.APPROVE]: "approve",
  [PayoutDecision.REJECT]: "reject",
  [PayoutDecision.CANCEL]: "cancel",
};

function reasonOptions(tr: ConsoleTranslator, reasons: readonly PayoutReason[]): Option[] {
  return [{ value: "", label: tr.t("bo.payout.chooseReason") }, ...reasons.map((r) => ({ value: REASON_NAMES[r], label: reasonLabel(tr, r) }))];
}

function fourEyes(tr: ConsoleTranslator, p: QueuedPayout): Html {
  const t = tr.t;
  if (!p.fourEyesRequired) return html`<span class="muted">${t("bo.payout.oneApproval")}</span>`;
  // Decided with two approvals: the first one's operator (the second is the history's).
  if (p.firstApproval && p.transaction?.status !== TransactionStatus.REQUESTED)
    return html`<span>${t("bo.payout.twoGiven", { login: p.firstApproval.login })}</span>`;
  if (p.firstApproval) return html`<span class="status wait">${t("bo.payout.secondNeeded", { login: p.firstApproval.login })}</span>`;
  return html`<span class="status wait">${t("bo.payout.twoApprovals")}</span>`;
}

export interface QueueView {
  payouts: readonly QueuedPayout[];
  nextPageToken: string;
  canDecide: boolean;
  csrf: string;
  notice?: Notice;
}

export function queuePage(tr: ConsoleTranslator, v: QueueView): Html {
  const t = tr.t;
  const head = [
    ...(v.canDecide ? [html`<span class="visually-hidden">${t("bo.payout.select")}</span>`] : []),
    t("bo.tx.trace"),
    t("bo.tx.created"),
    t("bo.payout.waiting"),
    t("bo.tx.merchant"),
    t("bo.tx.order"),
    t("bo.tx.pin"),
    t("bo.tx.amount"),
    t("bo.tx.card"),
    t("bo.payout.fourEyes"),
    html`<span class="visually-hidden">${t("bo.op.actions")}</span>`,
  ];
  const rows = v.payouts.map((p) => {
    const x = p.transaction!;
    return html`<tr>${
      v.canDecide
        ? html`<td><input type="checkbox" name="trace_id" value="${x.traceId}" id="select-${x.traceId}" aria-label="${t("bo.payout.selectOne", { trace: x.traceId })}"></td>`
        : ""
    }<td>${x.traceId}</td><td>${when(tr, x.createTime)}</td><td>${age(tr, x.createTime)}</td><td>${x.merchantId}</td><td><bdi>${x.orderId}</bdi></td><td>${text(x.pin)}</td>
<td class="num">${money(tr, x.amount)}</td><td><bdi dir="ltr">${text(x.card?.maskedNumber)}</bdi></td><td>${fourEyes(tr, p)}</td>
<td><a href="/payouts/${x.traceId}" id="open-${x.traceId}">${v.canDecide ? t("bo.payout.decide") : t("bo.payout.open")}<span class="visually-hidden"> ${x.traceId}</span></a></td></tr>`;
  });
  const numeric = v.canDecide ? [7] : [6];
  const table = dataTable({ id: "queue", caption: t("bo.payout.queueCaption"), head, rows, empty: t("bo.payout.none"), numeric });
  return html`<h1>${t("bo.nav.payouts")}</h1>
${noticeBox(v.notice)}
<p>${t("bo.payout.intro")}</p>
${
  v.canDecide && v.payouts.length
    ? html`<form method="post" action="/payouts/bulk-approve" class="wide">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
<p><label hidden><input type="checkbox" data-select-all="trace_id" hidden> ${t("bo.payout.selectAll")}</label></p>
${table}
<fieldset class="filters"><legend>${t("bo.payout.bulkHeading")}</legend>
${selectField({ name: "reason", id: "bulk-reason", label: t("bo.payout.reason"), options: reasonOptions(tr, [PayoutReason.CHECKS_PASSED, PayoutReason.OTHER]), value: "checks_passed" })}
${textArea({ name: "note", id: "bulk-note", label: t("bo.payout.note"), hint: t("bo.payout.noteHint"), maxlength: NOTE_MAX })}
<div class="actions">${button({ label: t("bo.payout.bulkApprove"), id: "bulk-approve" })}</div>
</fieldset>
${bulkRefuseFieldset(tr)}</form>`
    : table
}
${v.nextPageToken ? html`<nav class="pager" aria-label="${t("bo.search.pages")}"><a href="/payouts?page_token=${encodeURIComponent(v.nextPageToken)}" id="next-page">${t("bo.search.next")}</a></nav>` : ""}`;
}

export interface PayoutView {
  context: GetPayoutContextResponse;
  canDecide: boolean;
  csrf: string;
  login: string;
  errors?: readonly { field: string; message: string }[];
  notice?: Notice;
}

export function payoutPage(tr: ConsoleTranslator, v: PayoutView): Html {
  const t = tr.t;
  const p = v.context.payout!;
  const x = p.transaction!;
  const first = p.firstApproval;
  return html`<h1>${t("bo.payout.title", { trace: x.traceId })}</h1>
${noticeBox(v.notice)}
<dl class="summary">
<dt>${t("bo.tx.status")}</dt><dd>${statusBadge(tr, x.status, x.payoutLetter)}</dd>
<dt>${t("bo.tx.amount")}</dt><dd id="payout-amount">${money(tr, x.amount)}</dd>
<dt>${t("bo.tx.merchant")}</dt><dd>${x.merchantId}</dd>
<dt>${t("bo.tx.order")}</dt><dd><bdi>${x.orderId}</bdi></dd>
<dt>${t("bo.tx.pin")}</dt><dd>${text(x.pin)}</dd>
<dt>${t("bo.tx.card")}</dt><dd><bdi dir="ltr">${text(x.card?.maskedNumber)}</bdi></dd>
<dt>${t("bo.tx.created")}</dt><dd>${when(tr, x.createTime)} (${age(tr, x.createTime)})</dd>
<dt>${t("bo.payout.fourEyes")}</dt><dd>${fourEyes(tr, p)}</dd>
</dl>
${
  p.fourEyesRequired && x.status === TransactionStatus.REQUESTED
    ? html`<div class="notice" role="note" id="four-eyes">${
        first
          ? first.login === v.login
            ? t("bo.payout.fourEyesYours")
            : v.context.secondApprovalIssuedAccess
              ? t("bo.payout.fourEyesIssued")
              : t("bo.payout.fourEyesSecond", { login: first.login, reason: reasonLabel(tr, first.reason) })
          : t("bo.payout.fourEyesFirst")
      }</div>`
    : ""
}
<h2>${t("bo.payout.customer")}</h2>
${dataTable({
  id: "totals",
  caption: t("bo.payout.totals"),
  head: [t("bo.payout.currency"), t("bo.payout.deposited"), t("bo.payout.depositCount"), t("bo.payout.paidOut"), t("bo.payout.payoutCount")],
  rows: v.context.totals.map(
    (c) =>
      html`<tr><td>${c.currency}</td><td class="num">${tr.amount(c.depositsApproved, c.currency)}</td><td class="num">${c.depositCount}</td><td class="num">${tr.amount(c.payoutsApproved, c.currency)}</td><td class="num">${c.payoutCount}</td></tr>`,
  ),
  empty: t("bo.payout.noHistory"),
  numeric: [1, 2, 3, 4],
})}
${dataTable({ id: "deposits", caption: t("bo.payout.deposits"), head: transactionHead(tr), rows: v.context.deposits.map((d) => transactionRow(tr, d)), empty: t("bo.payout.noHistory"), numeric: [6] })}
${dataTable({ id: "previous-payouts", caption: t("bo.payout.previous"), head: transactionHead(tr), rows: v.context.payouts.map((d) => transactionRow(tr, d)), empty: t("bo.payout.noHistory"), numeric: [6] })}
${
  v.canDecide
    ? html`<h2 id="decide-heading">${t("bo.payout.decisionHeading")}</h2>
${v.errors?.length ? html`<div class="notice error" role="alert" id="decision-error">${v.errors.map((e) => e.message).join(" ")}</div>` : ""}
<form method="post" action="/payouts/${x.traceId}/decision" aria-labelledby="decide-heading">
${hiddenFields({ [CSRF_FIELD]: v.csrf })}
${selectField({
  name: "reason",
  label: t("bo.payout.reason"),
  hint: t("bo.payout.reasonHint"),
  options: reasonOptions(tr, Object.keys(REASON_NAMES).map(Number) as PayoutReason[]),
})}
${textArea({ name: "note", label: t("bo.payout.note"), hint: t("bo.payout.noteHint"), maxlength: NOTE_MAX })}
<div class="actions">
${button({ label: t("bo.payout.approve"), id: "approve", name: "decision", value: "approve" })}
${button({ label: t("bo.payout.reject"), id: "reject", name: "decision", value: "reject", variant: "danger" })}
${button({ label: t("bo.payout.cancel"), id: "cancel", name: "decision", value: "cancel", variant: "secondary" })}
</div></form>`
    : ""
}`;
}

export function bulkResultPage(tr: ConsoleTranslator, results: readonly BulkApprovalResult[]): Html {
  const t = tr.t;
  return html`<h1>${t("bo.payout.bulkDone")}</h1>
${dataTable({
  id: "bulk-results",
  caption: t("bo.payout.bulkCaption"),
  head: [t("bo.tx.trace"), t("bo.payout.result")],
  rows: results.map(
    (r) =>
      html`<tr><td><a href="/transactions/${r.traceId}">${r.traceId}</a></td><td>${
        r.error
          ? html`<span class="status bad">${t("bo.payout.failed")}</span> ${r.error}`
          : r.awaitingSecondApproval
            ? html`<span class="status wait">${t("bo.payout.awaitingSecond")}</span>`
            : html`<span class="status good">${t("bo.payout.approved")}</span>`
      }</td></tr>`,
  ),
  empty: t("bo.payout.none"),
})}
<p><a href="/payouts" id="back-to-queue">${t("bo.payout.backToQueue")}</a></p>`;
}
