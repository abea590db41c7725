/**
 * The payout queue's money actions beside its decisions (docs/backoffice-operations.md, Money actions): holding a
 * waiting payout and releasing it (a section of the payout's page; the held payouts listed apart under the queue),
 * and bulk rejection or cancellation of the selected payouts, reviewed on a page that lists each payout with its
 * amount and currency and the totals per currency before anything is sent. Plain POST forms; the engine checks the
 * role (payout.hold, payout.decide) and the payouts' states again.
 */
import type { BulkApprovalResult, PayoutHold, QueuedPayout } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { PayoutReason } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import { NOTE_MAX } from "../../../engine/shared/payout-reasons.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { dataTable, selectField, textArea } from "./controls.ts";
import { age, money, REASON_NAMES, reasonLabel, when } from "./format.ts";
import { MONEY_REASON_MAX, amountWithCode } from "./money-actions.ts";

/** The reasons a rejection or cancellation may give (an approval's checks_passed is not one). */
const REFUSAL_REASONS = (Object.keys(REASON_NAMES).map(Number) as PayoutReason[]).filter((r) => r !== PayoutReason.CHECKS_PASSED);

/** The payout page's hold section: who holds it and a release, or a hold with a reason. */
export function holdSection(tr: ConsoleTranslator, v: { traceId: number; hold?: PayoutHold; csrf: string }): Html {
  const t = tr.t;
  const action = v.hold ? "release" : "hold";
  return html`<section class="card" aria-labelledby="hold-title">
<h2 id="hold-title">${t("bo.money.holdTitle")}</h2>
${v.hold ? html`<p class="notice" role="note" id="held-by">${t("bo.money.heldBy", { login: v.hold.login, reason: v.hold.reason })} (${when(tr, v.hold.time)})</p>` : html`<p>${t("bo.money.holdExplain")}</p>`}
<form method="post" action="/payouts/${v.traceId}/${action}">${hiddenFields({ [CSRF_FIELD]: v.csrf })}
${textArea({ name: "reason", id: `${action}-reason`, label: t("bo.money.reason"), hint: t("bo.money.reasonHint"), maxlength: MONEY_REASON_MAX })}
<div class="actions">${button({ label: t(v.hold ? "bo.money.releaseButton" : "bo.money.holdButton"), id: `${action}-payout`, variant: "secondary" })}</div></form>
</section>`;
}

/** The payouts on hold, under the queue. */
export function heldTable(tr: ConsoleTranslator, payouts: readonly QueuedPayout[]): Html {
  const t = tr.t;
  return html`<h2 id="held-heading">${t("bo.money.heldHeading")}</h2>
${dataTable({
  id: "held",
  caption: t("bo.money.heldCaption"),
  head: [t("bo.tx.trace"), t("bo.payout.waiting"), t("bo.tx.merchant"), t("bo.tx.amount"), t("bo.money.heldColumn")],
  rows: payouts.map((p) => {
    const x = p.transaction!;
    return html`<tr><td><a href="/payouts/${x.traceId}" id="held-${x.traceId}">${x.traceId}</a></td><td>${age(tr, x.createTime)}</td><td>${x.merchantId}</td><td class="num">${money(tr, x.amount)}</td><td>${p.hold ? t("bo.money.heldBy", { login: p.hold.login, reason: p.hold.reason }) : ""}</td></tr>`;
  }),
  empty: t("bo.money.noneHeld"),
  numeric: [3],
})}`;
}

