/**
 * What the deposit and withdrawal forms share: the amount rule, the
 * ProcessInput a form becomes (the session's customer, frontend and URLs),
 * the form's field names for Process's refusals, and the text a customer may
 * read about a result.
 */
import { describeViolations, domainError, inCallerNames, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { limitProblem, type SessionIntent } from "../domain/hosted-session.ts";
import { wireRepresentable } from "../../shared/money.ts";
import { API_VERSION, type Attempt, type ProcessInput, type TransactionType } from "../../shared/transaction.ts";
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import { signableText } from "../../shared/canonical.ts";
import type { CashierDeps, SessionRecord } from "../ports/ports.ts";
import type { OpenSession } from "./cashier-session.ts";
import type { OrderOrigin } from "../../payments/index.ts";

/** What a submitted form comes to: the attempt it made (or had made before), or a refusal. */
export type FormResult = { ok: true; attempt: Attempt; replayed: boolean } | { ok: false; error: DomainError };

/** A card as a form gives it: typed in, or one of the customer's saved cards. */
export type CardSource =
  | { kind: "new"; number: string; cvv: string; expiry: string; holder: string; save: boolean }
  | { kind: "saved"; id: string; cvv: string };

/**
 * The saved card a form names, as the session offers it: none at a frontend that keeps no cards (save_cards false),
 * not even one kept at another frontend of the merchant, as the session's view lists none there (cashier-session.ts).
 */
export async function offeredSavedCard(deps: CashierDeps, open: OpenSession, id: string) {
  return open.frontend.settings.saveCards ? deps.sessions.savedCard(open.session.merchantId, open.session.pin, id) : undefined;
}

export const invalid = (violations: FieldViolation[]): DomainError => domainError("INVALID_FIELDS", describeViolations(violations), violations);

/** The amount of a form: the session's currency, positive, the fixed amount if the session has one, else within limits (and the balance). */
export function amountViolations(kind: SessionIntent, s: SessionRecord, open: OpenSession, amountMinor: number, currency: string): FieldViolation[] {
  const problem = (() => {
    if (currency !== s.currency) return `must be in the session's currency ${s.currency}`;
    if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) return "must be a positive integer in minor units";
    if (!wireRepresentable(amountMinor, currency)) return `${currency} amounts are whole units`;
    if (s.amountMinor !== null) return amountMinor === s.amountMinor ? undefined : "must be the session's amount";
    const limit = limitProblem(kind, amountMinor, currency, open.frontend.settings);
    if (limit) return limit;
    if (kind === "withdrawal" && s.balanceMinor !== null && amountMinor > s.balanceMinor) return "is above your balance";
    return undefined;
  })();
  return problem ? [{ field: "amount", description: problem }] : [];
}

/** Free text of a form: printable, bounded. */
export function textViolations(fields: [string, string, number][]): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const [field, value, max] of fields) {
    if (CONTROL_CHARACTERS.test(value)) out.push({ field, description: "must not contain control characters" });
    else if ([...value].length > max) out.push({ field, description: `must be at most ${max} characters` });
  }
  return out;
}

/** The ProcessInput of a form: the session's customer, frontend and notification_url, the form's card and amount. */
export function formInput(
  s: SessionRecord,
  f: { type: TransactionType; orderId: string; amountMinor: number; card: ProcessInput["card"]; requesterIp: string; returnUrl: string },
): ProcessInput {
  return {
    merchantId: s.merchantId,
    orderId: f.orderId,
    type: f.type,
    amountMinor: f.amountMinor,
    currency: s.currency,
    card: f.card,
    customer: { ...s.customer, requesterIp: f.requesterIp || s.customer.requesterIp },
    frontend: s.frontend,
    returnUrl: f.returnUrl,
    notificationUrl: s.notificationUrl ?? "",
    referenceId: "",
    timestamp: undefined,
    version: API_VERSION,
    errorCode: 0,
    errorDetails: "",
  };
}

/** The order's origin: the customer, in this session, with its auth_token and echoed members. */
export function customerOrigin(s: SessionRecord, authToken: string): OrderOrigin {
  return { createdBy: "customer", session: { ref: s.id, authToken, scOrderId: s.scOrderId, udef1: s.udef1, udef2: s.udef2 } };
}

/**
 * A form sent again with other fields under an order id the session's first
 * submit already holds (ORDER_CONFLICT): the answer is that order as it stands,
 * as for an identical repeat, never a refusal that would invite a third try.
 * An order id held outside the session stays refused.
 */
export async function sessionOrderAnswer(deps: CashierDeps, s: SessionRecord, orderId: string, e: DomainError): Promise<FormResult | undefined> {
  if (e.reason !== "ORDER_CONFLICT") return undefined;
  const held = (await deps.sessions.sessionTransactions(s.id)).find((a) => a.orderId === orderId);
  return held ? { ok: true, attempt: held, replayed: true } : undefined;
}

/** Process's refusal in the form's field names (`new_card.card.number`, `saved_card_cvv`). */
export function inFormNames(e: DomainError, source: CardSource["kind"]): DomainError {
  const card =
    source === "new"
      ? { cardNumber: "new_card.card.number", cvv: "new_card.card.cvv", cardExp: "new_card.card.expiry" }
      : { cardNumber: "saved_card_id", cvv: "saved_card_cvv", cardExp: "saved_card_id" };
  return inCallerNames(e, { ...card, amount: "amount", currency: "amount", requesterIp: "requester_ip", returnUrl: "return_url", orderId: "order_id" });
}

/** What the customer may read about a result: no processor internals beyond the decline reason. */
export function customerDescription(a: Attempt): string {
  switch (a.status) {
    case "approved":
      return a.type === "payout" ? "Your withdrawal was paid." : "Your payment was approved.";
    case "declined":
    case "declined_retry":
      if (a.type === "payout") return "Your withdrawal was declined.";
      if (a.processorCode === "51") return "Your card was declined: insufficient funds. Try another card.";
      return "Your card was declined. Try another card.";
    case "pending_async":
      return "Your bank asks you to confirm the payment (3-D Secure).";
    case "pending":
      return a.type === "payout" ? "Your withdrawal is being paid." : "Your payment is being processed.";
    case "requested":
      return "Your withdrawal is waiting for approval.";
    case "cancelled":
      return a.type === "payout" ? "Your withdrawal was cancelled." : "Your payment was cancelled.";
  }
}

export const customerText = (a: Attempt) => signableText(customerDescription(a));
