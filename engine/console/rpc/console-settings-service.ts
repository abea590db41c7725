/**
 * cashier.admin.v1.ConsoleSettingsService: what the console sets and
 * inspects, each call authenticated by the console session in its context
 * and authorized by role and merchant scope (app/console-session.ts) before it
 * decodes into a use case. One file per subject: merchants, frontends and
 * secrets (settings-merchants.ts), a frontend's amounts (settings-frontends.ts), its branding's preview (settings-branding.ts), processor accounts (settings-processor-accounts.ts),
 * routing rules and their preview (settings-routing.ts), four-eyes amounts (settings-four-eyes.ts),
 * operators (settings-operators.ts) and the audit log (settings-audit.ts).
 */
import type { ConsoleSettingsService } from "../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { auditSettings } from "./settings-audit.ts";
import { brandingSettings, type LogoReader } from "./settings-branding.ts";
import { fourEyesSettings } from "./settings-four-eyes.ts";
import { frontendSettings } from "./settings-frontends.ts";
import { merchantSettings, type MerchantSettingsDeps } from "./settings-merchants.ts";
import { operatorSettings } from "./settings-operators.ts";
import { processorAccountSettings } from "./settings-processor-accounts.ts";
import { routingSettings } from "./settings-routing.ts";

/** AdminService's merchant handlers' dependencies (the merchant calls go through them) and the console's own stores. */
export type ConsoleSettingsDeps = MerchantSettingsDeps & LogoReader;

export function consoleSettingsService(deps: ConsoleSettingsDeps): ServiceImpl<typeof ConsoleSettingsService> {
  return {
    ...merchantSettings(deps),
    ...frontendSettings(deps),
    ...brandingSettings(deps),
    ...processorAccountSettings(deps),
    ...routingSettings(deps),
    ...fourEyesSettings(deps),
    ...operatorSettings(deps),
    ...auditSettings(deps),
  };
}
