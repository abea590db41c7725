/**
 * The HTTP edge as a Koa app: built here, never listening by itself. Routes
 * are a function of the router; unknown routes and methods answer in the same
 * JSON shape as everything else (router.allowedMethods() and unmatched.ts), and
 * `allowedOn` tells the HTTP server which methods a path takes, for the methods
 * Node's parser refuses before Koa sees them (unknown-method.ts).
 */
import Koa from "koa";
import Router from "@koa/router";
import type { EngineClient } from "./engine-client.ts";
import { errorMiddleware } from "./middleware/errors.ts";
import { accessLog } from "./middleware/access-log.ts";
import { unmatched } from "./middleware/unmatched.ts";
import { createEdgeMetrics, type EdgeMetrics } from "./metrics.ts";
import { processRoutes } from "./routes/process.ts";
import { challengeRoutes } from "./pages/challenge.ts";

export interface EdgeLogger {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export type EdgeApp = Koa & {
  /** The methods routes take on `path` (as in `Allow`); empty when no route serves it. */
  allowedOn(path: string): string[];
};

export function buildApp({ engine, log, metrics = createEdgeMetrics() }: { engine: EngineClient; log: EdgeLogger; metrics?: EdgeMetrics }): EdgeApp {
  const app = new Koa();
  app.proxy = false;
  // Koa's own error printer would write stacks to stderr; errors are handled below.
  app.silent = true;
  const router = new Router();
  processRoutes(router, engine);
  challengeRoutes(router, engine, log);
  router.get("/healthz", (ctx) => {
    ctx.body = { status: 0, description: "ok" };
  });
  // Prometheus scrape (Prometheus text, not the wire JSON); keep it off the public side of the proxy.
  router.get("/metrics", metrics.route);
  app.use(metrics.middleware);
  app.use(accessLog(log));
  app.use(errorMiddleware(log));
  app.use(unmatched());
  app.use(router.routes());
  app.use(router.allowedMethods());
  const allowedOn = (path: string) => [...new Set(router.match(path, "GET").path.flatMap((layer) => layer.methods))];
  return Object.assign(app, { allowedOn });
}
