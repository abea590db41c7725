/**
 * ConsoleWorkService, the transactions: search (EngineService's
 * ListTransactions, run once per merchant in scope), the detail of a
 * transaction, redelivery of a callback, stuck work, and asking a processor
 * now about an attempt left open. Every call is authorized by action and
 * merchant scope; a merchant outside the scope answers NOT_FOUND, as if it
 * did not exist.
 */
import { create, toJson } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ConsoleWorkService,
  ConsoleWorkServiceRedeliverCallbackResponseSchema,
  CheckTransactionNowResponseSchema,
  GetTransactionDetailResponseSchema,
  ListStuckWorkResponseSchema,
  SearchTransactionsResponseSchema,
} from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { ListTransactionsRequestSchema } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { ConsoleReads } from "../ports/read-replica.ts";
import { checkOffered, checkTransactionNow } from "../app/check-transaction-now.ts";
import { auditExport } from "../app/console-export.ts";
import { auditingRefusals, authorize } from "../app/console-session.ts";
import type { CallbackView, ProcessDeps } from "../../payments/index.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { inScope } from "../domain/operator-roles.ts";
import { redeliverCallback } from "./admin-service.ts";
import { callerOf, consoleCall, readSourceToProto } from "./console-mappers.ts";
import { merchantsFor, notFound } from "./console-scope.ts";
import { attempts, queued } from "./work-payouts.ts";
import { callbackToProto } from "../../payments/rpc/index.ts";
import { checkTraceId, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { pageLimit } from "../../payments/rpc/index.ts";
import { listTransactions } from "../../payments/rpc/index.ts";
import { attemptToProto } from "../../payments/rpc/index.ts";

type TransactionCalls = Pick<
  ServiceImpl<typeof ConsoleWorkService>,
  "searchTransactions" | "getTransactionDetail" | "redeliverCallback" | "listStuckWork" | "checkTransactionNow"
>;

export function transactionWork(deps: ProcessDeps & BackofficeDeps & { reads: ConsoleReads }): TransactionCalls {
  return {
    searchTransactions: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.read");
        const filter = req.filter ?? create(ListTransactionsRequestSchema, {});
        const merchants = merchantsFor(who, filter.merchantId);
        // One merchant (asked for, or the whole scope): its index walk. Several: the search's own bounded walk,
        // checking the scope on each order it reads, so the page token is the search's and nothing is merged here.
        const one = merchants === undefined || merchants.length === 1;
        // Read from the replica when there is one (a search leads to no write; the detail it links to reads the primary).
        const { value: r, source } = await deps.reads.read((ports) =>
          listTransactions(
            ports,
            create(ListTransactionsRequestSchema, { ...filter, merchantId: one ? (merchants?.[0] ?? "") : "" }),
            one ? undefined : merchants,
          ),
        );
        if (req.export)
          await auditExport(deps, who, {
            action: "transaction.export",
            firstPage: !filter.pageToken,
            merchantId: filter.merchantId,
            filters: toJson(ListTransactionsRequestSchema, create(ListTransactionsRequestSchema, { ...filter, pageSize: 0, pageToken: "" })),
          });
        return create(SearchTransactionsResponseSchema, {
          transactions: r.transactions,
          nextPageToken: r.nextPageToken,
          readSource: readSourceToProto(source),
        });
      }),

    getTransactionDetail: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.read");
        checkTraceId(req.traceId);
        const a = await deps.orders.get(req.traceId);
        if (!a || !inScope(who.scope, a.merchantId)) throw notFound(`no transaction with trace_id ${req.traceId}`);
        const [history, callbacks, cascadeIds] = await Promise.all([
          deps.orders.history(a.traceId),
          deps.callbacks.forTransaction(a.traceId),
          deps.backoffice.cascade(a.traceId),
        ]);
        const relatedIds = a.type === "refund" ? (a.referenceTraceId ? [a.referenceTraceId] : []) : await deps.backoffice.refundsOf(a.traceId);
        const cascade = await Promise.all(
          (await attempts(deps, cascadeIds)).map(async (c) => attemptToProto(c, c.traceId === a.traceId ? history : await deps.orders.history(c.traceId))),
        );
        return create(GetTransactionDetailResponseSchema, {
          transaction: attemptToProto(a, history),
          cascade,
          related: (await attempts(deps, relatedIds)).map((r) => attemptToProto(r)),
          callbacks: callbacks.map(callbackToProto),
          checkOffered: await checkOffered(deps, a, deps.now()),
          firstApproval: a.type === "payout" ? (await queued(deps, [a]))[0].firstApproval : undefined,
        });
      }),

    redeliverCallback: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `callback:${String(req.id).slice(0, 24)}`;
        const who = await authorize(deps, caller, "callback.redeliver", target);
        const before = await auditingRefusals(deps, who, caller, { action: "callback.redeliver", target }, async () => {
          if (req.id <= 0n || req.id > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidArgument("id", "must be a positive callback id");
          const found = await deps.callbacks.get(Number(req.id));
          if (!found || !inScope(who.scope, found.merchantId)) throw notFound(`no callback with id ${req.id}`);
          return found;
        });
        const record = (outcome: "success" | "failure", after?: CallbackView, detail = "") => ({
          actor: who.scope.login,
          action: "callback.redeliver",
          outcome,
          merchantId: before.merchantId,
          target: `callback:${before.id}`,
          clientAddress: caller.clientAddress,
          beforeJson: canonicalJson({ state: before.state, attempts: before.attemptCount, trace_id: before.traceId }),
          // The callback as the redelivery left it, read in its transaction.
          afterJson: after ? canonicalJson({ state: after.state, attempts: after.attemptCount, trace_id: after.traceId }) : "",
          detail,
        });
        let audited = false;
        try {
          // The callback made due and its audit row: one transaction.
          const r = await redeliverCallback(deps, req.id, async (tx, after) => {
            await deps.audit.append(record("success", after), tx);
            audited = true;
          });
          return create(ConsoleWorkServiceRedeliverCallbackResponseSchema, { delivery: r.delivery });
        } catch (err) {
          // Refused before anything changed: audited as a failure on its own.
          if (!audited) await deps.audit.append(record("failure", undefined, err instanceof Error ? err.message : "refused"));
          throw err;
        }
      }),

    listStuckWork: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.read");
        const merchants = merchantsFor(who, req.merchantId);
        if (req.olderThanSeconds < 0) throw invalidArgument("older_than_seconds", "must not be negative");
        const limit = pageLimit(req.pageSize);
        const now = deps.now();
        const olderThan = new Date(now.getTime() - (req.olderThanSeconds || 900) * 1000);
        const [callbackIds, traceIds] = await Promise.all([
          deps.backoffice.failingCallbacks(merchants, limit),
          deps.backoffice.stuckTransactions(merchants, olderThan, limit),
        ]);
        const callbacks = (await Promise.all(callbackIds.map((id) => deps.callbacks.get(id)))).filter((c) => c !== undefined);
        const stuck = await attempts(deps, traceIds);
        const offered = await Promise.all(stuck.map((a) => checkOffered(deps, a, now)));
        return create(ListStuckWorkResponseSchema, {
          failingCallbacks: callbacks.map(callbackToProto),
          stuckTransactions: stuck.map((a) => attemptToProto(a)),
          asOf: timestampFromDate(now),
          checkOfferedTraceIds: stuck.filter((_, i) => offered[i]).map((a) => a.traceId),
        });
      }),

    checkTransactionNow: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.check", `trace_id:${req.traceId}`);
        checkTraceId(req.traceId);
        const r = await checkTransactionNow(deps, who, req.traceId, req.reason);
        if (!r.ok) throw toRpcError(r.error);
        return create(CheckTransactionNowResponseSchema, {
          transaction: attemptToProto(r.attempt),
          previousCheckTime: r.before ? timestampFromDate(r.before) : undefined,
          checkTime: timestampFromDate(r.after),
        });
      }),
  };
}
