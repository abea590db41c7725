/**
 * cashier.admin.v1.ConsoleMoneyService: the Backoffice's money actions, each
 * authorized by its own action in the roles table (transaction.refund,
 * transaction.cancel, payout.hold, payout.decide) before it decodes into a
 * use case (app/console-refunds.ts, console-sale-cancel.ts, payout-holds.ts,
 * console-payouts.ts), and the Virtual Terminal's TakeMotoPayment (transaction.moto, app/virtual-terminal.ts).
 * GetMoneyActions tells the console what to offer on a
 * transaction, from the same rules the actions apply.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  BulkDecidePayoutsResponseSchema,
  CancelSaleResponseSchema,
  type ConsoleMoneyService,
  GetMoneyActionsResponseSchema,
  HoldPayoutResponseSchema,
  RefundApprovalSchema,
  RefundSaleResponseSchema,
  ReleasePayoutResponseSchema,
  TakeMotoPaymentResponseSchema,
  WithdrawRefundRequestResponseSchema,
} from "../../../gen/cashier/admin/v1/console_money_service_pb.js";
import { BulkApprovalResultSchema, PayoutDecision as PbDecision } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { MoneySchema } from "../../../gen/cashier/engine/v1/money_pb.js";
import { type ProcessDeps, type PayoutDecision, refundRefusal, saleCancelRefusal } from "../../payments/index.ts";
import { attemptToProto } from "../../payments/rpc/index.ts";
import { BULK_APPROVE_MAX } from "../../shared/payout-reasons.ts";
import { describeViolations, domainError } from "../../shared/errors.ts";
import { checkTraceId, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { authorize } from "../app/console-session.ts";
import { decideConsolePayout, reasonFaults } from "../app/console-payouts.ts";
import { refundFromConsole } from "../app/console-refunds.ts";
import { withdrawRefundRequest } from "../app/refund-withdrawal.ts";
import { cancelSaleFromConsole } from "../app/console-sale-cancel.ts";
import { holdPayout, releasePayout } from "../app/payout-holds.ts";
import { takeMotoPayment } from "../app/virtual-terminal.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import { ConsoleRefusal } from "../domain/console-rules.ts";
import { inScope } from "../domain/operator-roles.ts";
import { callerOf, consoleCall, payoutsTarget } from "./console-mappers.ts";
import { notFound } from "./console-scope.ts";
import { holdToProto, motoFormOf } from "./money-mappers.ts";
import { reasonFromProto } from "./work-payouts.ts";

type Deps = ProcessDeps & BackofficeDeps;

const REFUSALS = new Map<PbDecision, PayoutDecision>([
  [PbDecision.REJECT, "reject"],
  [PbDecision.CANCEL, "cancel"],
]);

const money = (minor: number, currency: string) => create(MoneySchema, { amountMinor: BigInt(minor), currency });

/** A request's amount in minor units: a safe integer, or INVALID_ARGUMENT naming the field. */
function amountOf(m: { amountMinor: bigint } | undefined): number {
  const n = m ? Number(m.amountMinor) : 0;
  if (!m || !Number.isSafeInteger(n) || n <= 0) throw invalidArgument("amount", "must be a positive whole number of the currency's minor units");
  return n;
}

