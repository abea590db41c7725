/**
 * The console's Connect clients to the engine's four console services over
 * gRPC (ConsoleAuthService, ConsoleWorkService, ConsoleSettingsService,
 * ConsoleMoneyService), on
 * one transport with the Backoffice's bearer token on every call (the
 * transport's credential; the person is the console session token inside
 * each request). The transport is the edge's own (edge/engine-client.ts): TLS
 * trust, pools and the internal hop's settings are the same for every face.
 */
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { ConsoleAuthService } from "../../gen/cashier/admin/v1/console_auth_service_pb.js";
import { ConsoleCustomerService } from "../../gen/cashier/admin/v1/console_customer_service_pb.js";
import { ConsoleMoneyService } from "../../gen/cashier/admin/v1/console_money_service_pb.js";
import { ConsoleRiskService } from "../../gen/cashier/admin/v1/console_risk_service_pb.js";
import { ConsoleSettingsService } from "../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { ConsoleWorkService } from "../../gen/cashier/admin/v1/console_work_service_pb.js";

/** One client per console service, so that a route names the service it calls: `client.work.decidePayout(...)`. */
export interface BackofficeClient {
  /** Enrolment, sign-in, the session, the operator's own password and passkeys. */
  auth: Client<typeof ConsoleAuthService>;
  /** Transactions, stuck work, payouts, the dashboard, refused forms. */
  work: Client<typeof ConsoleWorkService>;
  /** Merchants, four-eyes amounts, operators, the audit log. */
  settings: Client<typeof ConsoleSettingsService>;
  /** The customer page: notes, blocks and their lift. */
  customers: Client<typeof ConsoleCustomerService>;
  /** Refunds, sale cancels, payout holds, bulk rejection and cancellation. */
  money: Client<typeof ConsoleMoneyService>;
  /** A merchant's risk rules and their dry run. */
  risk: Client<typeof ConsoleRiskService>;
}

/** Over `transport`: the edge's engineTransport (edge/engine-client.ts), built with the Backoffice's token. */
export function createBackofficeClient(transport: Transport): BackofficeClient {
  return {
    auth: createClient(ConsoleAuthService, transport),
    work: createClient(ConsoleWorkService, transport),
    settings: createClient(ConsoleSettingsService, transport),
    customers: createClient(ConsoleCustomerService, transport),
    money: createClient(ConsoleMoneyService, transport),
    risk: createClient(ConsoleRiskService, transport),
  };
}
