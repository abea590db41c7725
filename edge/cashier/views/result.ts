/**
 * The result of a deposit or withdrawal made in the session: approved with a
 * receipt and "Continue" to the merchant's return_url; declined with the
 * reason a customer may see (from the catalogue, by decline code) and "Try
 * another card" (a fresh form: the next submit is a new order); not final yet
 * with a page that follows the transaction (a refresh without scripts, a
 * status poll with them). The page carries its cashier:result event, and a
 * decline its cashier:error (code `declined`).
 */
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { TransactionStatus, TransactionType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { amountDisplay, linkButton, pathButton } from "../../pages/kit/components.ts";
import { type Html, html } from "../../pages/kit/html.ts";
import type { MessageKey, Translator } from "../../pages/kit/i18n.ts";
import { declinedMessage, declinedText } from "./decline-reason.ts";
import { withParent } from "../../pages/kit/security.ts";
import { sessionPath } from "../paths.ts";
import { statusWord } from "../../wire/status-words.ts";
import { type CashierPage, type PageContext, type SessionFrame, isFinal, sessionPage } from "./page.ts";
import { brandName } from "./parts.ts";
import { dateText } from "./withdrawal.ts";

/** Seconds between two looks at a transaction that is not final. */
export const FOLLOW_SECONDS = 2;

/** "Try another card" keeps the amount: the deposit page shows it again (its minor units; the page checks it is the session's currency). */
function retryAmount(x: Transaction): Record<string, string> {
  return x.amount ? { amount: String(x.amount.amountMinor) } : {};
}

function headingKey(x: Transaction): MessageKey {
  const deposit = x.transactionType !== TransactionType.PAYOUT;
  switch (x.status) {
    case TransactionStatus.APPROVED:
      return deposit ? "cashier.result.deposit.approved" : "cashier.result.withdrawal.approved";
    case TransactionStatus.DECLINED:
      return deposit ? "cashier.result.deposit.declined" : "cashier.result.withdrawal.declined";
    case TransactionStatus.CANCELLED:
      return deposit ? "cashier.result.deposit.cancelled" : "cashier.result.withdrawal.cancelled";
    case TransactionStatus.REQUESTED:
      return "cashier.result.withdrawal.requested";
    default:
      return deposit ? "cashier.result.deposit.pending" : "cashier.result.withdrawal.pending";
  }
}

function receipt(tr: Translator, x: Transaction): Html {
  const t = tr.t;
  const card = x.card?.maskedNumber
    ? html`<dt>${t("cashier.receipt.card")}</dt><dd id="receipt-card"><bdi dir="ltr">${x.card.brand ? `${brandName(x.card.brand)} ` : ""}${x.card.maskedNumber}</bdi></dd>`
    : "";
  return html`<dl class="receipt">
<dt>${t("cashier.receipt.order")}</dt><dd id="receipt-order"><bdi>${x.orderId}</bdi></dd>
<dt>${t("cashier.receipt.reference")}</dt><dd id="receipt-reference"><bdi>${String(x.traceId)}</bdi></dd>
<dt>${t("cashier.receipt.amount")}</dt><dd id="receipt-amount">${amountDisplay(tr, x.amount?.amountMinor ?? 0n, x.amount?.currency ?? "")}</dd>
${card}
<dt>${t("cashier.receipt.date")}</dt><dd id="receipt-date">${dateText(tr, x)}</dd>
</dl>`;
}

export function resultPage(c: PageContext, f: SessionFrame, x: Transaction): CashierPage {
  const { tr } = c;
  const t = tr.t;
  const deposit = x.transactionType !== TransactionType.PAYOUT;
  const intent = deposit ? "deposit" : "withdrawal";
  const final = isFinal(x.status);
  // declined_retry is not the order's end: the cascade's next attempt follows (the route moves to it).
  const declined = x.status === TransactionStatus.DECLINED;
  const approvedDeposit = deposit && x.status === TransactionStatus.APPROVED;
  const event = JSON.stringify({ intent, trace_id: x.traceId, order_id: x.orderId, transaction_status: statusWord(x.status) });
  const self = sessionPath(f.sessionToken, `result/${x.traceId}`, f.parent);
  const following = !final && x.status !== TransactionStatus.REQUESTED;
  // A 3-D Secure check still open: the way to it, for a customer who reached this page without passing it (a form sent twice).
  const open = x.status === TransactionStatus.PENDING_ASYNC && x.redirectUrl !== "";
  const challenge = open ? linkButton(t("cashier.result.challenge"), withParent(x.redirectUrl, f.parent), "challenge") : "";
  const cont = linkButton(t("kit.continue"), f.session.returnUrl, "continue", {
    target: "_top",
    closes: true,
    variant: (declined && deposit) || open ? "secondary" : "primary",
  });

  let message: Html;
  if (x.status === TransactionStatus.APPROVED && deposit) message = html`<p id="result-message">${t("cashier.result.deposit.approvedBody")}</p>`;
  else if (declined) message = declinedMessage(tr, x, deposit);
  else if (x.status === TransactionStatus.REQUESTED) message = html`<p id="result-message">${t("cashier.result.requestedBody")}</p>`;
  else if (following) message = html`<p id="result-message" role="status">${t("cashier.result.pendingBody")}</p>`;
  else message = html``;

  const actions = html`<p class="actions">${challenge}${
    declined && deposit ? pathButton(t("cashier.tryAgain"), sessionPath(f.sessionToken, "deposit", f.parent, retryAmount(x)), "try-again") : ""
  }${approvedDeposit && !f.session.amount ? pathButton(t("cashier.depositAgain"), sessionPath(f.sessionToken, "deposit", f.parent), "deposit-again", "secondary") : ""}${following ? pathButton(t("cashier.result.refresh"), self, "refresh", "secondary") : ""}${
    !deposit ? pathButton(t("cashier.backToWithdrawal"), sessionPath(f.sessionToken, "withdrawal", f.parent), "back", "secondary") : ""
  }${cont}</p>`;

  // A declined card is a refusal the customer can act on (another card): cashier:error beside cashier:result.
  const refusal = declined
    ? html` data-cashier-error="${JSON.stringify({ code: "declined", message: declinedText(tr, x, deposit), error_code: x.errorCode })}"`
    : "";
  const body = html`<div data-cashier-result="${event}"${refusal}${following ? html` data-follow="${sessionPath(f.sessionToken, `result/${x.traceId}/status`)}"` : ""} data-status="${statusWord(x.status)}">
<h1>${t(headingKey(x))}</h1>
${message}
${receipt(tr, x)}
${actions}
</div>`;
  return sessionPage(c, f, { title: t(headingKey(x)), body, refreshWithoutScript: following ? FOLLOW_SECONDS : undefined });
}