/** Inside the queue's bulk form: a refusal's reason and note, and two buttons that send the selection to review. */
export function bulkRefuseFieldset(tr: ConsoleTranslator): Html {
  const t = tr.t;
  const options = [{ value: "", label: t("bo.payout.chooseReason") }, ...REFUSAL_REASONS.map((r) => ({ value: REASON_NAMES[r], label: reasonLabel(tr, r) }))];
  return html`<fieldset class="filters"><legend>${t("bo.money.bulkRefuseHeading")}</legend>
${selectField({ name: "refusal_reason", id: "bulk-refusal-reason", label: t("bo.payout.reason"), options })}
${textArea({ name: "refusal_note", id: "bulk-refusal-note", label: t("bo.payout.note"), hint: t("bo.payout.noteHint"), maxlength: NOTE_MAX })}
<div class="actions"><button type="submit" class="button danger" id="bulk-reject" name="decision" value="reject" formaction="/payouts/bulk-decide">${t("bo.money.bulkReject")}</button>
<button type="submit" class="button secondary" id="bulk-cancel" name="decision" value="cancel" formaction="/payouts/bulk-decide">${t("bo.money.bulkCancel")}</button></div>
</fieldset>`;
}

export interface BulkConfirmView {
  decision: "reject" | "cancel";
  payouts: readonly Transaction[];
  reason: string;
  note: string;
  csrf: string;
}

/** Each selected payout with its amount, the totals per currency, and the one button that decides them all. */
export function bulkConfirmPage(tr: ConsoleTranslator, v: BulkConfirmView): Html {
  const t = tr.t;
  const verb = t(v.decision === "reject" ? "bo.money.reject" : "bo.money.cancel");
  const totals = new Map<string, bigint>();
  for (const x of v.payouts) if (x.amount) totals.set(x.amount.currency, (totals.get(x.amount.currency) ?? 0n) + x.amount.amountMinor);
  const sum = [...totals].map(([c, m]) => amountWithCode(tr, m, c)).join(", ");
  return html`<h1>${t("bo.money.confirmBulkTitle", { decision: verb, count: v.payouts.length })}</h1>
<p id="confirm-what">${t("bo.money.confirmBulk", { decision: verb, totals: sum })}</p>
<form method="post" action="/payouts/bulk-decide">${hiddenFields({ [CSRF_FIELD]: v.csrf, decision: v.decision, refusal_reason: v.reason, refusal_note: v.note, step: "confirm" })}
${v.payouts.map((x) => hiddenFields({ trace_id: String(x.traceId) }))}
${dataTable({
  id: "bulk-review",
  caption: t("bo.money.bulkReviewCaption"),
  head: [t("bo.tx.trace"), t("bo.tx.merchant"), t("bo.tx.order"), t("bo.tx.amount")],
  rows: v.payouts.map(
    (x) =>
      html`<tr><td>${x.traceId}</td><td>${x.merchantId}</td><td><bdi>${x.orderId}</bdi></td><td class="num">${amountWithCode(tr, x.amount?.amountMinor ?? 0n, x.amount?.currency ?? "")}</td></tr>`,
  ),
  empty: t("bo.payout.none"),
  numeric: [3],
})}
<div class="actions">${button({ label: t("bo.money.confirmBulkButton", { decision: verb, count: v.payouts.length }), id: "bulk-confirm", variant: "danger" })}
<a href="/payouts" class="button secondary" id="bulk-back">${t("bo.money.back")}</a></div></form>`;
}

/** One line per payout of a bulk rejection or cancellation: done, or why not. */
export function bulkDecidedPage(tr: ConsoleTranslator, decision: "reject" | "cancel", results: readonly BulkApprovalResult[]): Html {
  const t = tr.t;
  const done = t(decision === "reject" ? "bo.money.rejected" : "bo.money.cancelledResult");
  return html`<h1>${t("bo.money.bulkDone")}</h1>
${dataTable({
  id: "bulk-results",
  caption: t("bo.payout.bulkCaption"),
  head: [t("bo.tx.trace"), t("bo.payout.result")],
  rows: results.map(
    (r) =>
      html`<tr><td><a href="/transactions/${r.traceId}">${r.traceId}</a></td><td>${r.error ? html`<span class="status bad">${t("bo.payout.failed")}</span> ${r.error}` : html`<span class="status good">${done}</span>`}</td></tr>`,
  ),
  empty: t("bo.payout.none"),
})}
<p><a href="/payouts" id="back-to-queue">${t("bo.payout.backToQueue")}</a></p>`;
}
