/**
 * UpdatePayout (seed 2.5): PascalCase, money in major units with the
 * currency's decimals. Signed in the X-Cashier-Signature header at send time,
 * not in the body.
 */
import type { Attempt } from "../../shared/transaction.ts";
import { Decimal, jsonText } from "./json-text.ts";

export function updatePayoutBody(a: Attempt, siteId: number | null, updatedBy: string): string {
  return jsonText({
    PIN: a.pin,
    SiteID: siteId ?? undefined,
    FrontEndName: a.frontend,
    TraceID: a.traceId,
    ExtPayoutID: a.orderId,
    Status: a.payoutLetter,
    PP: a.processor,
    TransactionID: a.transactionId ?? "",
    UpdatedBy: updatedBy,
    Amount: new Decimal(a.amountMinor, a.currency),
    Currency: a.currency,
    Fee: new Decimal(0, a.currency),
  });
}
