/**
 * Which callbacks a status change owes (CONTRACT section 6), as data for the
 * outbox, written in the same statement as the change:
 * - a deposit status notification to the request's notification_url, for a
 *   change after the Process reply (what the reply showed is not repeated), or
 *   one inside the call once a repeated request has answered an earlier state;
 *   also for an attempt's first result that no reply told, when it stays as
 *   created (advance's `firstResult`);
 * - UpdatePayout when a payout's letter changes and the merchant asked for it;
 * - RecordFailedDeposit when a sale ends N or E (once: a unique index).
 */
import { randomUUID } from "node:crypto";
import type { Attempt } from "../../shared/transaction.ts";
import { notificationMembers } from "../callbacks/notification-codec.ts";
import { recordFailedDepositBody } from "../callbacks/record-failed-deposit-codec.ts";
import { updatePayoutBody } from "../callbacks/update-payout-codec.ts";
import type { Merchant } from "../ports/merchants.ts";
import type { OutboxEntry } from "../ports/orders.ts";

export interface ChangeContext {
  /** True when the change happens after the Process reply (workers, the customer, operators). */
  afterReply: boolean;
  /** UpdatePayout's UpdatedBy: "system" or "operator:<name>". */
  updatedBy: string;
}

const base = (url: string) => url.replace(/\/+$/, "");

/** Where UpdatePayout goes: update_payout_url, else {platform_url}/UpdatePayout, else nowhere. */
export function updatePayoutUrl(m: Merchant): string | null {
  return m.updatePayoutUrl || (m.platformUrl ? `${base(m.platformUrl)}/UpdatePayout` : null);
}

export function owedCallbacks(before: Attempt, after: Attempt, merchant: Merchant, ctx: ChangeContext): OutboxEntry[] {
  const out: OutboxEntry[] = [];
  const entry = (kind: OutboxEntry["kind"], url: string, body: string, ifReplied = false) =>
    out.push({ eventId: randomUUID(), kind, merchantId: merchant.id, url, body, ifReplied });
  // Inside the Process call the reply tells the result, unless a repeated
  // request already answered an earlier state: then the statement writes it.
  if (after.notificationUrl) entry("notification", after.notificationUrl, notificationMembers(after), !ctx.afterReply);
  const payoutUrl = updatePayoutUrl(merchant);
  if (
    after.type === "payout" &&
    after.payoutLetter &&
    after.payoutLetter !== before.payoutLetter &&
    payoutUrl &&
    merchant.updatePayoutStatuses.includes(after.payoutLetter)
  ) {
    entry("update_payout", payoutUrl, updatePayoutBody(after, merchant.siteId, ctx.updatedBy));
  }
  if (after.type === "sale" && after.status === "declined" && after.depositState && merchant.platformUrl) {
    entry("record_failed_deposit", `${base(merchant.platformUrl)}/RecordFailedDeposit`, recordFailedDepositBody(after, merchant.siteId));
  }
  return out;
}
