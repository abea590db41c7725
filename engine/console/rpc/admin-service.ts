/**
 * cashier.admin.v1.AdminService: decode -> use case -> encode. Payout
 * decisions and callback deliveries here; merchants and frontends in
 * merchant-admin.ts. Nothing returned ever holds a card number or a secret.
 */
import { create } from "@bufbuild/protobuf";
import type { Tx } from "../ports/transactions.ts";
import {
  type AdminService,
  ApprovePayoutResponseSchema,
  CancelPayoutResponseSchema,
  ListDeliveriesResponseSchema,
  RedeliverCallbackResponseSchema,
  RejectPayoutResponseSchema,
} from "../../../gen/cashier/admin/v1/admin_service_pb.js";
import { decidePayout, type PayoutDecision } from "../../payments/index.ts";
import type { CallbackView, ProcessDeps } from "../../payments/index.ts";
import { domainError } from "../../shared/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { checkText, checkTraceId, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import { attemptToProto } from "../../payments/rpc/index.ts";
import { callbackToProto, kindFromProto, stateFromProto } from "../../payments/rpc/index.ts";
import { boundedPageOf, readPage } from "../../payments/rpc/index.ts";
import { listFailingDeliveries, listStuckTransactions } from "./stuck-work.ts";
import { merchantAdmin, type MerchantAdminDeps } from "./merchant-admin.ts";
import { processorAccountAdmin } from "./processor-account-admin.ts";
import { operatorAdmin } from "./operator-admin-rpc.ts";
import type { BackofficeDeps } from "../ports/ports.ts";

async function decide(deps: ProcessDeps, traceId: number, decision: PayoutDecision, operator: string, reason: string) {
  checkTraceId(traceId);
  const result = await decidePayout(deps, traceId, decision, operator, reason);
  if (!result.ok) throw toRpcError(result.error);
  return attemptToProto(result.attempt);
}

/**
 * Makes a callback due again; `alongside` (the Backoffice's audit row) is
 * written in the same database transaction.
 */
export async function redeliverCallback(deps: ProcessDeps, rawId: bigint, alongside?: (tx: Tx, after: CallbackView) => Promise<void>) {
  if (rawId <= 0n || rawId > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidArgument("id", "must be a positive callback id");
  const id = Number(rawId);
  const outcome = await deps.callbacks.redeliver(id, alongside);
  if (outcome === "not-found") throw toRpcError(domainError("NOT_FOUND", `no callback with id ${id}`));
  if (outcome === "not-queued") throw toRpcError(domainError("INVALID_STATE", "a Validation call is made while the customer waits; it is never redelivered"));
  if (outcome === "in-flight")
    throw toRpcError(domainError("INVALID_STATE", "an attempt at this callback is in flight; redeliver it once that attempt is recorded"));
  deps.wake();
  return create(RedeliverCallbackResponseSchema, { delivery: callbackToProto(outcome) });
}

export function adminService(deps: ProcessDeps & MerchantAdminDeps & BackofficeDeps): ServiceImpl<typeof AdminService> {
  return {
    async approvePayout(req) {
      return create(ApprovePayoutResponseSchema, { transaction: await decide(deps, req.traceId, "approve", req.operator, "") });
    },
    async rejectPayout(req) {
      return create(RejectPayoutResponseSchema, { transaction: await decide(deps, req.traceId, "reject", req.operator, req.reason) });
    },
    async cancelPayout(req) {
      return create(CancelPayoutResponseSchema, { transaction: await decide(deps, req.traceId, "cancel", req.operator, req.reason) });
    },

    async listDeliveries(req) {
      if (req.traceId < 0) throw invalidArgument("trace_id", "must be a positive integer, or 0 for all");
      checkText("merchant_id", req.merchantId);
      const kind = kindFromProto(req.kind);
      if (kind === null) throw invalidArgument("kind", "is not a CallbackKind");
      const state = stateFromProto(req.state);
      if (state === null) throw invalidArgument("state", "is not a CallbackState");
      const { read, limit, after } = readPage<number>(req, "number");
      const rows = await deps.callbacks.list({
        merchantId: req.merchantId || undefined,
        kind,
        state,
        traceId: req.traceId || undefined,
        beforeId: after,
        limit: read,
      });
      const page = boundedPageOf(rows.rows, limit, (c) => c.id, rows.scannedTo);
      return create(ListDeliveriesResponseSchema, { deliveries: page.items.map(callbackToProto), nextPageToken: page.nextPageToken });
    },

    async listFailingDeliveries(req) {
      return listFailingDeliveries(deps, req);
    },

    async listStuckTransactions(req) {
      return listStuckTransactions(deps, req);
    },

    async redeliverCallback(req) {
      return redeliverCallback(deps, req.id);
    },

    ...merchantAdmin(deps),
    ...processorAccountAdmin(deps),
    ...operatorAdmin(deps),
  };
}
