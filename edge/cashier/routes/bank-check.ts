/**
 * GET challenge/<trace_id>: where the deposit form sends a sale that waits for
 * its 3-D Secure check. While the check is open, the page that leads on to it
 * (views/bank-check.ts); once the sale moved on (answered, expired, a reload
 * long after), the sale's result page instead, so that the address never sends
 * a customer to a finished check. Only the session's own sales are found.
 */
import type Router from "@koa/router";
import { TransactionStatus } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { withParent } from "../../pages/kit/security.ts";
import { traceIdOf } from "../../wire/ids.ts";
import { sessionPath } from "../paths.ts";
import { bankCheckPage } from "../views/bank-check.ts";
import { noticePage } from "../views/notice.ts";
import { type CashierDeps, pageContext, refuse, seeOther, send } from "./respond.ts";
import { loadSession } from "./session-pages.ts";

export function bankCheckRoutes(router: Router, deps: CashierDeps): void {
  router.get("/cashier/s/:session/challenge/:traceId", async (ctx) => {
    const traceId = traceIdOf(ctx.params.traceId);
    if (traceId === undefined) return send(ctx, noticePage(pageContext(ctx), "notFound"));
    const l = await loadSession(ctx, deps);
    if (!l) return;
    const token = l.frame.sessionToken;
    try {
      const x =
        l.frame.session.transactions.find((o) => o.traceId === traceId) ??
        (await deps.cashier.getSessionTransaction({ sessionToken: token, traceId })).transaction!;
      const open = x.status === TransactionStatus.PENDING_ASYNC && x.redirectUrl !== "";
      const page = open ? bankCheckPage(l.c, l.frame, withParent(x.redirectUrl, l.frame.parent)) : undefined;
      if (page) return send(ctx, page);
      seeOther(ctx, sessionPath(token, `result/${x.traceId}`, l.frame.parent));
    } catch (err) {
      refuse(ctx, deps, err, l.frame.session);
    }
  });
}
