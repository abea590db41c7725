/**
 * ConsoleSettingsService, a merchant's routing rules (CONTRACT 11, docs/routing.md): replaced whole by an admin,
 * in order, checked by the merchants file's parser against the accounts the merchant can use (its accounts and its
 * processors), refused when they changed since the admin read them (the etag); and the preview, which runs a
 * hypothetical sale or payout through the engine's own route() over the stored rules, for anyone who may read the
 * merchant.
 */
import { create, toJson } from "@bufbuild/protobuf";
import {
  type ConsoleSettingsService,
  PreviewRoutingResponseSchema,
  SetRoutingRulesResponseSchema,
} from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { RoutingRuleSchema, SplitWeightSchema } from "../../../gen/cashier/admin/v1/routing_pb.js";
import { TransactionType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { previewRouting, ruleLabel } from "../../payments/index.ts";
import { domainError } from "../../shared/errors.ts";
import { authorize } from "../app/console-session.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { checkText, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { callerOf, consoleCall } from "./console-mappers.ts";
import { merchantsFor, notFound } from "./console-scope.ts";
import { ruleToProto, rulesEtag, rulesOfRequest } from "./routing-mappers.ts";
import { merchantChange } from "./settings-change.ts";
import type { MerchantSettingsDeps } from "./settings-merchants.ts";

type Calls = Pick<ServiceImpl<typeof ConsoleSettingsService>, "setRoutingRules" | "previewRouting">;

const TYPES: Partial<Record<TransactionType, "sale" | "payout">> = { [TransactionType.SALE]: "sale", [TransactionType.PAYOUT]: "payout" };

export function routingSettings(deps: MerchantSettingsDeps): Calls {
  const store = deps.merchantStore;
  const rulesOf = async (merchantId: string) => (await store.view(merchantId))?.routingRules ?? [];
  const rulesJson = async (merchantId: string) => canonicalJson((await rulesOf(merchantId)).map((r) => toJson(RoutingRuleSchema, ruleToProto(r))));

  return {
    setRoutingRules: (req) =>
      consoleCall(async () => {
        checkText("merchant_id", req.merchantId);
        checkText("etag", req.etag);
        await merchantChange(deps, callerOf(req.context), {
          action: "merchant.routing_rules",
          merchantId: req.merchantId,
          read: () => rulesJson(req.merchantId),
          apply: async () => {
            const m = await store.view(req.merchantId);
            if (!m) throw notFound(`no merchant ${req.merchantId}`);
            if (req.etag !== "" && req.etag !== rulesEtag(m.routingRules ?? []))
              throw toRpcError(
                domainError("INVALID_STATE", "the routing rules were changed by someone else since this page was loaded: load them again and redo the change"),
              );
            const names = ((await store.processorAccounts(req.merchantId)) ?? []).map((a) => a.name);
            // A rule may name any account the merchant can use: its own accounts and its processors (as the file).
            const rules = rulesOfRequest(req.rules, [...new Set([...m.processors, ...names])]);
            await store.setRoutingRules(req.merchantId, rules);
          },
        });
        const rules = await rulesOf(req.merchantId);
        return create(SetRoutingRulesResponseSchema, { rules: rules.map(ruleToProto), etag: rulesEtag(rules) });
      }),

    previewRouting: (req) =>
      consoleCall(async () => {
        const who = await authorize(deps, callerOf(req.context), "merchant.read");
        if (!req.merchantId) throw invalidArgument("merchant_id", "is required");
        merchantsFor(who, req.merchantId);
        const type = TYPES[req.transactionType];
        if (!type)
          throw invalidArgument("transaction_type", "must be TRANSACTION_TYPE_SALE or TRANSACTION_TYPE_PAYOUT (a refund goes back through its sale's account)");
        for (const [field, value] of [
          ["currency", req.currency],
          ["country", req.country],
          ["card_bin", req.cardBin],
          ["card_brand", req.cardBrand],
        ] as const)
          checkText(field, value);
        if (req.amount > BigInt(Number.MAX_SAFE_INTEGER) || req.amount <= 0n)
          throw invalidArgument("amount", "must be a positive integer in the wire unit (as Process's amount: 1000 is USD 10.00, JPY 1000)");
        const m = await store.view(req.merchantId);
        if (!m) throw notFound(`no merchant ${req.merchantId}`);
        const r = previewRouting(m, {
          type,
          currency: req.currency,
          amount: Number(req.amount),
          country: req.country,
          bin: req.cardBin,
          brand: req.cardBrand,
        });
        if (!r.ok) throw invalidArgument(r.field, r.problem);
        const { routing, rule } = r.answer;
        return create(PreviewRoutingResponseSchema, {
          ruleMatched: routing.rule !== null,
          ruleNumber: routing.rule ? routing.rule.index + 1 : 0,
          rule: routing.rule ? ruleLabel(routing.rule) : "",
          cascade: routing.cascade,
          split: Object.entries(rule?.split ?? {}).map(([account, weight]) => create(SplitWeightSchema, { account, weight })),
          cardBrand: r.answer.cardBrand,
        });
      }),
  };
}
