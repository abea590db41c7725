/**
 * One JSON line per request: method, path, HTTP status, wire status and time.
 * Bodies are never logged (they carry card data).
 */
import type { Context, Next } from "koa";

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
          path: ctx.path,
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
