/**
 * BackofficeService, the settings: merchants and frontends (AdminService's
 * own handlers, behind the role and the scope, each change audited with the
 * merchant before and after; a new secret is never written anywhere but its
 * sealed column), four-eyes amounts, operators, the audit log and the
 * dashboard. A scoped admin manages only operators inside its own scope.
 */
import { create, toJson } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { GetMerchantRequestSchema, ListMerchantsRequestSchema, ListProcessorAccountsRequestSchema } from "../../../gen/cashier/admin/v1/admin_service_pb.js";
import {
  type BackofficeService,
  BackofficeServiceCreateFrontendResponseSchema,
  BackofficeServiceCreateOperatorResponseSchema,
  BackofficeServiceDisableOperatorResponseSchema,
  BackofficeServiceGetMerchantResponseSchema,
  BackofficeServiceListMerchantsResponseSchema,
  BackofficeServiceResetOperatorResponseSchema,
  BackofficeServiceRotateMerchantSecretResponseSchema,
  BackofficeServiceUpdateFrontendResponseSchema,
  BackofficeServiceUpdateMerchantResponseSchema,
  CallbackHealthSchema,
  DeclineReasonSchema,
  GetDashboardResponseSchema,
  ListAuditEntriesResponseSchema,
  ListOperatorsResponseSchema,
  PayoutsWaitingSchema,
  ProcessorHourSchema,
  SetFourEyesThresholdsResponseSchema,
  UpdateOperatorResponseSchema,
  VerifyAuditChainResponseSchema,
} from "../../../gen/cashier/admin/v1/backoffice_service_pb.js";
import { MerchantSchema } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { MoneySchema } from "../../../gen/cashier/engine/v1/money_pb.js";
import { auditedChange } from "../app/audited-change.ts";
import type { ConsoleCaller } from "../ports/ports.ts";
import { auditingRefusals, authorize, type SignedIn } from "../app/console-session.ts";
import { createOperator, disableOperator, resetOperator, updateOperator, type OperatorResult } from "../app/operator-admin.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { domainError } from "../../shared/errors.ts";
import type { Action } from "../domain/operator-roles.ts";
import { adminService } from "./admin-service.ts";
import { auditToProto, callerOf, consoleCall, enrolmentToProto, merchantTarget, operatorToProto, roleFromProto, stateFromProto } from "./backoffice-mappers.ts";
import { merchantsFor, type WorkDeps } from "./backoffice-work.ts";
import { kindToProto } from "../../payments/rpc/index.ts";
import { checkText, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { CallContext, ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { pageOf, readPage } from "../../payments/rpc/index.ts";
import { timeArgument } from "../../rpc/time-argument.ts";
import { auditExport } from "../app/console-export.ts";

type SettingsCalls = Pick<
  ServiceImpl<typeof BackofficeService>,
  | "listMerchants"
  | "getMerchant"
  | "updateMerchant"
  | "createFrontend"
  | "updateFrontend"
  | "rotateMerchantSecret"
  | "setFourEyesThresholds"
  | "listOperators"
  | "createOperator"
  | "updateOperator"
  | "disableOperator"
  | "resetOperator"
  | "listAuditEntries"
  | "verifyAuditChain"
  | "getDashboard"
>;

const MAX_AUDIT_PAGE = 1000;

export function backofficeSettings(deps: WorkDeps): SettingsCalls {
  const admin = adminService(deps);
  const merchantJson = (m: unknown) => canonicalJson(toJson(MerchantSchema, m as never));

  /** A merchant change: authorized, in scope, applied by AdminService's handler, audited with before and after. */
  async function changeMerchant<T extends { merchant?: unknown }>(
    caller: ConsoleCaller,
    action: Action,
    auditAction: string,
    merchantId: string,
    ctx: CallContext,
    apply: () => Promise<T>,
  ): Promise<T> {
    const who = await authorize(deps, caller, action, merchantTarget(merchantId));
    // A merchant out of the caller's reach (or none) is refused before the change's own audit: audited here.
    const before = await auditingRefusals(deps, who, caller, { action: auditAction, target: merchantTarget(merchantId) }, async () => {
      merchantsFor(who, merchantId);
      return admin.getMerchant(create(GetMerchantRequestSchema, { merchantId }), ctx);
    });
    const record = (outcome: "success" | "failure", after: string, detail = "") => ({
      actor: who.scope.login,
      action: auditAction,
      outcome,
      merchantId,
      target: `merchant:${merchantId}`,
      clientAddress: caller.clientAddress,
      beforeJson: merchantJson(before.merchant),
      afterJson: after,
      detail,
    });
    // The change, its read-back and its audit row: one transaction; a refusal audited as a failure.
    return auditedChange(deps, merchantId, record, apply, (r) => merchantJson(r.merchant));
  }

  /** Operators a scoped admin may touch: those whose scope lies inside its own. */
  /** Whether `merchantIds` (an operator's scope; empty: every merchant) reach past a scoped caller's own. */
  function beyondScope(who: SignedIn, merchantIds: readonly string[]): boolean {
    const mine = who.scope.merchantIds;
    return mine.length > 0 && (merchantIds.length === 0 || merchantIds.some((m) => !mine.includes(m)));
  }

  function checkManaged(who: SignedIn, merchantIds: readonly string[]) {
    if (beyondScope(who, merchantIds))
      throw invalidArgument("merchant_ids", "must name only merchants of the caller's own scope (a scoped admin cannot grant every merchant)");
  }

  const operatorResult = (r: OperatorResult) => {
    if (!r.ok) throw toRpcError(r.error);
    return r;
  };

  /** The operator `login`, if the caller may manage it; one outside a scoped admin's scope does not exist for it (the same NOT_FOUND). */
  async function managed(who: SignedIn, login: string) {
    checkText("login", login);
    const target = await deps.operators.get(login);
    if (!target || beyondScope(who, target.merchantIds))
      throw toRpcError(domainError("NOT_FOUND", `no operator with login ${JSON.stringify(login.slice(0, 64))}`));
    return target;
  }

  return {
    listMerchants: (req, ctx) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "merchant.read");
        if (who.scope.merchantIds.length === 0) {
          const r = await admin.listMerchants(create(ListMerchantsRequestSchema, { pageSize: req.pageSize, pageToken: req.pageToken }), ctx);
          return create(BackofficeServiceListMerchantsResponseSchema, { merchants: r.merchants, nextPageToken: r.nextPageToken });
        }
        const { limit, after } = readPage<string>(req, "string");
        const ids = [...who.scope.merchantIds].sort().filter((m) => after === undefined || m > after);
        const rows = [];
        for (const m of ids.slice(0, limit + 1)) {
          const r = await admin.getMerchant(create(GetMerchantRequestSchema, { merchantId: m }), ctx).catch(() => undefined);
          if (r?.merchant) rows.push(r.merchant);
        }
        const page = pageOf(rows, limit, (m) => m.merchantId);
        return create(BackofficeServiceListMerchantsResponseSchema, { merchants: page.items, nextPageToken: page.nextPageToken });
      }),

    getMerchant: (req, ctx) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "merchant.read");
        if (!req.merchantId) throw invalidArgument("merchant_id", "is required");
        merchantsFor(who, req.merchantId);
        const m = await admin.getMerchant(create(GetMerchantRequestSchema, { merchantId: req.merchantId }), ctx);
        const accounts = await admin.listProcessorAccounts(create(ListProcessorAccountsRequestSchema, { merchantId: req.merchantId }), ctx);
        const thresholds = await deps.backoffice.thresholds(req.merchantId);
        return create(BackofficeServiceGetMerchantResponseSchema, {
          merchant: m.merchant,
          accounts: accounts.accounts,
          fourEyesThresholds: thresholds.map((t) => create(MoneySchema, { amountMinor: BigInt(t.amountMinor), currency: t.currency })),
        });
      }),

    updateMerchant: (req, ctx) =>
      consoleCall(async () => {
        if (!req.update?.merchant) throw invalidArgument("update.merchant", "is required");
        const update = req.update;
        const r = await changeMerchant(callerOf(req.context), "merchant.update", "merchant.update", update.merchant!.merchantId, ctx, () =>
          admin.updateMerchant(update, ctx),
        );
        return create(BackofficeServiceUpdateMerchantResponseSchema, { merchant: r.merchant });
      }),

    createFrontend: (req, ctx) =>
      consoleCall(async () => {
        if (!req.create) throw invalidArgument("create", "is required");
        const c = req.create;
        const r = await changeMerchant(callerOf(req.context), "merchant.update", "frontend.create", c.merchantId, ctx, () => admin.createFrontend(c, ctx));
        return create(BackofficeServiceCreateFrontendResponseSchema, { merchant: r.merchant });
      }),

    updateFrontend: (req, ctx) =>
      consoleCall(async () => {
        if (!req.update) throw invalidArgument("update", "is required");
        const u = req.update;
        const r = await changeMerchant(callerOf(req.context), "merchant.update", "frontend.update", u.merchantId, ctx, () => admin.updateFrontend(u, ctx));
        return create(BackofficeServiceUpdateFrontendResponseSchema, { merchant: r.merchant });
      }),

    rotateMerchantSecret: (req, ctx) =>
      consoleCall(async () => {
        if (!req.rotation) throw invalidArgument("rotation", "is required");
        const rot = req.rotation;
        const r = await changeMerchant(callerOf(req.context), "merchant.rotate_secret", "merchant.rotate_secret", rot.merchantId, ctx, () =>
          admin.rotateMerchantSecret(rot, ctx),
        );
        return create(BackofficeServiceRotateMerchantSecretResponseSchema, { merchant: r.merchant });
      }),

    setFourEyesThresholds: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = merchantTarget(req.merchantId);
        const who = await authorize(deps, caller, "merchant.update", target);
        return auditingRefusals(deps, who, caller, { action: "merchant.four_eyes", target }, async () => {
          if (!req.merchantId) throw invalidArgument("merchant_id", "is required");
          merchantsFor(who, req.merchantId);
          const merchant = await deps.merchants.get(req.merchantId, { fresh: true });
          if (!merchant) throw toRpcError(domainError("NOT_FOUND", `no merchant ${req.merchantId}`));
          const seen = new Set<string>();
          const list = req.thresholds.map((t, i) => {
            if (!/^[A-Z]{3}$/.test(t.currency)) throw invalidArgument(`thresholds[${i}].currency`, "must be an ISO 4217 code");
            if (seen.has(t.currency)) throw invalidArgument(`thresholds[${i}].currency`, "is listed twice");
            seen.add(t.currency);
            if (t.amountMinor < 0n || t.amountMinor > BigInt(Number.MAX_SAFE_INTEGER))
              throw invalidArgument(`thresholds[${i}].amount_minor`, "must be 0 or more");
            return { currency: t.currency, amountMinor: Number(t.amountMinor) };
          });
          const before = await deps.backoffice.thresholds(req.merchantId);
          await deps.operators.transaction(async (tx) => {
            await deps.backoffice.setThresholds(req.merchantId, list, tx);
            await deps.audit.append(
              {
                actor: who.scope.login,
                action: "merchant.four_eyes",
                outcome: "success",
                merchantId: req.merchantId,
                target: `merchant:${req.merchantId}`,
                clientAddress: caller.clientAddress,
                beforeJson: canonicalJson(before),
                afterJson: canonicalJson(list),
              },
              tx,
            );
          });
          return create(SetFourEyesThresholdsResponseSchema, {
            thresholds: list.map((t) => create(MoneySchema, { amountMinor: BigInt(t.amountMinor), currency: t.currency })),
          });
        });
      }),

    listOperators: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "operator.read");
        const state = stateFromProto(req.state);
        if (state === null) throw invalidArgument("state", "is not an OperatorState");
        const mine = who.scope.merchantIds;
        const all = await deps.operators.list(state);
        const visible = mine.length === 0 ? all : all.filter((o) => o.merchantIds.length > 0 && o.merchantIds.every((m) => mine.includes(m)));
        return create(ListOperatorsResponseSchema, { operators: visible.map((o) => operatorToProto(o, deps.now())) });
      }),

    createOperator: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const login = req.create?.login ?? "";
        const who = await authorize(deps, caller, "operator.manage", `operator:${login.slice(0, 64)}`);
        return auditingRefusals(deps, who, caller, { action: "operator.create", target: `operator:${login.slice(0, 64)}` }, async () => {
          if (!req.create) throw invalidArgument("create", "is required");
          checkManaged(who, req.create.merchantIds);
          const r = operatorResult(
            await createOperator(
              deps,
              { name: who.scope.login, clientAddress: caller.clientAddress },
              req.create.login,
              roleFromProto(req.create.role) ?? "",
              req.create.merchantIds,
            ),
          );
          return create(BackofficeServiceCreateOperatorResponseSchema, {
            operator: operatorToProto(r.operator, deps.now()),
            enrolment: enrolmentToProto(r.enrolment),
          });
        });
      }),

    updateOperator: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `operator:${req.login.slice(0, 64)}`;
        const who = await authorize(deps, caller, "operator.manage", target);
        return auditingRefusals(deps, who, caller, { action: "operator.update", target }, async () => {
          await managed(who, req.login);
          checkManaged(who, req.merchantIds);
          if (req.login === who.scope.login) throw invalidArgument("login", "an operator cannot change its own role or scope");
          const r = operatorResult(
            await updateOperator(
              deps,
              { name: who.scope.login, clientAddress: caller.clientAddress },
              req.login,
              roleFromProto(req.role) ?? "",
              req.merchantIds,
            ),
          );
          return create(UpdateOperatorResponseSchema, { operator: operatorToProto(r.operator, deps.now()) });
        });
      }),

    disableOperator: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `operator:${req.login.slice(0, 64)}`;
        const who = await authorize(deps, caller, "operator.manage", target);
        return auditingRefusals(deps, who, caller, { action: "operator.disable", target }, async () => {
          await managed(who, req.login);
          if (req.login === who.scope.login) throw invalidArgument("login", "an operator cannot disable itself");
          const r = operatorResult(await disableOperator(deps, { name: who.scope.login, clientAddress: caller.clientAddress }, req.login));
          return create(BackofficeServiceDisableOperatorResponseSchema, { operator: operatorToProto(r.operator, deps.now()) });
        });
      }),

    resetOperator: (req) =>
      consoleCall(async () => {
        const caller = callerOf(req.context);
        const target = `operator:${req.login.slice(0, 64)}`;
        const who = await authorize(deps, caller, "operator.manage", target);
        return auditingRefusals(deps, who, caller, { action: "operator.reset", target }, async () => {
          await managed(who, req.login);
          const r = operatorResult(await resetOperator(deps, { name: who.scope.login, clientAddress: caller.clientAddress }, req.login));
          return create(BackofficeServiceResetOperatorResponseSchema, {
            operator: operatorToProto(r.operator, deps.now()),
            enrolment: enrolmentToProto(r.enrolment),
          });
        });
      }),

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

    getDashboard: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "dashboard.read");
        const merchants = merchantsFor(who, req.merchantId);
        const now = deps.now();
        const end = timeArgument("end_time", req.endTime) ?? now;
        const start = timeArgument("start_time", req.startTime) ?? new Date(end.getTime() - 24 * 3_600_000);
        if (start >= end) throw invalidArgument("end_time", "must be after start_time");
        if (end.getTime() - start.getTime() > 31 * 86_400_000) throw invalidArgument("start_time", "must be at most 31 days before end_time");
        const f = await deps.backoffice.dashboard(merchants, start, end, now);
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
        });
      }),
  };
}
