/**
 * cashier.admin.v1.BackofficeService: the console's calls, each one
 * authenticated by the console session in its context and authorized by
 * role and merchant scope (app/console-session.ts) before it decodes into a
 * use case. Split by subject: sessions (backoffice-auth.ts); the daily work:
 * transactions (work-transactions.ts), payouts (work-payouts.ts), the
 * dashboard (work-dashboard.ts) and the forms the console refused on its own
 * (work-refused-forms.ts); the settings: merchants (settings-merchants.ts),
 * four-eyes amounts (settings-four-eyes.ts), operators
 * (settings-operators.ts) and the audit log (settings-audit.ts).
 */
import type { BackofficeService } from "../../../gen/cashier/admin/v1/backoffice_service_pb.js";
import { backofficeAuth } from "./backoffice-auth.ts";
import { auditSettings } from "./settings-audit.ts";
import { fourEyesSettings } from "./settings-four-eyes.ts";
import { merchantSettings, type MerchantSettingsDeps } from "./settings-merchants.ts";
import { operatorSettings } from "./settings-operators.ts";
import { dashboardWork } from "./work-dashboard.ts";
import { payoutWork } from "./work-payouts.ts";
import { backofficeRefusals } from "./work-refused-forms.ts";
import { transactionWork } from "./work-transactions.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";

export type { MerchantSettingsDeps as BackofficeServiceDeps };

export function backofficeService(deps: MerchantSettingsDeps): ServiceImpl<typeof BackofficeService> {
  return {
    ...backofficeAuth(deps),
    ...transactionWork(deps),
    ...payoutWork(deps),
    ...dashboardWork(deps),
    ...backofficeRefusals(deps),
    ...merchantSettings(deps),
    ...fourEyesSettings(deps),
    ...operatorSettings(deps),
    ...auditSettings(deps),
  };
}
