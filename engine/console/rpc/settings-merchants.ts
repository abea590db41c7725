/**
 * ConsoleSettingsService, the merchants: the list and one merchant's settings in
 * scope, and the changes to a merchant, its frontends and its secret, each
 * made by AdminService's own handler behind the role and the scope, and
 * audited with the merchant before and after in the change's transaction. A
 * new secret is never written anywhere but its sealed column.
 */
import { create, toJson } from "@bufbuild/protobuf";
import { GetMerchantRequestSchema, ListMerchantsRequestSchema, ListProcessorAccountsRequestSchema } from "../../../gen/cashier/admin/v1/admin_service_pb.js";
import {
  type ConsoleSettingsService,
  ConsoleSettingsServiceCreateFrontendResponseSchema,
  ConsoleSettingsServiceGetMerchantResponseSchema,
  ConsoleSettingsServiceListMerchantsResponseSchema,
  ConsoleSettingsServiceRotateMerchantSecretResponseSchema,
  ConsoleSettingsServiceUpdateFrontendResponseSchema,
  ConsoleSettingsServiceUpdateMerchantResponseSchema,
} from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { MerchantSchema } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { MoneySchema } from "../../../gen/cashier/engine/v1/money_pb.js";
import { ConnectorSchema } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { connectorCatalogue, ROUTING_CARD_BRANDS } from "../../payments/index.ts";
import { ruleToProto, rulesEtag } from "./routing-mappers.ts";
import { auditedChange } from "../app/audited-change.ts";
import type { BackofficeDeps, ConsoleCaller } from "../ports/ports.ts";
import { auditingRefusals, authorize } from "../app/console-session.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import type { Action } from "../domain/operator-roles.ts";
import type { ProcessDeps } from "../../payments/index.ts";
import { adminService } from "./admin-service.ts";
import { callerOf, consoleCall, merchantTarget } from "./console-mappers.ts";
import { merchantsFor } from "./console-scope.ts";
import type { MerchantAdminDeps } from "./merchant-admin.ts";
import { invalidArgument } from "../../rpc/errors.ts";
import type { CallContext, ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { pageOf, readPage } from "../../payments/rpc/index.ts";

type MerchantCalls = Pick<
  ServiceImpl<typeof ConsoleSettingsService>,
  "listMerchants" | "getMerchant" | "updateMerchant" | "createFrontend" | "updateFrontend" | "rotateMerchantSecret"
>;

/** What AdminService's merchant handlers need, and the console's own stores. */
export type MerchantSettingsDeps = ProcessDeps & MerchantAdminDeps & BackofficeDeps;

export function merchantSettings(deps: MerchantSettingsDeps): MerchantCalls {
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

  return {
    listMerchants: (req, ctx) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "merchant.read");
        if (who.scope.merchantIds.length === 0) {
          const r = await admin.listMerchants(create(ListMerchantsRequestSchema, { pageSize: req.pageSize, pageToken: req.pageToken }), ctx);
          return create(ConsoleSettingsServiceListMerchantsResponseSchema, { merchants: r.merchants, nextPageToken: r.nextPageToken });
        }
        const { limit, after } = readPage<string>(req, "string");
        const ids = [...who.scope.merchantIds].sort().filter((m) => after === undefined || m > after);
        const rows = [];
        for (const m of ids.slice(0, limit + 1)) {
          const r = await admin.getMerchant(create(GetMerchantRequestSchema, { merchantId: m }), ctx).catch(() => undefined);
          if (r?.merchant) rows.push(r.merchant);
        }
        const page = pageOf(rows, limit, (m) => m.merchantId);
        return create(ConsoleSettingsServiceListMerchantsResponseSchema, { merchants: page.items, nextPageToken: page.nextPageToken });
      }),

    getMerchant: (req, ctx) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "merchant.read");
        if (!req.merchantId) throw invalidArgument("merchant_id", "is required");
        merchantsFor(who, req.merchantId);
        const m = await admin.getMerchant(create(GetMerchantRequestSchema, { merchantId: req.merchantId }), ctx);
        const accounts = await admin.listProcessorAccounts(create(ListProcessorAccountsRequestSchema, { merchantId: req.merchantId }), ctx);
        const thresholds = await deps.backoffice.thresholds(req.merchantId);
        const rules = (await deps.merchantStore.view(req.merchantId))?.routingRules ?? [];
        return create(ConsoleSettingsServiceGetMerchantResponseSchema, {
          merchant: m.merchant,
          accounts: accounts.accounts,
          fourEyesThresholds: thresholds.map((t) => create(MoneySchema, { amountMinor: BigInt(t.amountMinor), currency: t.currency })),
          routingRules: rules.map(ruleToProto),
          routingRulesEtag: rulesEtag(rules),
          connectors: connectorCatalogue().map((c) =>
            create(ConnectorSchema, {
              name: c.name,
              credentials: [...c.credentials],
              requiredSettings: c.requiredSettings,
              capabilities: [...c.capabilities],
              optionalCredentials: [...c.optionalCredentials],
            }),
          ),
          cardBrands: [...ROUTING_CARD_BRANDS],
        });
      }),

    updateMerchant: (req, ctx) =>
      consoleCall(async () => {
        if (!req.update?.merchant) throw invalidArgument("update.merchant", "is required");
        const update = req.update;
        const r = await changeMerchant(callerOf(req.context), "merchant.update", "merchant.update", update.merchant!.merchantId, ctx, () =>
          admin.updateMerchant(update, ctx),
        );
        return create(ConsoleSettingsServiceUpdateMerchantResponseSchema, { merchant: r.merchant });
      }),

    createFrontend: (req, ctx) =>
      consoleCall(async () => {
        if (!req.create) throw invalidArgument("create", "is required");
        const c = req.create;
        const r = await changeMerchant(callerOf(req.context), "merchant.update", "frontend.create", c.merchantId, ctx, () => admin.createFrontend(c, ctx));
        return create(ConsoleSettingsServiceCreateFrontendResponseSchema, { merchant: r.merchant });
      }),

    updateFrontend: (req, ctx) =>
      consoleCall(async () => {
        if (!req.update) throw invalidArgument("update", "is required");
        const u = req.update;
        const r = await changeMerchant(callerOf(req.context), "merchant.update", "frontend.update", u.merchantId, ctx, () => admin.updateFrontend(u, ctx));
        return create(ConsoleSettingsServiceUpdateFrontendResponseSchema, { merchant: r.merchant });
      }),

    rotateMerchantSecret: (req, ctx) =>
      consoleCall(async () => {
        if (!req.rotation) throw invalidArgument("rotation", "is required");
        const rot = req.rotation;
        const r = await changeMerchant(callerOf(req.context), "merchant.rotate_secret", "merchant.rotate_secret", rot.merchantId, ctx, () =>
          admin.rotateMerchantSecret(rot, ctx),
        );
        return create(ConsoleSettingsServiceRotateMerchantSecretResponseSchema, { merchant: r.merchant });
      }),
  };
}
