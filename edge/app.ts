/**
 * The HTTP edge as a Koa app: built here, never listening by itself. Routes
 * are a function of the router; unknown routes and methods answer in the same
 * JSON shape as everything else.
 */
import Koa from "koa";
import Router from "@koa/router";
import type { EngineClient } from "./engine-client.ts";
import { WireError, errorMiddleware } from "./middleware/errors.ts";
import { accessLog } from "./middleware/access-log.ts";
import { createEdgeMetrics, type EdgeMetrics } from "./metrics.ts";
import { processRoutes } from "./routes/process.ts";
import { challengeRoutes } from "./pages/challenge.ts";
import { assetRoutes } from "./pages/kit/assets.ts";

export interface EdgeLogger {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export function buildApp({ engine, log, metrics = createEdgeMetrics() }: { engine: EngineClient; log: EdgeLogger; metrics?: EdgeMetrics }): Koa {
  const app = new Koa();
  app.proxy = false;
  // Koa's own error printer would write stacks to stderr; errors are handled below.
  app.silent = true;
  const router = new Router();
  processRoutes(router, engine);
  challengeRoutes(router, engine, log);
  assetRoutes(router);
  router.get("/healthz", (ctx) => {
    ctx.body = { status: 0, description: "ok" };
  });
  // Prometheus scrape (Prometheus text, not the wire JSON); keep it off the public side of the proxy.
  router.get("/metrics", metrics.route);
  app.use(metrics.middleware);
  app.use(accessLog(log));
  app.use(errorMiddleware(engine, log));
  app.use(router.routes());
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      const allowed = router.stack.some((layer) => layer.match(ctx.path));
      if (allowed) throw new WireError("METHOD_NOT_ALLOWED", `${ctx.method} is not allowed on ${ctx.path}`);
      throw new WireError("NO_ROUTE", `no route ${ctx.method} ${ctx.path}`);
    }
  });
  return app;
}
