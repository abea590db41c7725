/**
 * One JSON line per request: method, path, HTTP status, wire status and time.
 * Bodies are never logged (they carry card data).
 */
import type { Context, Next } from "koa";
import { redactPath } from "../cashier/paths.ts";

export function accessLog(log: { info(obj: object, msg: string): void }) {
  return async (ctx: Context, next: Next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const body = ctx.body as { status?: unknown; trace_id?: unknown } | undefined;
      log.info(
        {
          method: ctx.method,
          // The challenge page's MAC is a capability: it never reaches a log.
          // So are the hosted Cashier's autologin and browser session tokens.
          path: redactPath(ctx.path.replace(/^\/3ds\/([^/]+)\/[^/]+/, "/3ds/$1/[mac]")),
          http: ctx.status,
          status: body?.status,
          trace_id: body?.trace_id ?? undefined,
          merchant_id: ctx.state.merchantId,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        "request",
      );
    }
  };
}
