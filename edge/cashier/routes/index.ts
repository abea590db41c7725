/**
 * The hosted Cashier's routes on the edge's router: the autologin address,
 * the deposit and withdrawal forms, the way to a 3-D Secure check, cancel, results, and the embed script
 * (/cashier.js). Each decodes, calls
 * CashierService and renders a view; no rule of the payment lives here.
 */
import type Router from "@koa/router";
import type { EdgeLogger } from "../../logger.ts";
import type { Client } from "@connectrpc/connect";
import type { CashierService } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { createCsrf } from "../../pages/kit/csrf.ts";
import { embedScriptRoutes } from "../embed-script.ts";
import type { CashierLimiters } from "../rate-limits.ts";
import { autologinRoutes } from "./autologin.ts";
import { bankCheckRoutes } from "./bank-check.ts";
import { depositRoutes } from "./deposit.ts";
import { fieldsRoutes } from "./fields.ts";
import { logoRoutes } from "./logo.ts";
import { resultRoutes } from "./result.ts";
import { withdrawalRoutes } from "./withdrawal.ts";

export function cashierRoutes(
  router: Router,
  o: { cashier: Client<typeof CashierService>; csrfKey: Buffer; limiters: CashierLimiters; log: EdgeLogger },
): void {
  const deps = { cashier: o.cashier, csrf: createCsrf(o.csrfKey), limiters: o.limiters, log: o.log };
  autologinRoutes(router, deps);
  depositRoutes(router, deps);
  fieldsRoutes(router, deps);
  withdrawalRoutes(router, deps);
  resultRoutes(router, deps);
  bankCheckRoutes(router, deps);
  // Frontends' logos at their hashed addresses (the branded pages' header).
  logoRoutes(router, deps);
  // The platform's own page loads /cashier.js to frame these pages (CONTRACT 12).
  embedScriptRoutes(router);
}