export function consoleMoneyService(deps: Deps): ServiceImpl<typeof ConsoleMoneyService> {
  return {
    getMoneyActions: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.read");
        checkTraceId(req.traceId);
        const a = await deps.orders.get(req.traceId);
        if (!a || !inScope(who.scope, a.merchantId)) throw notFound(`no transaction with trace_id ${req.traceId}`);
        const res = create(GetMoneyActionsResponseSchema, { refundable: money(0, a.currency) });
        const threshold = (await deps.backoffice.thresholds(a.merchantId)).find((t) => t.currency === a.currency);
        if (threshold) res.fourEyesAmount = money(threshold.amountMinor, a.currency);
        if (a.type === "sale") {
          const refused = await refundRefusal(deps, a);
          const remaining = refused ? 0 : await deps.backoffice.refundRemaining(a.traceId);
          res.refundable = money(remaining, a.currency);
          res.refundOffered = !refused && remaining > 0;
          res.refundRefused = refused ? refused.message : remaining > 0 ? "" : "the sale is refunded in full (approved and pending refunds count)";
          const first = await deps.backoffice.refundFirstApproval(a.traceId);
          if (first)
            res.refundApproval = create(RefundApprovalSchema, {
              login: first.login,
              amount: money(first.amountMinor, first.currency),
              reason: first.reason,
              time: timestampFromDate(first.approvedAt),
            });
          if (a.status === "pending" || a.status === "pending_async") {
            const why = saleCancelRefusal(a, deps.now());
            res.cancelOffered = why === undefined;
            res.cancelRefused = why ?? "";
          }
        }
        if (a.type === "payout" && a.status === "requested") {
          const hold = (await deps.backoffice.holds([a.traceId])).get(a.traceId);
          if (hold) res.hold = holdToProto(hold);
        }
        return res;
      }),

    refundSale: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.refund", `trace_id:${req.traceId}`);
        checkTraceId(req.traceId);
        const amountMinor = amountOf(req.amount);
        const r = await refundFromConsole(deps, who, {
          traceId: req.traceId,
          amountMinor,
          currency: req.amount?.currency ?? "",
          reason: req.reason,
          requestId: req.requestId,
        });
        if (!r.ok) throw toRpcError(r.error);
        return create(RefundSaleResponseSchema, { refund: r.refund ? attemptToProto(r.refund) : undefined, awaitingSecondApproval: r.awaitingSecond });
      }),

    cancelSale: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.cancel", `trace_id:${req.traceId}`);
        checkTraceId(req.traceId);
        const r = await cancelSaleFromConsole(deps, who, req.traceId, req.reason);
        if (!r.ok) throw toRpcError(r.error);
        return create(CancelSaleResponseSchema, { transaction: attemptToProto(r.attempt) });
      }),

    holdPayout: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "payout.hold", `trace_id:${req.traceId}`);
        checkTraceId(req.traceId);
        const r = await holdPayout(deps, who, req.traceId, req.reason);
        if (!r.ok) throw toRpcError(r.error);
        return create(HoldPayoutResponseSchema, { hold: holdToProto(r.hold) });
      }),

    releasePayout: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "payout.hold", `trace_id:${req.traceId}`);
        checkTraceId(req.traceId);
        const r = await releasePayout(deps, who, req.traceId, req.reason);
        if (!r.ok) throw toRpcError(r.error);
        return create(ReleasePayoutResponseSchema, {});
      }),

    bulkDecidePayouts: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "payout.decide", payoutsTarget(req.traceIds));
        const decision = REFUSALS.get(req.decision);
        if (!decision) throw invalidArgument("decision", "must be REJECT or CANCEL (bulk approval is BulkApprovePayouts)");
        if (req.traceIds.length < 1 || req.traceIds.length > BULK_APPROVE_MAX) throw invalidArgument("trace_ids", `must list 1 to ${BULK_APPROVE_MAX} payouts`);
        if (new Set(req.traceIds).size !== req.traceIds.length) throw invalidArgument("trace_ids", "must not repeat a payout");
        const reason = reasonFromProto(req.reason);
        const faults = reasonFaults(reason, req.note, decision);
        if (faults.length > 0) throw toRpcError(domainError("INVALID_FIELDS", describeViolations(faults), faults));
        // One payout at a time, each its own decision, audit row and UpdatePayout; one's refusal stops no other.
        const results = [];
        for (const traceId of req.traceIds) {
          const failed = (error: string) => create(BulkApprovalResultSchema, { traceId, error });
          if (traceId <= 0) {
            results.push(failed("trace_id must be a positive integer"));
            continue;
          }
          try {
            const r = await decideConsolePayout(deps, who, traceId, decision, reason, req.note);
            results.push(r.ok ? create(BulkApprovalResultSchema, { traceId, transaction: attemptToProto(r.attempt) }) : failed(r.error.message));
          } catch (err) {
            if (!(err instanceof ConsoleRefusal)) throw err;
            results.push(failed(err.message));
          }
        }
        return create(BulkDecidePayoutsResponseSchema, { results });
      }),

    takeMotoPayment: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.moto", `merchant:${req.merchantId}`);
        const r = await takeMotoPayment(deps, who, motoFormOf(req, amountOf(req.amount)));
        if (!r.ok) throw toRpcError(r.error);
        return create(TakeMotoPaymentResponseSchema, { transaction: attemptToProto(r.attempt), replayed: r.replayed });
      }),

    withdrawRefundRequest: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "transaction.refund", `trace_id:${req.traceId}`);
        checkTraceId(req.traceId);
        const r = await withdrawRefundRequest(deps, who, req.traceId, req.reason);
        if (!r.ok) throw toRpcError(r.error);
        const w = r.withdrawn;
        return create(WithdrawRefundRequestResponseSchema, {
          withdrawn: create(RefundApprovalSchema, {
            login: w.login,
            amount: money(w.amountMinor, w.currency),
            reason: w.reason,
            time: timestampFromDate(w.approvedAt),
          }),
        });
      }),
  };
}
