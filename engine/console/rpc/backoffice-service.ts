/**
 * cashier.admin.v1.BackofficeService: the console's calls, each one
 * authenticated by the console session in its context and authorized by
 * role and merchant scope (app/console-session.ts) before it decodes into a
 * use case. Split by subject: sessions (backoffice-auth.ts), daily work
 * (backoffice-work.ts), settings, operators, audit and dashboard
 * (backoffice-settings.ts), and the forms the console refused on its own
 * (backoffice-refusals.ts).
 */
import type { BackofficeService } from "../../../gen/cashier/admin/v1/backoffice_service_pb.js";
import { backofficeAuth } from "./backoffice-auth.ts";
import { backofficeRefusals } from "./backoffice-refusals.ts";
import { backofficeSettings } from "./backoffice-settings.ts";
import { backofficeWork, type WorkDeps } from "./backoffice-work.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";

export type { WorkDeps as BackofficeServiceDeps };

export function backofficeService(deps: WorkDeps): ServiceImpl<typeof BackofficeService> {
  return { ...backofficeAuth(deps), ...backofficeWork(deps), ...backofficeSettings(deps), ...backofficeRefusals(deps) };
}
