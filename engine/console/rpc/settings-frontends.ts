/**
 * ConsoleSettingsService, a frontend's amounts: its base currency, currencies, preset deposit amounts and limits per
 * currency, set by an admin from amounts in minor units (frontend-amounts.ts converts them exactly to the wire unit
 * a frontend keeps) and checked by AdminService's own UpdateFrontend, the merchants file's parser, each fault named
 * by this request's field. The change and its audit row (frontend.update, the merchant before and after, as the
 * frontend's other settings) are one transaction; a refusal is audited as a failure.
 */
import { create, toJson } from "@bufbuild/protobuf";
import { GetMerchantRequestSchema, UpdateFrontendRequestSchema } from "../../../gen/cashier/admin/v1/admin_service_pb.js";
import { type ConsoleSettingsService, SetFrontendAmountsResponseSchema } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { MerchantSchema } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { canonicalJson } from "../domain/audit-chain.ts";
import { invalidArgument } from "../../rpc/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { adminService } from "./admin-service.ts";
import { callerOf, consoleCall } from "./console-mappers.ts";
import { frontendOfAmounts, renamedRefusal } from "./frontend-amounts.ts";
import { merchantChange } from "./settings-change.ts";
import type { MerchantSettingsDeps } from "./settings-merchants.ts";

type Calls = Pick<ServiceImpl<typeof ConsoleSettingsService>, "setFrontendAmounts">;

/** The fields this call replaces, by UpdateFrontend's mask. */
const AMOUNT_FIELDS = ["base_currency", "currencies", "deposit_presets", "limits"];

export function frontendSettings(deps: MerchantSettingsDeps): Calls {
  const admin = adminService(deps);
  return {
    setFrontendAmounts: (req, ctx) =>
      consoleCall(async () => {
        const merchantJson = async () => {
          const r = await admin.getMerchant(create(GetMerchantRequestSchema, { merchantId: req.merchantId }), ctx);
          return canonicalJson(toJson(MerchantSchema, r.merchant ?? create(MerchantSchema)));
        };
        const r = await merchantChange(deps, callerOf(req.context), {
          action: "frontend.update",
          merchantId: req.merchantId,
          read: merchantJson,
          apply: async () => {
            if (req.frontend === "") throw invalidArgument("frontend", "is required");
            const frontend = frontendOfAmounts(req);
            const update = create(UpdateFrontendRequestSchema, { merchantId: req.merchantId, frontend, updateMask: { paths: AMOUNT_FIELDS } });
            return admin.updateFrontend(update, ctx).catch((err: unknown) => {
              throw renamedRefusal(err, req);
            });
          },
        });
        return create(SetFrontendAmountsResponseSchema, { merchant: r.merchant });
      }),
  };
}
