/**
 * ConsoleWorkService, the dashboard: the console's first page, aggregated over
 * the merchants in scope for a period of at most 31 days (24 hours by
 * default): sales by hour and processor, decline reasons, payouts waiting and
 * callback health.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ConsoleWorkService,
  CallbackHealthSchema,
  DeclineReasonSchema,
  GetDashboardResponseSchema,
  PayoutsWaitingSchema,
  ProcessorHourSchema,
} from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { ConsoleReads } from "../ports/read-replica.ts";
import { authorize } from "../app/console-session.ts";
import { callerOf, consoleCall, readSourceToProto } from "./console-mappers.ts";
import { merchantsFor } from "./console-scope.ts";
import { kindToProto } from "../../payments/rpc/index.ts";
import { invalidArgument } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { timeArgument } from "../../rpc/time-argument.ts";

export function dashboardWork(deps: BackofficeDeps & { reads: ConsoleReads }): Pick<ServiceImpl<typeof ConsoleWorkService>, "getDashboard"> {
  return {
    getDashboard: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "dashboard.read");
        const merchants = merchantsFor(who, req.merchantId);
        const now = deps.now();
        const end = timeArgument("end_time", req.endTime) ?? now;
        const start = timeArgument("start_time", req.startTime) ?? new Date(end.getTime() - 24 * 3_600_000);
        if (start >= end) throw invalidArgument("end_time", "must be after start_time");
        if (end.getTime() - start.getTime() > 31 * 86_400_000) throw invalidArgument("start_time", "must be at most 31 days before end_time");
        // Figures an operator reads: from the replica when there is one.
        const { value: f, source } = await deps.reads.read((ports) => ports.backoffice.dashboard(merchants, start, end, now));
        return create(GetDashboardResponseSchema, {
          volume: f.volume.map((v) =>
            create(ProcessorHourSchema, {
              hour: timestampFromDate(v.hour),
              processor: v.processor,
              currency: v.currency,
              attempts: v.attempts,
              approved: v.approved,
              approvedAmount: BigInt(v.approvedMinor),
            }),
          ),
          declines: f.declines.map((d) => create(DeclineReasonSchema, d)),
          payoutsWaiting: create(PayoutsWaitingSchema, {
            count: f.waiting.count,
            oldestCreateTime: f.waiting.oldest ? timestampFromDate(f.waiting.oldest) : undefined,
            under1h: f.waiting.under1h,
            under4h: f.waiting.under4h,
            under24h: f.waiting.under24h,
            over24h: f.waiting.over24h,
          }),
          callbacks: f.callbacks.map((c) =>
            create(CallbackHealthSchema, { kind: kindToProto(c.kind), attempts: c.attempts, failedAttempts: c.failedAttempts, givenUp: c.givenUp }),
          ),
          startTime: timestampFromDate(start),
          endTime: timestampFromDate(end),
          readSource: readSourceToProto(source),
        });
      }),
  };
}
