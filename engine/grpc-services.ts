/**
 * Which gRPC services the engine answers, and whose bearer tokens each takes:
 * the composition root's list, so that the server (engine/rpc/server.ts) knows
 * no module and each module's handlers know no token.
 */
import type { DescFile } from "@bufbuild/protobuf";
import { EngineService, file_cashier_engine_v1_engine_service } from "../gen/cashier/engine/v1/engine_service_pb.js";
import { file_cashier_engine_v1_errors } from "../gen/cashier/engine/v1/errors_pb.js";
import { CashierService, file_cashier_engine_v1_cashier_service } from "../gen/cashier/engine/v1/cashier_service_pb.js";
import { AdminService, file_cashier_admin_v1_admin_service } from "../gen/cashier/admin/v1/admin_service_pb.js";
import { ConsoleAuthService, file_cashier_admin_v1_console_auth_service } from "../gen/cashier/admin/v1/console_auth_service_pb.js";
import { ConsoleSettingsService, file_cashier_admin_v1_console_settings_service } from "../gen/cashier/admin/v1/console_settings_service_pb.js";
import { ConsoleWorkService, file_cashier_admin_v1_console_work_service } from "../gen/cashier/admin/v1/console_work_service_pb.js";
import { ConsoleMoneyService, file_cashier_admin_v1_console_money_service } from "../gen/cashier/admin/v1/console_money_service_pb.js";
import { ConsoleCustomerService, file_cashier_admin_v1_console_customer_service } from "../gen/cashier/admin/v1/console_customer_service_pb.js";
import { engineService, type EngineServiceDeps } from "./payments/rpc/engine-service.ts";
import { cashierService } from "./cashier/rpc/cashier-service.ts";
import type { CashierDeps } from "./cashier/ports/ports.ts";
import { auditedAdminService } from "./console/rpc/admin-audit.ts";
import { consoleAuthService } from "./console/rpc/console-auth-service.ts";
import { consoleSettingsService, type ConsoleSettingsDeps } from "./console/rpc/console-settings-service.ts";
import { consoleWorkService, type ConsoleWorkDeps } from "./console/rpc/console-work-service.ts";
import { consoleMoneyService } from "./console/rpc/console-money-service.ts";
import { consoleCustomerService, type ConsoleCustomerDeps } from "./console/rpc/console-customer-service.ts";
import { ConsoleRiskService, file_cashier_admin_v1_console_risk_service } from "../gen/cashier/admin/v1/console_risk_service_pb.js";
import { consoleRiskService, type ConsoleRiskDeps } from "./console/rpc/console-risk-service.ts";
import type { MerchantAdminDeps } from "./console/rpc/merchant-admin.ts";
import { registration, type ServiceRegistration } from "./rpc/server.ts";

/** The bearer tokens of each kind of caller. */
export interface ServiceTokens {
  /** Service tokens and the edge's. */
  engine: string[];
  /** Service tokens only: the edge's token, on the machine that faces the internet, opens no admin call. */
  admin: string[];
  /** Service tokens and the Backoffice's, for the console's four services; the person is checked by each call's console session. */
  backoffice: string[];
}

/** What the services' handlers need, wired by engine.ts. */
export type EngineServicesDeps = CashierDeps &
  EngineServiceDeps &
  MerchantAdminDeps &
  ConsoleWorkDeps &
  ConsoleSettingsDeps &
  ConsoleCustomerDeps &
  ConsoleRiskDeps;

/** Every service the engine answers, each behind the tokens of the callers it is for. */
export function engineServices(deps: EngineServicesDeps, tokens: ServiceTokens): ServiceRegistration[] {
  return [
    registration(EngineService, engineService(deps), tokens.engine),
    // The hosted Cashier: the same tokens as EngineService (the edge's, for its pages and session start).
    registration(CashierService, cashierService(deps), tokens.engine),
    registration(AdminService, auditedAdminService(deps), tokens.admin),
    // The Backoffice console's three services: sign-in and the session, the daily work, the settings.
    registration(ConsoleAuthService, consoleAuthService(deps), tokens.backoffice),
    registration(ConsoleWorkService, consoleWorkService(deps), tokens.backoffice),
    registration(ConsoleSettingsService, consoleSettingsService(deps), tokens.backoffice),
    // Its money actions: refunds, sale cancels, payout holds, bulk rejection and cancellation.
    registration(ConsoleMoneyService, consoleMoneyService(deps), tokens.backoffice),
    // The customer page: notes and blocks (enforced by Process, payments/domain/blocks.ts).
    registration(ConsoleCustomerService, consoleCustomerService(deps), tokens.backoffice),
    // A merchant's risk rules and their dry run (enforced by Process, payments/domain/risk-rules.ts).
    registration(ConsoleRiskService, consoleRiskService(deps), tokens.backoffice),
  ];
}

/** The files grpcurl and `buf curl` discover through reflection. */
export const REFLECTED_FILES: DescFile[] = [
  file_cashier_engine_v1_engine_service,
  file_cashier_engine_v1_cashier_service,
  file_cashier_admin_v1_admin_service,
  file_cashier_admin_v1_console_auth_service,
  file_cashier_admin_v1_console_work_service,
  file_cashier_admin_v1_console_settings_service,
  file_cashier_admin_v1_console_money_service,
  file_cashier_admin_v1_console_customer_service,
  file_cashier_admin_v1_console_risk_service,
  file_cashier_engine_v1_errors,
];
