/**
 * ConsoleWorkService, the payouts waiting for a person: the queue, a payout's
 * context (its customer's history at the merchant), one decision and a bulk
 * approval. Held payouts (console-money-service.ts) are listed apart. A payout above the merchant's four-eyes amount needs two
 * operators (app/console-payouts.ts); the queue shows the first approval only
 * while its operator may still decide.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ConsoleWorkService,
  BulkApprovalResultSchema,
  BulkApprovePayoutsResponseSchema,
  CustomerTotalsSchema,
  DecidePayoutResponseSchema,
  FourEyesApprovalSchema,
  GetPayoutContextResponseSchema,
  ListPayoutQueueResponseSchema,
  PayoutDecision as PbDecision,
  type PayoutReason as PbReason,
  QueuedPayoutSchema,
} from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import { decideConsolePayout, issuedAccessBetween, needsFourEyes, reasonFaults, scopedPayout, stillDecides } from "../app/console-payouts.ts";
import { BULK_APPROVE_MAX, PAYOUT_REASONS, type PayoutReason } from "../../shared/payout-reasons.ts";
import { ConsoleRefusal } from "../domain/console-rules.ts";
import { authorize, type SignedIn } from "../app/console-session.ts";
import type { PayoutDecision, ProcessDeps } from "../../payments/index.ts";
import { domainError, describeViolations } from "../../shared/errors.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { callerOf, consoleCall, payoutsTarget } from "./console-mappers.ts";
import { merchantsFor, notFound } from "./console-scope.ts";
import { checkTraceId, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { attemptToProto, pageOf, readPage } from "../../payments/rpc/index.ts";
import { holdToProto } from "./money-mappers.ts";

type PayoutDeps = ProcessDeps & BackofficeDeps;

type PayoutCalls = Pick<ServiceImpl<typeof ConsoleWorkService>, "listPayoutQueue" | "getPayoutContext" | "decidePayout" | "bulkApprovePayouts">;

const DECISIONS = new Map<PbDecision, PayoutDecision>([
  [PbDecision.APPROVE, "approve"],
  [PbDecision.REJECT, "reject"],
  [PbDecision.CANCEL, "cancel"],
]);

export const reasonFromProto = (r: PbReason): PayoutReason | undefined => (r > 0 && r <= PAYOUT_REASONS.length ? PAYOUT_REASONS[r - 1] : undefined);
const reasonToProto = (r: string): PbReason => (PAYOUT_REASONS as readonly string[]).indexOf(r) + 1;

/** The attempts of `ids` that exist, in their order. */
export async function attempts(deps: Pick<ProcessDeps, "orders">, ids: number[]): Promise<Attempt[]> {
  return (await Promise.all(ids.map((id) => deps.orders.get(id)))).filter((a): a is Attempt => a !== undefined);
}

/** Payouts as the queue shows them: whether four eyes are needed, and the first approval that still counts. */
export async function queued(deps: PayoutDeps, list: Attempt[]) {
  const firsts = await deps.backoffice.firstApprovals(list.map((a) => a.traceId));
  const holds = await deps.backoffice.holds(list.filter((a) => a.status === "requested").map((a) => a.traceId));
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
        hold: holds.has(a.traceId) ? holdToProto(holds.get(a.traceId)!) : undefined,
      });
    }),
  );
}

export function payoutWork(deps: PayoutDeps): PayoutCalls {
  const decide = async (who: SignedIn, traceId: number, decision: PayoutDecision, reason: PbReason, note: string) => {
    checkTraceId(traceId);
    return decideConsolePayout(deps, who, traceId, decision, reasonFromProto(reason), note);
  };

  return {
    listPayoutQueue: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "payout.read");
        const merchants = merchantsFor(who, req.merchantId);
        const { read, limit, after } = readPage<number>(req, "number");
        // Held payouts wait apart: the queue without them, or only them.
        const ids = req.held ? await deps.backoffice.heldQueue(merchants, after, read) : await deps.backoffice.payoutQueue(merchants, after, read);
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
