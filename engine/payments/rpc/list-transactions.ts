/**
 * EngineService.ListTransactions: the operators' search. Every filter is
 * checked here (INVALID_ARGUMENT naming the field); the store runs the search
 * with bounded reads (engine/payments/store/transaction-search.ts), so a page may come
 * back short with a token when the filters no index serves matched little.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import {
  type ListTransactionsRequest,
  ListTransactionsRequestSchema,
  ListTransactionsResponseSchema,
} from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import { TransactionStatus as PbStatus, TransactionType as PbType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { checkText, invalidArgument } from "../../rpc/errors.ts";
import { filterDigest, readSearchPage, searchPageOf } from "./page-token.ts";
import { attemptToProto, statusFromProto, typeFromProto } from "./proto-mappers.ts";
import { timeArgument } from "../../rpc/time-argument.ts";

const LAST_FOUR = /^\d{4}$/;

/**
 * `merchantIds`: the caller may see only these merchants' transactions (a
 * Backoffice operator scoped to several); undefined: every merchant's.
 */
export async function listTransactions(deps: { orders: Pick<ProcessDeps["orders"], "list"> }, req: ListTransactionsRequest, merchantIds?: readonly string[]) {
  for (const [field, value] of [
    ["merchant_id", req.merchantId],
    ["order_id", req.orderId],
    ["pin", req.pin],
    ["email", req.email],
    ["processor_transaction_id", req.processorTransactionId],
    ["processor", req.processor],
    ["frontend", req.frontend],
  ] as const) {
    checkText(field, value);
  }
  if (req.cardLastFour && !LAST_FOUR.test(req.cardLastFour)) throw invalidArgument("card_last_four", "must be exactly four digits");
  if (req.traceId < 0) throw invalidArgument("trace_id", "must be a positive integer, or 0 for all");
  // The filters as the request states them (the page fields aside), and the caller's scope: what a token is tied to.
  const filters = filterDigest(
    [
      Buffer.from(toBinary(ListTransactionsRequestSchema, create(ListTransactionsRequestSchema, { ...req, pageSize: 0, pageToken: "" }))).toString("base64"),
      merchantIds?.join(",") ?? "*",
    ].join("|"),
  );
  const { read, limit, after } = readSearchPage(req, filters);
  const type = req.transactionType === PbType.UNSPECIFIED ? undefined : typeFromProto(req.transactionType);
  if (req.transactionType !== PbType.UNSPECIFIED && !type) throw invalidArgument("transaction_type", "is not a TransactionType");
  const status = req.status === PbStatus.UNSPECIFIED ? undefined : statusFromProto(req.status);
  if (req.status !== PbStatus.UNSPECIFIED && !status) throw invalidArgument("status", "is not a TransactionStatus");
  const startTime = timeArgument("start_time", req.startTime);
  const endTime = timeArgument("end_time", req.endTime);
  if (startTime && endTime && startTime > endTime) throw invalidArgument("end_time", "is before start_time");
  const found = await deps.orders.list({
    merchantId: req.merchantId || undefined,
    merchantIds,
    orderId: req.orderId || undefined,
    pin: req.pin || undefined,
    email: req.email || undefined,
    processorTransactionId: req.processorTransactionId || undefined,
    cardLastFour: req.cardLastFour || undefined,
    processor: req.processor || undefined,
    frontend: req.frontend || undefined,
    traceId: req.traceId || undefined,
    type,
    status,
    startTime,
    endTime,
    after,
    limit: read,
  });
  const page = searchPageOf(
    found.rows.map((r) => ({ item: r.attempt, key: r.key })),
    limit,
    found.scannedTo,
    filters,
  );
  return create(ListTransactionsResponseSchema, { transactions: page.items.map((a) => attemptToProto(a)), nextPageToken: page.nextPageToken });
}
