/**
 * The deposit status notification (CONTRACT section 6): the Process reply's
 * members (seed 2.2, engine/shared/wire/process-reply.ts) plus order_id, transaction_type, amount and currency,
 * signed with `signature` over the canonical string, as the reply is. The
 * signature is added at send time, so a retry after a secret rotation is
 * signed with the new secret, like the header-signed callbacks.
 */
import type { Attempt } from "../../shared/transaction.ts";
import { describeAttempt } from "../domain/describe.ts";
import { wireAmount } from "../../shared/money.ts";
import type { HmacKey } from "../../shared/hmac.ts";
import { signBody, type Scalar } from "../../shared/canonical.ts";
import { processedMembers } from "../../shared/wire/process-reply.ts";

/** The members, unsigned: what the outbox keeps (signed when sent, with the secret current then). */
export function notificationMembers(a: Attempt): string {
  return JSON.stringify({
    ...processedMembers(a, describeAttempt(a)),
    order_id: a.orderId,
    transaction_type: a.type,
    amount: wireAmount(a.amountMinor, a.currency),
    currency: a.currency,
  });
}

/** The body as sent: the members plus `signature` over their canonical string. */
export function signNotification(members: string, key: HmacKey): string {
  const body = JSON.parse(members) as Record<string, Scalar>;
  return JSON.stringify({ ...body, signature: signBody(key, body) });
}

export function notificationBody(a: Attempt, key: HmacKey): string {
  return signNotification(notificationMembers(a), key);
}
