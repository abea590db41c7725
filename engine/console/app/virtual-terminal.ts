/**
 * The Virtual Terminal (docs/backoffice-operations.md): a card sale an operator keys in for a customer on the phone.
 * The console's own rules come first (the reason, the form's key, the merchant scope), then the sale goes through
 * Process's use case itself (the frontend's rules, blocks and risk rules, the platform's Validation, routing and
 * cascade, callbacks) as an order made by `backoffice:<login>`, which payments sends MOTO (no 3-D Secure). The order
 * is bo-moto-<request_id>: the same form sent twice charges once. The card lives only in this call and the attempt's
 * own sealed copy, as for any sale; nothing here keeps it, and no card is saved. Every call is audited, a refused one
 * too, after the sale's answer: the sale itself, made by the operator, is the record of the charge.
 */
import { canonicalJson } from "../domain/audit-chain.ts";
import { inScope } from "../domain/operator-roles.ts";
import { describeViolations, domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { API_VERSION, type Attempt, type CustomerInput } from "../../shared/transaction.ts";
import { motoNotificationUrl, processTransaction, type ProcessDeps } from "../../payments/index.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import { actionReasonFaults } from "./action-reason.ts";
import { REQUEST_ID } from "./console-refunds.ts";
import type { SignedIn } from "./console-session.ts";

/** What the Virtual Terminal's form sends (minor units; the card only as far as this call). */
export interface MotoForm {
  merchantId: string;
  frontend: string;
  amountMinor: number;
  currency: string;
  customer: Omit<CustomerInput, "requesterIp">;
  card: { number: string; cvv: string; expiry: string };
  reason: string;
  requestId: string;
}

export type MotoResult = { ok: true; attempt: Attempt; replayed: boolean } | { ok: false; error: DomainError };

/** The order a form's key names: one sale per key. */
export const motoOrderId = (requestId: string) => `bo-moto-${requestId}`;

/** The console's own faults of the form (reason, request_id), before any payment rule. */
export function motoFormFaults(form: Pick<MotoForm, "reason" | "requestId">): FieldViolation[] {
  const faults = actionReasonFaults(form.reason);
  if (!REQUEST_ID.test(form.requestId)) faults.push({ field: "request_id", description: "must be 8 to 40 of A-Z, a-z, 0-9, '-' and '_'" });
  return faults;
}

export async function takeMotoPayment(deps: ProcessDeps & BackofficeDeps, who: SignedIn, form: MotoForm): Promise<MotoResult> {
  const login = who.scope.login;
  const base = { actor: login, action: "transaction.moto", clientAddress: who.caller.clientAddress };
  const refuse = async (error: DomainError, merchantId?: string): Promise<MotoResult> => {
    await deps.audit.append({ ...base, target: `merchant:${merchantId ?? ""}`, outcome: "failure", merchantId, detail: error.message });
    return { ok: false, error };
  };
  // A merchant outside the scope is not named, in the answer or the audit row.
  const merchant = inScope(who.scope, form.merchantId) ? await deps.merchants.get(form.merchantId) : undefined;
  if (!merchant)
    return refuse(domainError("NOT_FOUND", `no merchant ${form.merchantId}`, [{ field: "merchant_id", description: "names no merchant of yours" }]));
  const faults = motoFormFaults(form);
  if (faults.length > 0) return refuse(domainError("INVALID_FIELDS", describeViolations(faults), faults), merchant.id);
  const text = form.reason.trim();
  const result = await processTransaction(
    deps,
    {
      merchantId: merchant.id,
      orderId: motoOrderId(form.requestId),
      type: "sale",
      amountMinor: form.amountMinor,
      currency: form.currency,
      card: form.card,
      customer: { ...form.customer, requesterIp: "" },
      frontend: form.frontend,
      // Never used (no 3-D Secure, no customer to send back), but a sale names one: the service's own address.
      returnUrl: deps.publicUrl(),
      notificationUrl: motoNotificationUrl(merchant),
      referenceId: "",
      timestamp: undefined,
      version: API_VERSION,
      errorCode: 0,
      errorDetails: "",
    },
    undefined,
    { createdBy: `backoffice:${login}` },
  );
  if (!result.ok) return refuse(result.error, merchant.id);
  const a = result.attempt;
  await deps.audit.append({
    ...base,
    target: `trace_id:${a.traceId}`,
    outcome: "success",
    merchantId: merchant.id,
    afterJson: canonicalJson({
      order_id: a.orderId,
      status: a.status,
      amount_minor: a.amountMinor,
      currency: a.currency,
      card: a.cardMasked,
      reason: text,
      ...(result.replayed ? { replayed: true } : {}),
    }),
  });
  return { ok: true, attempt: a, replayed: result.replayed };
}
