/**
 * Typed engine results -> the seed 2.2 reply (snake_case). The engine signs
 * the same members (engine/callbacks/process-reply-codec.ts); tests hold the two
 * to one signature.
 */
import type { ProcessResponse } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";

export { API_VERSION } from "../../engine/domain/transaction.ts";
import { API_VERSION } from "../../engine/domain/transaction.ts";
import { ownEntry } from "../../engine/domain/own-entry.ts";

const STATUS_NAMES: Record<number, string> = {
  [TransactionStatus.PENDING]: "pending",
  [TransactionStatus.APPROVED]: "approved",
  [TransactionStatus.DECLINED_RETRY]: "declined_retry",
  [TransactionStatus.DECLINED]: "declined",
  [TransactionStatus.CANCELLED]: "cancelled",
  [TransactionStatus.PENDING_ASYNC]: "pending_async",
  [TransactionStatus.REQUESTED]: "requested",
};

export interface ProcessReply {
  status: number;
  description: string;
  redirect_url: string | null;
  trace_id: number | null;
  transaction_id: string | null;
  transaction_status: string | null;
  error_code: number | null;
  error_details: string | null;
  payment_processor: string | null;
  version: string;
  signature: string | null;
}

export function encodeProcessReply(res: ProcessResponse): ProcessReply {
  const t = res.transaction!;
  return {
    status: 0,
    description: res.description,
    redirect_url: t.redirectUrl || null,
    trace_id: t.traceId,
    transaction_id: t.transactionId,
    transaction_status: ownEntry(STATUS_NAMES, t.status) ?? null,
    error_code: t.errorCode || null,
    error_details: t.errorDetails || null,
    payment_processor: t.paymentProcessor || null,
    version: API_VERSION,
    signature: res.replySignature || null,
  };
}

export function encodeErrorReply(status: number, description: string, signature: string | null): ProcessReply {
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
    version: API_VERSION,
    signature,
  };
}
