/**
 * ConsoleSettingsService, the four-eyes amounts: per currency, the payout amount
 * above which an approval needs a second operator. The new amounts and their
 * audit row (before and after) are written in one transaction.
 */
import { create } from "@bufbuild/protobuf";
import { type ConsoleSettingsService, SetFourEyesThresholdsResponseSchema } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { MoneySchema } from "../../../gen/cashier/engine/v1/money_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import { auditingRefusals, authorize } from "../app/console-session.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import { domainError } from "../../shared/errors.ts";
import { callerOf, consoleCall, merchantTarget } from "./console-mappers.ts";
import { merchantsFor } from "./console-scope.ts";
import { invalidArgument, toRpcError } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";

export function fourEyesSettings(deps: BackofficeDeps): Pick<ServiceImpl<typeof ConsoleSettingsService>, "setFourEyesThresholds"> {
  return {
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
  };
}
