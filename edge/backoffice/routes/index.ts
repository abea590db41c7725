/** Every signed-in page of the console, each in its own file. */
import type Router from "@koa/router";
import type { PageDeps } from "./pages.ts";
import { accountRoutes } from "./account.ts";
import { adminRoutes } from "./admin.ts";
import { checkRoutes } from "./check.ts";
import { customerRoutes } from "./customer.ts";
import { homeRoutes } from "./home.ts";
import { merchantRoutes } from "./merchants.ts";
import { payoutRoutes } from "./payouts.ts";
import { processorAccountRoutes } from "./processor-accounts.ts";
import { frontendSettingsRoutes } from "./frontend-settings.ts";
import { routingRoutes } from "./routing-rules.ts";
import { riskRoutes } from "./risk-rules.ts";
import { stuckRoutes } from "./stuck.ts";
import { transactionRoutes } from "./transactions.ts";
import { moneyActionRoutes } from "./money-actions.ts";
import { refundWithdrawalRoutes } from "./refund-withdrawal.ts";
import { workPreferenceRoutes } from "./work-preferences.ts";
import { virtualTerminalRoutes } from "./virtual-terminal.ts";

export function consoleRoutes(router: Router, deps: PageDeps): void {
  homeRoutes(router, deps);
  transactionRoutes(router, deps);
  workPreferenceRoutes(router, deps);
  moneyActionRoutes(router, deps);
  refundWithdrawalRoutes(router, deps);
  virtualTerminalRoutes(router, deps);
  payoutRoutes(router, deps);
  stuckRoutes(router, deps);
  checkRoutes(router, deps);
  customerRoutes(router, deps);
  merchantRoutes(router, deps);
  processorAccountRoutes(router, deps);
  frontendSettingsRoutes(router, deps);
  routingRoutes(router, deps);
  riskRoutes(router, deps);
  adminRoutes(router, deps);
  accountRoutes(router, deps);
}
