/**
 * GET result/<trace_id>: a transaction of the session as it stands (only the
 * session's own are found: from the session's list of its newest transactions,
 * else by GetSessionTransaction). GET result/<trace_id>/status: its status word as
 * JSON, for the page's script to follow a pending result without reloading
 * until it is final.
 */
import type Router from "@koa/router";
import { resultPage } from "../views/result.ts";
import { statusWord } from "../../wire/status-words.ts";
import type { CashierSession } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { type Transaction, TransactionStatus } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { isToken, sessionPath } from "../paths.ts";
import { type CashierDeps, noticeOf, refuse, seeOther, send } from "./respond.ts";
import { frameOf } from "./session-pages.ts";
import { noticePage } from "../views/notice.ts";
import { pageContext } from "./respond.ts";
import { traceIdOf } from "../../wire/ids.ts";

/** The cascade's later attempt of the same order, when this one ended declined_retry and the next has begun. */
function nextAttempt(session: CashierSession, x: Transaction): Transaction | undefined {
  if (x.status !== TransactionStatus.DECLINED_RETRY) return undefined;
  return session.transactions.find((o) => o.orderId === x.orderId && o.traceId !== x.traceId && o.attempt > x.attempt);
}

export function resultRoutes(router: Router, deps: CashierDeps): void {
  router.get("/cashier/s/:session/result/:traceId", async (ctx) => {
    const token = ctx.params.session;
    const traceId = traceIdOf(ctx.params.traceId);
    if (!isToken(token) || traceId === undefined) return send(ctx, noticePage(pageContext(ctx), "notFound"));
    try {
      const { session } = await deps.cashier.getCashierSession({ sessionToken: token });
      // The session as the engine answers it lists its newest transactions, read with it: the page's
      // one is asked for on its own only when it is not among them.
      const transaction =
        session!.transactions.find((o) => o.traceId === traceId) ?? (await deps.cashier.getSessionTransaction({ sessionToken: token, traceId })).transaction;
      const l = frameOf(ctx, token, session!);
      const next = nextAttempt(session!, transaction!);
      if (next) return seeOther(ctx, sessionPath(token, `result/${next.traceId}`, l.frame.parent));
      send(ctx, resultPage(l.c, l.frame, transaction!));
    } catch (err) {
      refuse(ctx, deps, err);
    }
  });

  router.get("/cashier/s/:session/result/:traceId/status", async (ctx) => {
    const token = ctx.params.session;
    const traceId = traceIdOf(ctx.params.traceId);
    ctx.set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff" });
    ctx.type = "application/json";
    if (!isToken(token) || traceId === undefined) {
      ctx.status = 404;
      ctx.body = JSON.stringify({ transaction_status: null });
      return;
    }
    try {
      const { transaction } = await deps.cashier.getSessionTransaction({ sessionToken: token, traceId });
      let x = transaction!;
      if (x.status === TransactionStatus.DECLINED_RETRY) {
        const { session } = await deps.cashier.getCashierSession({ sessionToken: token });
        x = nextAttempt(session!, x) ?? x;
      }
      ctx.body = JSON.stringify({ transaction_status: statusWord(x.status) });
    } catch (err) {
      const kind = noticeOf(err);
      ctx.status = kind === "ended" ? 410 : kind === "unavailable" ? 503 : kind === "failed" ? 500 : 404;
      ctx.body = JSON.stringify({ transaction_status: null });
    }
  });
}
