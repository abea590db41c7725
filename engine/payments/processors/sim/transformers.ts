/**
 * The simulated acquirers' API <-> Cashier's processor calls, pure: the
 * request bodies, and the status table that classifies every answer. No I/O,
 * tested on answers recorded from the simulator (test/fixtures/acquirer/).
 */
import type { ProcessorOutcome } from "../../domain/outcome.ts";
import type { ChargeRequest, RefundRequest } from "../processor.ts";

export type Operation = "sale" | "payout" | "refund";

/**
 * The body of POST /v1/payments. The CVV goes only when given (a sale's first attempt); a refund made in the
 * Backoffice has no card number (it goes back to its sale's payment, named by original_payment_id) and sends no card.
 * A MOTO sale (the Virtual Terminal) says `channel: "moto"`: the simulator then asks for no 3-D Secure.
 */
export function paymentBody(operation: Operation, req: ChargeRequest | RefundRequest): Record<string, unknown> {
  const card: Record<string, string> = { number: req.card.number, expiry: req.card.expiry };
  if (req.card.cvv) card.cvv = req.card.cvv;
  const body: Record<string, unknown> = { operation, amount: req.amountMinor, currency: req.currency };
  if (req.card.number || operation !== "refund") body.card = card;
  if ("saleTransactionId" in req) body.original_payment_id = req.saleTransactionId;
  if (operation === "sale" && req.moto) body.channel = "moto";
  return body;
}

/** Decline codes that mean "this route cannot, another may": the cascade's cue. */
export const RETRY_CODES: ReadonlySet<string> = new Set(["91"]);

type Kind = ProcessorOutcome["kind"];

/**
 * The status table: what the acquirer says (status, and for a decline its
 * code) -> our outcome. A status not listed is `unknown`: asked again later,
 * never taken as a decline.
 */
export const STATUS_TABLE: readonly { status: string; code?: "retry" | "other"; outcome: Kind }[] = [
  { status: "approved", outcome: "approved" },
  { status: "declined", code: "retry", outcome: "retryable" },
  { status: "declined", code: "other", outcome: "declined" },
  { status: "pending", outcome: "pending" },
  { status: "action_required", outcome: "challenge" },
  { status: "failed", outcome: "unavailable" },
];

function kindOf(status: unknown, code: string): Kind {
  const codeClass = RETRY_CODES.has(code) ? "retry" : "other";
  return STATUS_TABLE.find((r) => r.status === status && (r.code === undefined || r.code === codeClass))?.outcome ?? "unknown";
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * Any answer of the acquirer -> an outcome. HTTP first: 200 goes through the
 * status table; a fenced key (409 on a payment, 404 with `fenced` on a lookup)
 * was never taken and never will be; 400, 401, 403 and 413 were refused, so
 * nothing was taken; a 5xx or anything else may have been taken: unknown.
 */
export function toOutcome(http: number, body: unknown): ProcessorOutcome {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (http === 200) {
    const id = str(b.id);
    const code = str(b.code);
    const message = str(b.message);
    const kind = kindOf(b.status, code);
    switch (kind) {
      case "approved":
      case "pending":
      case "challenge":
        return id ? { kind, transactionId: id } : { kind: "unknown", transactionId: "", message: `a ${b.status} answer without a payment id` };
      case "declined":
      case "retryable":
        return { kind, transactionId: id, code: code || "05", message: message || "Declined" };
      case "unavailable":
        return { kind, message: message || "Processor unavailable" };
      default:
        return { kind: "unknown", transactionId: id, message: `unrecognised status ${JSON.stringify(b.status ?? null).slice(0, 40)}` };
    }
  }
  if ((http === 409 && b.error === "idempotency_key_fenced") || (http === 404 && b.fenced === true)) {
    return { kind: "unavailable", message: "The processor has no record of this attempt" };
  }
  if (http === 404) return { kind: "unknown", transactionId: "", message: "the processor knows no such payment" };
  if (http === 400 || http === 401 || http === 403 || http === 413) {
    return { kind: "unavailable", message: `The processor refused the request (HTTP ${http}${b.error ? `, ${str(b.error).slice(0, 40)}` : ""})` };
  }
  return { kind: "unknown", transactionId: "", message: `the processor answered HTTP ${http}` };
}
