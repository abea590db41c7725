/**
 * What a status lookup is about (processor.ts LookupAbout): the attempt's type
 * and, for a refund, its sale's processor id. Checkout.com keeps a refund among
 * its sale's actions, so a refund whose answer was lost is found there by our
 * reference, not among payments (where it would find nothing, or the sale).
 */
import type { Attempt } from "../../shared/transaction.ts";
import type { LookupAbout } from "../processors/processor.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";

export async function lookupAbout(deps: Pick<ProcessDeps, "orders">, a: Attempt): Promise<LookupAbout> {
  if (a.type !== "refund") return { type: a.type };
  const sale = a.referenceTraceId === null ? undefined : await deps.orders.get(a.referenceTraceId);
  return { type: "refund", saleTransactionId: sale?.transactionId ?? "" };
}
