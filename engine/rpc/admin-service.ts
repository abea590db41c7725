/**
 * cashier.admin.v1.AdminService: decode -> use case -> encode. Payout
 * decisions and callback deliveries here; merchants and frontends in
 * merchant-admin.ts. Nothing returned ever holds a card number or a secret.
 */
import { create } from "@bufbuild/protobuf";
import {
  AdminService,
  ApprovePayoutResponseSchema,
  CancelPayoutResponseSchema,
  ListDeliveriesResponseSchema,
  RedeliverCallbackResponseSchema,
  RejectPayoutResponseSchema,
} from "../../gen/cashier/admin/v1/admin_service_pb.js";
import { decidePayout, type PayoutDecision } from "../app/decide-payout.ts";
import type { ProcessDeps } from "../app/ports.ts";
import { domainError } from "../domain/errors.ts";
import { CONTROL_CHARACTERS } from "../domain/validate-process.ts";
import type { ServiceImpl } from "./grpc-adapter.ts";
import { invalidArgument, toRpcError } from "./errors.ts";
import { attemptToProto } from "./proto-mappers.ts";
import { callbackToProto, kindFromProto, stateFromProto } from "./callback-mappers.ts";
import { decodePageToken, encodePageToken } from "./page-token.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./engine-service.ts";
import { merchantAdmin, type MerchantAdminDeps } from "./merchant-admin.ts";

async function decide(deps: ProcessDeps, traceId: number, decision: PayoutDecision, operator: string, reason: string) {
  if (traceId <= 0) throw invalidArgument("trace_id", "must be a positive integer");
  // Every decision is recorded with who made it.
  if (operator.trim() === "") throw invalidArgument("operator", "is required: who decides");
  for (const [field, value] of [["operator", operator], ["reason", reason]] as const) {
    if (CONTROL_CHARACTERS.test(value)) throw invalidArgument(field, "must not contain control characters");
    if ([...value].length > 256) throw invalidArgument(field, "must be at most 256 characters");
  }
  const result = await decidePayout(deps, traceId, decision, operator, reason);
  if (!result.ok) throw toRpcError(result.error);
  return attemptToProto(result.attempt);
}

export function adminService(deps: ProcessDeps & MerchantAdminDeps): ServiceImpl<typeof AdminService> {
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
      if (req.pageSize < 0 || req.pageSize > MAX_PAGE_SIZE) throw invalidArgument("page_size", `must be 0 to ${MAX_PAGE_SIZE}`);
      if (req.traceId < 0) throw invalidArgument("trace_id", "must be a positive integer, or 0 for all");
      if (CONTROL_CHARACTERS.test(req.merchantId)) throw invalidArgument("merchant_id", "must not contain control characters");
      const kind = kindFromProto(req.kind);
      if (kind === null) throw invalidArgument("kind", "is not a CallbackKind");
      const state = stateFromProto(req.state);
      if (state === null) throw invalidArgument("state", "is not a CallbackState");
      const before = req.pageToken ? decodePageToken(req.pageToken) : undefined;
      if (req.pageToken && before === undefined) throw invalidArgument("page_token", "is not a token this service issued");
      const limit = req.pageSize || DEFAULT_PAGE_SIZE;
      const rows = await deps.callbacks.list({ merchantId: req.merchantId || undefined, kind, state, traceId: req.traceId || undefined, beforeId: before, limit: limit + 1 });
      const page = rows.slice(0, limit);
      return create(ListDeliveriesResponseSchema, {
        deliveries: page.map(callbackToProto),
        nextPageToken: rows.length > limit ? encodePageToken(page[page.length - 1].id) : "",
      });
    },

    async redeliverCallback(req) {
      if (req.id <= 0n || req.id > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidArgument("id", "must be a positive callback id");
      const id = Number(req.id);
      const outcome = await deps.callbacks.redeliver(id);
      if (outcome === "not-found") throw toRpcError(domainError("NOT_FOUND", `no callback with id ${id}`));
      if (outcome === "not-queued") throw toRpcError(domainError("INVALID_STATE", "a Validation call is made while the customer waits; it is never redelivered"));
      if (outcome === "in-flight") throw toRpcError(domainError("INVALID_STATE", "an attempt at this callback is in flight; redeliver it once that attempt is recorded"));
      deps.wake();
      const delivery = await deps.callbacks.get(id);
      return create(RedeliverCallbackResponseSchema, { delivery: delivery ? callbackToProto(delivery) : undefined });
    },

    ...merchantAdmin(deps),
  };
}
