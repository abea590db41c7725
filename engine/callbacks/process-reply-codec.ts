/**
 * The seed 2.2 reply shape (snake_case), which the deposit status notification
 * reuses. The engine renders it only to sign it: the edge writes the same
 * members from the typed result, and a test holds the two to one signature.
 */
import type { Scalar } from "../security/canonical.ts";
import { offeredRedirect } from "../domain/transitions.ts";
import type { Attempt } from "../domain/transaction.ts";

export { API_VERSION } from "../domain/transaction.ts";
import { API_VERSION } from "../domain/transaction.ts";

export function processReplyBody(a: Attempt, description: string): Record<string, Scalar> {
  return {
    status: 0,
    description,
    redirect_url: offeredRedirect(a),
    trace_id: a.traceId,
    // Empty, not null, when the processor gave none (processor unavailable).
    transaction_id: a.transactionId ?? "",
    transaction_status: a.status,
    error_code: a.errorCode ?? null,
    error_details: a.errorDetails || null,
    payment_processor: a.processor,
    version: API_VERSION,
  };
}

/** A refused request's reply: no transaction behind it. */
export function errorReplyBody(status: number, description: string, version = API_VERSION): Record<string, Scalar> {
  return {
    status,
    description,
    redirect_url: null,
    trace_id: null,
    transaction_id: null,
    transaction_status: null,
    error_code: null,
    error_details: null,
    payment_processor: null,
    version,
  };
}

export { signBody } from "../security/canonical.ts";
