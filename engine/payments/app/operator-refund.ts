/**
 * A refund an operator makes (the Backoffice's money actions): the same rules
 * as a Process refund (an approved sale, the sale's currency, at most what
 * remains refundable, a processor that refunds), without a card number: it
 * goes back to the sale's card through the sale's account and payment id,
 * which is what a Process refund's card number is checked against. The order
 * is the operator's (`created_by` backoffice:<login>) under an order_id made
 * from the console form's own key, so a form sent twice refunds once; the
 * platform hears its result at the sale's notification_url, as for any
 * refund. `alongside` (the operator's audit row) commits with the refund.
 */
import { describeViolations, domainError, DomainFailure, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { fingerprint } from "../../shared/hmac.ts";
import { formatMajor } from "../../shared/money.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { INITIAL_STATE } from "../domain/transitions.ts";
import type { Alongside, OrderDraft, RefundableSale } from "../ports/orders.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { runAttempt } from "./run-attempt.ts";

/** What an operator asks for: which sale, how much, who (`backoffice:<login>`), and the order_id it goes under. */
export interface OperatorRefund {
  saleTraceId: number;
  amountMinor: number;
  currency: string;
  createdBy: string;
  orderId: string;
}

export type OperatorRefundResult = { ok: true; attempt: Attempt; replayed: boolean } | { ok: false; error: DomainError };

const fail = (error: DomainError): OperatorRefundResult => ({ ok: false, error });

/**
 * Why the sale cannot be refunded at all now (not a sale, not approved, its processor makes no refunds), or
 * undefined; the amount is judged apart. The console asks this to offer the form, and the refund asks it again.
 */
export async function refundRefusal(deps: ProcessDeps, sale: Attempt | undefined): Promise<DomainError | undefined> {
  if (sale?.type !== "sale") return domainError("NOT_FOUND", "no sale with this trace_id");
  if (sale.status !== "approved")
    return domainError("REFERENCE_NOT_REFUNDABLE", `the sale is ${sale.status}: only approved sales can be refunded`, [
      { field: "trace_id", description: `the sale is ${sale.status}` },
    ]);
  const merchant = await deps.merchants.get(sale.merchantId);
  if (!merchant) return domainError("NOT_FOUND", `the sale's merchant ${sale.merchantId} no longer exists`);
  const able = deps.processors.capability(sale.processor, "refund", merchant);
  return able.ok ? undefined : { ...able.error, violations: [{ field: "trace_id", description: able.error.message }] };
}

/** The amount's and currency's faults against the sale, named by field (the remainder is the store's, under the sale's lock). */
export function refundAmountFaults(sale: Pick<Attempt, "currency" | "amountMinor">, amountMinor: number, currency: string): FieldViolation[] {
  const faults: FieldViolation[] = [];
  if (currency !== sale.currency) faults.push({ field: "currency", description: `must be the sale's currency ${sale.currency}` });
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0)
    faults.push({ field: "amount", description: "must be a positive whole number of the currency's minor units" });
  else if (amountMinor > sale.amountMinor)
    faults.push({ field: "amount", description: `exceeds the sale's amount of ${formatMajor(sale.amountMinor, sale.currency)} ${sale.currency}` });
  return faults;
}

export async function refundByOperator(deps: ProcessDeps, r: OperatorRefund, alongside?: Alongside): Promise<OperatorRefundResult> {
  const a = await deps.orders.get(r.saleTraceId);
  const refused = await refundRefusal(deps, a);
  if (refused || !a) return fail(refused ?? domainError("NOT_FOUND", "no sale with this trace_id"));
  const faults = refundAmountFaults(a, r.amountMinor, r.currency);
  if (faults.length > 0) return fail(domainError("INVALID_FIELDS", describeViolations(faults), faults));
  const merchant = await deps.merchants.get(a.merchantId);
  // The sale as a refund names it: by trace_id, its processor's payment id and its card's fingerprint.
  const sale: RefundableSale | undefined = await deps.orders.findSale(a.merchantId, String(a.traceId));
  const customer = await deps.orders.customer(a.orderRef);
  if (!merchant || !sale || sale.traceId !== a.traceId || !customer) return fail(domainError("NOT_FOUND", `no sale with trace_id ${a.traceId}`));
  const draft: OrderDraft = {
    merchantId: a.merchantId,
    orderId: r.orderId,
    type: "refund",
    // The same form sent again is the same refund; the same key with another amount is a conflict.
    fingerprint: fingerprint(deps.keys.orderFingerprint, JSON.stringify({ operatorRefund: a.traceId, amount: r.amountMinor, currency: r.currency })),
    amountMinor: r.amountMinor,
    currency: a.currency,
    frontend: a.frontend,
    pin: a.pin,
    customer,
    cardMasked: a.cardMasked,
    cardBrand: a.cardBrand,
    cardExpiry: a.cardExpiry,
    cardFingerprint: sale.cardFingerprint,
    returnUrl: a.returnUrl,
    notificationUrl: a.notificationUrl,
    referenceTraceId: a.traceId,
    processor: sale.processor,
    initial: INITIAL_STATE.refund,
    origin: { createdBy: r.createdBy, sessionRef: null, scOrderId: null, udef1: null, udef2: null },
  };
  let created: Awaited<ReturnType<ProcessDeps["orders"]["createOrder"]>>;
  try {
    created = await deps.orders.createOrder(draft, alongside);
  } catch (err) {
    if (err instanceof DomainFailure) return fail(err.error);
    throw err;
  }
  if ("withdrawalSession" in created) return fail(domainError("ORDER_CONFLICT", `order_id ${r.orderId} names a hosted Cashier withdrawal session`));
  if (!created.created) {
    if (created.fingerprint !== draft.fingerprint)
      return fail(
        domainError("ORDER_CONFLICT", "request_id: this form's key was used for another refund; open the form again", [
          { field: "request_id", description: "was used for another refund" },
        ]),
      );
    return { ok: true, attempt: created.first, replayed: true };
  }
  // No card number: the refund goes to the sale's payment; the platform, which made no request, hears every change.
  const ctx = { merchant, afterReply: true, updatedBy: r.createdBy };
  const attempt = await runAttempt(deps, { attempt: created.attempt, card: { number: "", cvv: "", expiry: a.cardExpiry }, sale, ctx });
  return { ok: true, attempt, replayed: false };
}
