/**
 * BackofficeService, the daily work: transaction search (EngineService's
 * ListTransactions, run once per merchant in scope), the detail of a
 * transaction, redelivery, stuck work, the payout queue and decisions.
 * Every call is authorized by action and merchant scope; a merchant outside
 * the scope answers NOT_FOUND, as if it did not exist.
 */
import { create, toJson } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type BackofficeService,
  BackofficeServiceRedeliverCallbackResponseSchema,
  BulkApprovalResultSchema,
  BulkApprovePayoutsResponseSchema,
  CheckTransactionNowResponseSchema,
  CustomerTotalsSchema,
  DecidePayoutResponseSchema,
  FourEyesApprovalSchema,
  GetPayoutContextResponseSchema,
  GetTransactionDetailResponseSchema,
  ListPayoutQueueResponseSchema,
  ListStuckWorkResponseSchema,
  PayoutDecision as PbDecision,
  type PayoutReason as PbReason,
  QueuedPayoutSchema,
  SearchTransactionsResponseSchema,
} from "../../../gen/cashier/admin/v1/backoffice_service_pb.js";
import { ListTransactionsRequestSchema } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import { checkOffered, checkTransactionNow } from "../app/check-transaction-now.ts";
import { decideConsolePayout, issuedAccessBetween, needsFourEyes, reasonFaults, scopedPayout, stillDecides } from "../app/console-payouts.ts";
import { BULK_APPROVE_MAX, PAYOUT_REASONS, type PayoutReason } from "../../shared/payout-reasons.ts";
import { ConsoleRefusal } from "../domain/console-rules.ts";
import { auditExport } from "../app/console-export.ts";
import { auditingRefusals, authorize, type SignedIn } from "../app/console-session.ts";
import type { PayoutDecision } from "../../payments/index.ts";
import type { CallbackView, ProcessDeps } from "../../payments/index.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { domainError, describeViolations } from "../../shared/errors.ts";
import { inScope } from "../domain/operator-roles.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { redeliverCallback } from "./admin-service.ts";
import { callerOf, consoleCall, payoutsTarget } from "./backoffice-mappers.ts";
import { callbackToProto } from "../../payments/rpc/index.ts";
import { checkText, checkTraceId, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import type { MerchantAdminDeps } from "./merchant-admin.ts";
import { pageLimit, pageOf, readPage } from "../../payments/rpc/index.ts";
import { listTransactions } from "../../payments/rpc/index.ts";
import { attemptToProto } from "../../payments/rpc/index.ts";

export type WorkDeps = ProcessDeps & MerchantAdminDeps & BackofficeDeps;

type WorkCalls = Pick<
  ServiceImpl<typeof BackofficeService>,
  | "searchTransactions"
  | "getTransactionDetail"
  | "redeliverCallback"
  | "listStuckWork"
  | "checkTransactionNow"
  | "listPayoutQueue"
  | "getPayoutContext"
  | "decidePayout"
  | "bulkApprovePayouts"
>;

const notFound = (what: string) => toRpcError(domainError("NOT_FOUND", what));

/** The merchants a call covers: the one asked for (in scope, or NOT_FOUND), else the scope (undefined: all). */
export function merchantsFor(who: SignedIn, merchantId: string): readonly string[] | undefined {
  checkText("merchant_id", merchantId);
  if (merchantId) {
    if (!inScope(who.scope, merchantId)) throw notFound(`no merchant ${merchantId}`);
    return [merchantId];
  }
  return who.scope.merchantIds.length > 0 ? who.scope.merchantIds : undefined;
}

const DECISIONS = new Map<PbDecision, PayoutDecision>([
  [PbDecision.APPROVE, "approve"],
  [PbDecision.REJECT, "reject"],
  [PbDecision.CANCEL, "cancel"],
]);

export const reasonFromProto = (r: PbReason): PayoutReason | undefined => (r > 0 && r <= PAYOUT_REASONS.length ? PAYOUT_REASONS[r - 1] : undefined);
const reasonToProto = (r: string): PbReason => (PAYOUT_REASONS as readonly string[]).indexOf(r) + 1;

async function attempts(deps: WorkDeps, ids: number[]): Promise<Attempt[]> {
  return (await Promise.all(ids.map((id) => deps.orders.get(id)))).filter((a): a is Attempt => a !== undefined);
}

async function queued(deps: WorkDeps, list: Attempt[]) {
  const firsts = await deps.backoffice.firstApprovals(list.map((a) => a.traceId));
  // Once per approver and merchant, not once per row.
  const asked = new Map<string, Promise<boolean>>();
  const decides = (login: string, merchantId: string) => {
    const key = `${login}\u0000${merchantId}`;
    if (!asked.has(key)) asked.set(key, stillDecides(deps, login, merchantId));
    return asked.get(key)!;
  };
  return Promise.all(
    list.map(async (a) => {
      // While the payout waits, a first approval whose operator may no longer decide is not shown: it no longer
      // counts (console-payouts.ts). Once decided, the first approval that stands beside the second is its record.
      const recorded = firsts.get(a.traceId);
      const waiting = a.status === "requested";
      const first = recorded && (!waiting || (await decides(recorded.login, a.merchantId))) ? recorded : undefined;
      return create(QueuedPayoutSchema, {
        transaction: attemptToProto(a),
        fourEyesRequired: waiting ? await needsFourEyes(deps, a) : first !== undefined,
        firstApproval: first
          ? create(FourEyesApprovalSchema, {
              login: first.login,
              time: timestampFromDate(first.approvedAt),
              reason: reasonToProto(first.reason),
              note: first.note,
            })
          : undefined,
      });
    }),
  );
}

export function backofficeWork(deps: WorkDeps): WorkCalls {
  const decide = async (who: SignedIn, traceId: number, decision: PayoutDecision, reason: PbReason, note: string) => {
    checkTraceId(traceId);
    return decideConsolePayout(deps, who, traceId, decision, reasonFromProto(reason), note);
  };

  return {
    searchTransactions: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.read");
        const filter = req.filter ?? create(ListTransactionsRequestSchema, {});
        const merchants = merchantsFor(who, filter.merchantId);
        // One merchant (asked for, or the whole scope): its index walk. Several: the search's own bounded walk,
        // checking the scope on each order it reads, so the page token is the search's and nothing is merged here.
        const one = merchants === undefined || merchants.length === 1;
        const r = await listTransactions(
          deps,
          create(ListTransactionsRequestSchema, { ...filter, merchantId: one ? (merchants?.[0] ?? "") : "" }),
          one ? undefined : merchants,
        );
        if (req.export)
          await auditExport(deps, who, {
            action: "transaction.export",
            firstPage: !filter.pageToken,
            merchantId: filter.merchantId,
            filters: toJson(ListTransactionsRequestSchema, create(ListTransactionsRequestSchema, { ...filter, pageSize: 0, pageToken: "" })),
          });
        return create(SearchTransactionsResponseSchema, { transactions: r.transactions, nextPageToken: r.nextPageToken });
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
          return create(BackofficeServiceRedeliverCallbackResponseSchema, { delivery: r.delivery });
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

    listPayoutQueue: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "payout.read");
        const merchants = merchantsFor(who, req.merchantId);
        const { read, limit, after } = readPage<number>(req, "number");
        const ids = await deps.backoffice.payoutQueue(merchants, after, read);
        const page = pageOf(ids, limit, (id) => id);
        return create(ListPayoutQueueResponseSchema, { payouts: await queued(deps, await attempts(deps, page.items)), nextPageToken: page.nextPageToken });
      }),

    getPayoutContext: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "payout.read");
        checkTraceId(req.traceId);
        const a = await scopedPayout(deps, who, req.traceId);
        if (!a) throw notFound(`no payout with trace_id ${req.traceId}`);
        const [deposits, payouts, totals] = await Promise.all([
          deps.backoffice.customerHistory(a.merchantId, a.pin, "sale", a.traceId, 20),
          deps.backoffice.customerHistory(a.merchantId, a.pin, "payout", a.traceId, 20),
          deps.backoffice.customerTotals(a.merchantId, a.pin),
        ]);
        const [payout] = await queued(deps, [a]);
        const first = payout.firstApproval?.login;
        return create(GetPayoutContextResponseSchema, {
          payout,
          secondApprovalIssuedAccess: a.status === "requested" && first !== undefined && (await issuedAccessBetween(deps, first, who.scope.login)),
          deposits: (await attempts(deps, deposits)).map((x) => attemptToProto(x)),
          payouts: (await attempts(deps, payouts)).map((x) => attemptToProto(x)),
          totals: totals.map((t) =>
            create(CustomerTotalsSchema, {
              currency: t.currency,
              depositsApproved: BigInt(t.depositsMinor),
              depositCount: t.deposits,
              payoutsApproved: BigInt(t.payoutsMinor),
              payoutCount: t.payouts,
            }),
          ),
        });
      }),

    decidePayout: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "payout.decide", `trace_id:${req.traceId}`);
        const decision = DECISIONS.get(req.decision);
        if (!decision) throw invalidArgument("decision", "must be APPROVE, REJECT or CANCEL");
        const r = await decide(who, req.traceId, decision, req.reason, req.note);
        if (!r.ok) throw toRpcError(r.error);
        return create(DecidePayoutResponseSchema, { transaction: attemptToProto(r.attempt), awaitingSecondApproval: r.awaitingSecond });
      }),

    bulkApprovePayouts: (req) =>
      consoleCall(async () => {
        // A refusal names the payouts it was asked for, as a single decision's names its one (the list cut to the bulk limit).
        const tried = payoutsTarget(req.traceIds);
        const who = await authorize(deps, callerOf(req.context), "payout.decide", tried);
        if (req.traceIds.length < 1 || req.traceIds.length > BULK_APPROVE_MAX) throw invalidArgument("trace_ids", `must list 1 to ${BULK_APPROVE_MAX} payouts`);
        if (new Set(req.traceIds).size !== req.traceIds.length) throw invalidArgument("trace_ids", "must not repeat a payout");
        const reason = reasonFromProto(req.reason);
        const faults = reasonFaults(reason, req.note, "approve");
        if (faults.length > 0) throw toRpcError(domainError("INVALID_FIELDS", describeViolations(faults), faults));
        const results = [];
        for (const traceId of req.traceIds) {
          const failed = (error: string) => create(BulkApprovalResultSchema, { traceId, error });
          if (traceId <= 0) {
            results.push(failed("trace_id must be a positive integer"));
            continue;
          }
          try {
            const r = await decideConsolePayout(deps, who, traceId, "approve", reason, req.note);
            results.push(
              r.ok
                ? create(BulkApprovalResultSchema, { traceId, transaction: attemptToProto(r.attempt), awaitingSecondApproval: r.awaitingSecond })
                : failed(r.error.message),
            );
          } catch (err) {
            if (!(err instanceof ConsoleRefusal)) throw err;
            results.push(failed(err.message));
          }
        }
        return create(BulkApprovePayoutsResponseSchema, { results });
      }),
  };
}
