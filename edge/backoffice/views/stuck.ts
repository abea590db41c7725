/**
 * Stuck and failing work: callbacks given up or failing again and again
 * (with a redeliver button where the role allows), and transactions left
 * non-final past the bound (each a link to its detail, with a "check now"
 * button where the role allows).
 */
import type { ListStuckWorkResponse } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { dataTable } from "./controls.ts";
import { age, callbackBadge, kindName, text, when } from "./format.ts";
import { noticeBox } from "./gate.ts";
import type { Notice } from "./model.ts";
import { checkRowButton } from "./check.ts";
import { transactionHead, transactionRow } from "./transactions.ts";

export function stuckPage(
  tr: ConsoleTranslator,
  w: ListStuckWorkResponse,
  v: { canRedeliver: boolean; canCheck?: boolean; csrf: string; minutes: number; notice?: Notice },
): Html {
  const t = tr.t;
  return html`<h1>${t("bo.nav.stuck")}</h1>
${noticeBox(v.notice)}
<h2>${t("bo.stuck.callbacks")}</h2>
${dataTable({
  id: "failing-callbacks",
  caption: t("bo.stuck.callbacksCaption"),
  head: [
    t("bo.tx.trace"),
    t("bo.dash.kind"),
    t("bo.tx.merchant"),
    t("bo.tx.status"),
    t("bo.cb.attempts"),
    t("bo.stuck.lastError"),
    t("bo.cb.created"),
    html`<span class="visually-hidden">${t("bo.op.actions")}</span>`,
  ],
  rows: w.failingCallbacks.map((c) => {
    const last = c.attempts.at(-1);
    return html`<tr><td><a href="/transactions/${c.traceId}">${c.traceId}</a></td><td>${kindName(tr, c.kind)}</td><td>${c.merchantId}</td><td>${callbackBadge(tr, c.state)}</td>
<td class="num">${c.attemptCount}</td><td>${text(last ? `${last.httpStatus || ""} ${last.error || last.outcome}`.trim() : "")}</td><td>${when(tr, c.createTime)}</td><td>${
      v.canRedeliver
        ? html`<form method="post" action="/stuck/callbacks/${c.id.toString()}/redeliver">${hiddenFields({ [CSRF_FIELD]: v.csrf })}${button({
            label: t("bo.cb.redeliver"),
            id: `redeliver-${c.id}`,
            variant: "secondary",
          })}</form>`
        : ""
    }</td></tr>`;
  }),
  empty: t("bo.stuck.noCallbacks"),
  numeric: [4],
})}
<h2>${t("bo.stuck.transactions")}</h2>
${dataTable({
  id: "stuck-transactions",
  caption: t("bo.stuck.transactionsCaption", { minutes: v.minutes }),
  head: [...transactionHead(tr), t("bo.payout.waiting"), ...(v.canCheck ? [t("bo.check.column")] : [])],
  rows: w.stuckTransactions.map((x) =>
    transactionRow(
      tr,
      x,
      html`<td>${age(tr, x.updateTime, w.asOf ? timestampMs(w.asOf) : Date.now())}</td>${v.canCheck ? html`<td>${w.checkOfferedTraceIds.includes(x.traceId) ? checkRowButton(tr, x.traceId, v.csrf) : ""}</td>` : ""}`,
    ),
  ),
  empty: t("bo.stuck.noTransactions"),
  numeric: [6],
})}`;
}
