/**
 * The deposit status notification (CONTRACT section 6): the Process reply's
 * members (seed 2.2) plus order_id, transaction_type, amount and currency,
 * signed with `signature` over the canonical string, as the reply is.
 */
import type { Attempt } from "../domain/transaction.ts";
import { describeAttempt } from "../app/describe.ts";
import { wireAmount } from "../domain/money.ts";
import type { HmacKey } from "../security/hmac.ts";
import { processReplyBody, signBody } from "./process-reply-codec.ts";

export function notificationBody(a: Attempt, key: HmacKey): string {
  const body = {
    ...processReplyBody(a, describeAttempt(a)),
    order_id: a.orderId,
    transaction_type: a.type,
    amount: wireAmount(a.amountMinor, a.currency),
    currency: a.currency,
  };
  return JSON.stringify({ ...body, signature: signBody(key, body) });
}
