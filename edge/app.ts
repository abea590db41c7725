/**
 * The HTTP edge as a Koa app: built here, never listening by itself. Routes
 * are a function of the router; unknown routes and methods answer in the same
 * JSON shape as everything else (router.allowedMethods() and unmatched.ts), and
 * `allowedOn` tells the HTTP server which methods a path takes, for the methods
 * Node's parser refuses before Koa sees them (unknown-method.ts).
 */
import Koa from "koa";
import Router from "@koa/router";
import type { CashierClient, EngineClient } from "./engine-client.ts";
import type { EdgeLogger } from "./logger.ts";
import { errorMiddleware } from "./middleware/errors.ts";
import { accessLog } from "./middleware/access-log.ts";
import { identifyClient } from "./middleware/client.ts";
import { proxyTrust } from "./pages/kit/forwarded.ts";
import { unmatched } from "./middleware/unmatched.ts";
import { noStoreOnApi } from "./middleware/no-store.ts";
import { createEdgeMetrics, type EdgeMetrics } from "./metrics.ts";
import { processRoutes } from "./routes/process.ts";
import { sessionRoutes } from "./routes/session.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { challengeRoutes } from "./pages/challenge.ts";
import { assetRoutes } from "./pages/kit/assets.ts";
import { cashierRoutes } from "./cashier/routes/index.ts";
import { createCashierLimiters, sessionStartLimit } from "./cashier/rate-limits.ts";
import { randomBytes } from "node:crypto";

export type EdgeApp = Koa & {
  /** The methods routes take on `path` (as in `Allow`); empty when no route serves it. */
  allowedOn(path: string): string[];
};

export function buildApp({
  engine,
  cashier,
  log,
  metrics = createEdgeMetrics(),
  csrfKey = randomBytes(32),
  trustedProxies = [],
}: {
  engine: EngineClient;
  cashier: CashierClient;
  log: EdgeLogger;
  metrics?: EdgeMetrics;
  /** The hosted pages' CSRF key, the same on every edge of a deployment (csrfKeyFrom the edge token); a random one by default. */
  csrfKey?: Buffer;
  /** CASHIER_TRUSTED_PROXIES: whose X-Forwarded-For and X-Forwarded-Proto are believed (none by default). */
  trustedProxies?: readonly string[];
}): EdgeApp {
  const app = new Koa();
  app.proxy = false;
  // Koa's own error printer would write stacks to stderr; errors are handled below.
  app.silent = true;
  const router = new Router();
  processRoutes(router, engine);
  // Acquirers' webhooks (CONTRACT 11): verified, kept and applied by the engine.
  webhookRoutes(router, engine);
  // The hosted Cashier: rate limits in this process's memory (cashier/rate-limits.ts), session start first.
  const limiters = createCashierLimiters();
  router.post("/api/session", sessionStartLimit(limiters.sessionStart));
  sessionRoutes(router, cashier, log);
  cashierRoutes(router, { cashier, csrfKey, limiters, log });
  challengeRoutes(router, engine, log);
  assetRoutes(router);
  router.get("/healthz", (ctx) => {
    ctx.body = { status: 0, description: "ok" };
  });
  // The Prometheus scrape is not served here, on the public port: server.ts serves `metrics.registry` on a listener of its own.
  // First: every middleware below reads the client (rate limits, the access log, HSTS) as it names it.
  app.use(identifyClient(proxyTrust(trustedProxies)));
  app.use(metrics.middleware);
  app.use(accessLog(log));
  app.use(noStoreOnApi());
  app.use(errorMiddleware(log));
  app.use(unmatched());
  app.use(router.routes());
  app.use(router.allowedMethods());
  const allowedOn = (path: string) => [...new Set(router.match(path, "GET").path.flatMap((layer) => layer.methods))];
  return Object.assign(app, { allowedOn });
}
