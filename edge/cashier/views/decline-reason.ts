/**
 * Why a deposit or a withdrawal was declined, and what the customer can do
 * next, in the customer's language: by the transaction's error_code (ISO 8583
 * codes below 100, Cashier's from 9000), never in a processor's own words. A
 * refusal by the platform's Validation (9002) shows the platform's own words
 * when it gave some (platform_message: already plain, bounded and free of card
 * numbers; the view escapes them), below a line of ours that says whose they are.
 */
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { type Html, html } from "../../pages/kit/html.ts";
import type { MessageKey, Translator } from "../../pages/kit/i18n.ts";

/** A deposit's decline reason for the customer, by its error_code. */
export function declineReason(tr: Translator, errorCode: number): string {
  const key: MessageKey =
    errorCode === 51
      ? "cashier.decline.insufficientFunds"
      : errorCode === 5
        ? "cashier.decline.doNotHonour"
        : errorCode === 9001 || errorCode === 91
          ? "cashier.decline.unavailable"
          : errorCode === 9002 || errorCode === 9003
            ? "cashier.decline.validation"
            : errorCode === 9004
              ? "cashier.decline.threeDsFailed"
              : errorCode === 9005
                ? "cashier.decline.threeDsExpired"
                : "cashier.decline.other";
  return tr.t(key);
}

/**
 * A withdrawal's decline: why, and the next step the reason allows. A session makes one payout, so "again" means a
 * new withdrawal from the merchant's site; the merchant's support is who can lift a refusal of theirs (identity
 * checks among them).
 */
export function withdrawalDeclineReason(tr: Translator, errorCode: number): string {
  const key: MessageKey =
    errorCode === 9002
      ? "cashier.withdrawalDecline.platform"
      : errorCode === 9003
        ? "cashier.withdrawalDecline.platformUnavailable"
        : errorCode === 9007
          ? "cashier.withdrawalDecline.operator"
          : errorCode === 9001 || errorCode === 91
            ? "cashier.withdrawalDecline.unavailable"
            : "cashier.withdrawalDecline.card";
  return tr.t(key);
}

/** A decline in one line of plain text (cashier:error's message): the platform's words when it refused with some, else ours. */
export function declinedText(tr: Translator, x: Transaction, deposit: boolean): string {
  const words = x.errorCode === 9002 ? x.platformMessage : "";
  return words || (deposit ? declineReason(tr, x.errorCode) : withdrawalDeclineReason(tr, x.errorCode));
}

/** The result page's message for a declined transaction: the platform's words when it refused with some, else ours. */
export function declinedMessage(tr: Translator, x: Transaction, deposit: boolean): Html {
  const words = x.errorCode === 9002 ? x.platformMessage : "";
  if (!words) return html`<p id="result-message">${deposit ? declineReason(tr, x.errorCode) : withdrawalDeclineReason(tr, x.errorCode)}</p>`;
  return html`<p id="result-message">${tr.t(deposit ? "cashier.platformWords.deposit" : "cashier.platformWords.withdrawal")}</p>
<blockquote id="platform-message" class="platform-words"><p>${words}</p></blockquote>
${deposit ? "" : html`<p id="result-next">${tr.t("cashier.withdrawalDecline.platformNext")}</p>`}`;
}
