/**
 * AdminService's stuck-work listings: callbacks that failed, were refused or
 * keep being retried, and attempts left non-final past a horizon. Each is a
 * walk of a partial index holding only such rows (migration 011), so it costs
 * the same however many settled rows the tables hold.
 */
import { create } from "@bufbuild/protobuf";
import {
  type ListFailingDeliveriesRequest,
  ListFailingDeliveriesResponseSchema,
  type ListStuckTransactionsRequest,
  ListStuckTransactionsResponseSchema,
} from "../../../gen/cashier/admin/v1/admin_service_pb.js";
import type { ProcessDeps } from "../../payments/index.ts";
import { callbackToProto } from "../../payments/rpc/index.ts";
import { checkText, invalidArgument } from "../../rpc/errors.ts";
import { pageOf, readPage } from "../../payments/rpc/index.ts";
import { attemptToProto } from "../../payments/rpc/index.ts";

/** A pending callback tried this many times is listed as failing unless the caller says otherwise. */
export const DEFAULT_MIN_ATTEMPTS = 3;
/** A non-final attempt older than this is listed as stuck unless the caller says otherwise. */
export const DEFAULT_STUCK_SECONDS = 900;

export async function listFailingDeliveries(deps: Pick<ProcessDeps, "callbacks">, req: ListFailingDeliveriesRequest) {
  checkText("merchant_id", req.merchantId);
  if (req.minAttempts < 0) throw invalidArgument("min_attempts", "must be 1 or more, or 0 for the default (3)");
  const { read, limit, after } = readPage<number>(req, "number");
  const rows = await deps.callbacks.failing({
    merchantId: req.merchantId || undefined,
    minAttempts: req.minAttempts || DEFAULT_MIN_ATTEMPTS,
    beforeId: after,
    limit: read,
  });
  const page = pageOf(rows, limit, (c) => c.id);
  return create(ListFailingDeliveriesResponseSchema, { deliveries: page.items.map(callbackToProto), nextPageToken: page.nextPageToken });
}

export async function listStuckTransactions(deps: Pick<ProcessDeps, "orders" | "now">, req: ListStuckTransactionsRequest) {
  checkText("merchant_id", req.merchantId);
  if (req.olderThanSeconds < 0) throw invalidArgument("older_than_seconds", "must be 1 or more, or 0 for the default (900)");
  const { read, limit, after } = readPage<number>(req, "number");
  const seconds = req.olderThanSeconds || DEFAULT_STUCK_SECONDS;
  const rows = await deps.orders.stuck({
    merchantId: req.merchantId || undefined,
    createdBefore: new Date(deps.now().getTime() - seconds * 1000),
    afterTraceId: after,
    limit: read,
  });
  const page = pageOf(rows, limit, (a) => a.traceId);
  return create(ListStuckTransactionsResponseSchema, { transactions: page.items.map((a) => attemptToProto(a)), nextPageToken: page.nextPageToken });
}
