/**
 * cashier.admin.v1.ConsoleCustomerService: the customer page of the console
 * (customer-page.ts: the reads) and what an operator does there
 * (customer-changes.ts: notes, blocks and their lift, audited). Every call is
 * authenticated by the console session in its context and authorized by role
 * and merchant scope, as ConsoleWorkService's are.
 */
import type { ConsoleCustomerService } from "../../../gen/cashier/admin/v1/console_customer_service_pb.js";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { customerChanges } from "./customer-changes.ts";
import { type ConsoleCustomerDeps, customerPage } from "./customer-page.ts";

export type { ConsoleCustomerDeps };

export function consoleCustomerService(deps: ConsoleCustomerDeps): ServiceImpl<typeof ConsoleCustomerService> {
  return { ...customerPage(deps), ...customerChanges(deps) };
}
