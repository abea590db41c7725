/** /stuck: failing callbacks and transactions left non-final, with redelivery and "check now" (routes/check.ts). */
import type Router from "@koa/router";
import { seeOther } from "../request.ts";
import { stuckPage } from "../views/stuck.ts";
import { consoleGet, consolePost, type PageDeps } from "./pages.ts";
import { callbackIdOf, traceIdOf } from "../../wire/ids.ts";

export function stuckRoutes(router: Router, deps: PageDeps): void {
  consoleGet(router, "/stuck", deps, async (ctx, s) => {
    const minutes = Math.min(10_080, Math.max(1, Number.parseInt(String(ctx.query.minutes ?? "15"), 10) || 15));
    const work = await deps.client.work.listStuckWork({ context: s.context, olderThanSeconds: minutes * 60, pageSize: 100 });
    const t = s.kit.tr.t;
    const trace = String(ctx.query.trace ?? "");
    const notice =
      ctx.query.notice === "redelivered"
        ? ({ kind: "success", text: t("bo.cb.redelivered") } as const)
        : ctx.query.notice === "checked" && traceIdOf(trace) !== undefined
          ? ({ kind: "success", text: t("bo.check.asked", { trace }) } as const)
          : undefined;
    return s.render(
      "stuck",
      t("bo.nav.stuck"),
      stuckPage(s.kit.tr, work, {
        canRedeliver: s.operator.actions.has("callback.redeliver"),
        canCheck: s.operator.actions.has("transaction.check"),
        csrf: s.csrf,
        minutes,
        notice,
      }),
    );
  });

  consolePost(router, "/stuck/callbacks/:id/redeliver", deps, async (ctx, s) => {
    const id = callbackIdOf(ctx.params.id);
    if (id === undefined) {
      ctx.status = 404;
      return;
    }
    await deps.client.work.redeliverCallback({ context: s.context, id });
    seeOther(ctx, "/stuck?notice=redelivered");
  });
}
