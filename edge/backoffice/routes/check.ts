/**
 * POST /transactions/:traceId/check: "check now" on a transaction left open
 * (ConsoleWorkService.CheckTransactionNow). The answer goes back where the
 * button was: the stuck-work page or the transaction's detail, with a notice
 * saying that its processor is being asked. A refusal the operator can act on
 * (a final status, a payout waiting for its decision, a challenge waiting for
 * the customer, a reason too long) is the detail page with the engine's cause
 * in an error notice, since that page shows why.
 */
import type Router from "@koa/router";
import { consoleRefusal } from "../refusal.ts";
import { seeOther, sendPage } from "../request.ts";
import { CHECK_REASON_MAX } from "../views/check.ts";
import { consolePost, type PageDeps } from "./pages.ts";
import { detailOf } from "./transactions.ts";
import { traceIdOf } from "../../wire/ids.ts";

export function checkRoutes(router: Router, deps: PageDeps): void {
  consolePost(router, "/transactions/:traceId/check", deps, async (ctx, s, form) => {
    const traceId = traceIdOf(ctx.params.traceId);
    if (traceId === undefined) {
      ctx.status = 404;
      return;
    }
    const reason = (form.get("reason") ?? "").trim().slice(0, CHECK_REASON_MAX);
    try {
      await deps.client.work.checkTransactionNow({ context: s.context, traceId, reason });
    } catch (err) {
      const refusal = consoleRefusal(err);
      if (refusal.kind !== "refused" && refusal.kind !== "invalid") throw err;
      const text = s.kit.tr.t("bo.check.refused", { trace: traceId, reason: refusal.message });
      return sendPage(ctx, s.kit, refusal.kind === "invalid" ? 400 : 409, await detailOf(deps, s, traceId, { kind: "error", text }));
    }
    seeOther(ctx, form.get("from") === "stuck" ? `/stuck?notice=checked&trace=${traceId}` : `/transactions/${traceId}?notice=checked`);
  });
}
