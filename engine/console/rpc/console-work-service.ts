/**
 * cashier.admin.v1.ConsoleWorkService: the console's daily work, each call
 * authenticated by the console session in its context and authorized by role
 * and merchant scope (app/console-session.ts) before it decodes into a use
 * case. One file per subject: transactions (work-transactions.ts), payouts
 * (work-payouts.ts), the dashboard (work-dashboard.ts) and the forms the
 * console refused on its own (work-refused-forms.ts).
 */
import type { ConsoleWorkService } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import type { ProcessDeps } from "../../payments/index.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { ConsoleReads } from "../ports/read-replica.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { dashboardWork } from "./work-dashboard.ts";
import { payoutWork } from "./work-payouts.ts";
import { refusedFormWork } from "./work-refused-forms.ts";
import { transactionWork } from "./work-transactions.ts";

/**
 * The console's own stores, the payments' ports its reads and actions go through, and the reads the read replica
 * may serve (the search, its export, the dashboard).
 */
export type ConsoleWorkDeps = ProcessDeps & BackofficeDeps & { reads: ConsoleReads };

export function consoleWorkService(deps: ConsoleWorkDeps): ServiceImpl<typeof ConsoleWorkService> {
  return { ...transactionWork(deps), ...payoutWork(deps), ...dashboardWork(deps), ...refusedFormWork(deps) };
}
