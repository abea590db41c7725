/**
 * ConsoleSettingsService, the audit log: its pages, newest first, within the
 * operator's merchant scope (an export's first page is itself audited), and
 * the check of its hash chain.
 */
import { create } from "@bufbuild/protobuf";
import {
  type ConsoleSettingsService,
  ListAuditEntriesResponseSchema,
  VerifyAuditChainResponseSchema,
} from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import { auditExport } from "../app/console-export.ts";
import { authorize } from "../app/console-session.ts";
import { auditToProto, callerOf, consoleCall } from "./console-mappers.ts";
import { merchantsFor } from "./console-scope.ts";
import { checkText, invalidArgument } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { pageOf, readPage } from "../../payments/rpc/index.ts";
import { timeArgument } from "../../rpc/time-argument.ts";

const MAX_AUDIT_PAGE = 1000;

export function auditSettings(deps: BackofficeDeps): Pick<ServiceImpl<typeof ConsoleSettingsService>, "listAuditEntries" | "verifyAuditChain"> {
  return {
    listAuditEntries: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const who = await authorize(deps, caller, req.export ? "audit.export" : "audit.read");
        for (const [field, value] of [
          ["actor", req.actor],
          ["action", req.action],
          ["merchant_id", req.merchantId],
        ] as const)
          checkText(field, value);
        if (req.pageSize < 0 || req.pageSize > MAX_AUDIT_PAGE) throw invalidArgument("page_size", `must be 0 to ${MAX_AUDIT_PAGE}`);
        const limit = req.pageSize || 50;
        const { after } = readPage<number>({ pageSize: 0, pageToken: req.pageToken }, "number");
        const startTime = timeArgument("start_time", req.startTime);
        const endTime = timeArgument("end_time", req.endTime);
        if (req.merchantId) merchantsFor(who, req.merchantId);
        const rows = await deps.audit.list({
          actor: req.actor || undefined,
          action: req.action || undefined,
          merchantId: req.merchantId || undefined,
          merchantIds: who.scope.merchantIds.length > 0 ? who.scope.merchantIds : undefined,
          startTime,
          endTime,
          beforeId: after,
          limit: limit + 1,
        });
        if (req.export)
          await auditExport(deps, who, {
            action: "audit.export",
            firstPage: !req.pageToken,
            filters: { actor: req.actor, action: req.action, merchant_id: req.merchantId },
          });
        const page = pageOf(rows, limit, (r) => r.id);
        return create(ListAuditEntriesResponseSchema, { entries: page.items.map(auditToProto), nextPageToken: page.nextPageToken });
      }),

    verifyAuditChain: (req) =>
      consoleCall(async () => {
        await authorize(deps, callerOf(req.context), "audit.read");
        const v = await deps.audit.verify();
        return create(VerifyAuditChainResponseSchema, {
          intact: v.intact,
          rowsChecked: BigInt(v.checked),
          firstBrokenId: v.intact ? 0n : BigInt(v.firstBrokenId),
          problem: v.intact ? "" : v.problem,
        });
      }),
  };
}
