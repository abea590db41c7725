/**
 * Withdrawing a refund request that waits for its second approval (docs/backoffice-operations.md, Money actions): the
 * form under the waiting request on the sale's detail page, and the confirmation page it leads to, which names the
 * request (who asked, the amount with its currency) before anything changes. Plain POST forms (CSRF token, a reason,
 * real buttons, no script needed). The form is offered by the engine's own rule (the operator who asked, or an
 * admin); the engine judges it again on the call, and refuses anyone else whatever they post.
 */
import type { RefundApproval } from "../../../gen/cashier/admin/v1/console_money_service_pb.js";
import { button, hiddenFields } from "../../pages/kit/components.ts";
import { CSRF_FIELD } from "../../pages/kit/csrf.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";
import { textArea } from "./controls.ts";

/** The reason's longest text, as the engine takes it (as the other money actions' reasons). */
const REASON_MAX = 255;

/** Where the withdrawal of sale `traceId`'s waiting request is posted, review and confirmation alike. */
const withdrawPath = (traceId: number) => `/transactions/${traceId}/refund-request/withdraw`;

/**
 * Whether the signed-in operator may withdraw `first`: the engine's rule (WithdrawRefundRequest: the operator who
 * asked, or an admin), used only to hide the button from others; the engine decides on the call.
 */
export const mayWithdraw = (first: RefundApproval, login: string, role: string): boolean => first.login === login || role === "admin";

/** The withdraw form shown under the waiting request. */
export function withdrawForm(tr: ConsoleTranslator, traceId: number, csrf: string): Html {
  const t = tr.t;
  return html`<h3 id="withdraw-title">${t("bo.money.withdrawTitle")}</h3>
<p>${t("bo.money.withdrawExplain")}</p>
<form method="post" action="${withdrawPath(traceId)}">${hiddenFields({ [CSRF_FIELD]: csrf, step: "review" })}
${textArea({ name: "reason", id: "withdraw-reason", label: t("bo.money.reason"), hint: t("bo.money.reasonHint"), maxlength: REASON_MAX })}
<div class="actions">${button({ label: t("bo.money.withdrawButton"), id: "withdraw-review", variant: "secondary" })}</div></form>`;
}

export interface WithdrawConfirmView {
  traceId: number;
  /** The request as the engine showed it when the review was asked for. */
  first: RefundApproval;
  /** The amount with its currency code, as the detail page writes it. */
  amount: string;
  reason: string;
  csrf: string;
}

/** The page between the withdraw form and the call: which request goes, and one button; *Back* changes nothing. */
export function withdrawConfirmPage(tr: ConsoleTranslator, v: WithdrawConfirmView): Html {
  const t = tr.t;
  return html`<h1>${t("bo.money.confirmWithdrawTitle")}</h1>
<p id="confirm-what">${t("bo.money.confirmWithdraw", { login: v.first.login, amount: v.amount, trace: v.traceId })}</p>
<p id="confirm-reason">${t("bo.money.confirmReason", { reason: v.reason })}</p>
<form method="post" action="${withdrawPath(v.traceId)}">${hiddenFields({ [CSRF_FIELD]: v.csrf, reason: v.reason, step: "confirm" })}
<div class="actions">${button({ label: t("bo.money.confirmWithdrawButton"), id: "withdraw-confirm", variant: "danger" })}
<a href="/transactions/${v.traceId}" class="button secondary" id="withdraw-back">${t("bo.money.back")}</a></div></form>`;
}
