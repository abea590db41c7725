/**
 * The edge's Prometheus metrics: requests and latency by route, method and
 * HTTP status, plus prom-client's process defaults. One registry per app (a
 * worker thread, or a test), served at GET /metrics on a listener of its own
 * (EDGE_METRICS_PORT on METRICS_HOST, server.ts), never on the public port.
 * The route label is the router's pattern (`/3ds/:trace/:mac`), never the raw
 * URL, so ids and tokens in paths neither leak nor multiply series.
 */
import type { Context, Middleware, Next } from "koa";
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Latency buckets in seconds: a cached refusal (1 ms) to a slow engine (10 s). */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Methods outside this list are one label, so a scanner's junk methods do not add series. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export interface EdgeMetrics {
  registry: Registry;
  /** Outermost middleware: sees the final status, after the error mapping. */
  middleware: Middleware;
}

/** The router's matched pattern, or "unmatched" (404s, 405s, junk paths). */
function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  return matched === undefined ? "unmatched" : String(matched);
}

export function createEdgeMetrics(opts: { defaults?: boolean } = {}): EdgeMetrics {
  const registry = new Registry();
  if (opts.defaults !== false) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "cashier_http_requests_total",
    help: "HTTP requests to the edge by route pattern, method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "cashier_http_duration_seconds",
    help: "Time from an HTTP request's arrival to its reply, by route pattern, method and status.",
    labelNames: ["route", "method", "status"] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });

  const middleware = async (ctx: Context, next: Next) => {
    const started = performance.now();
    let failed = false;
    try {
      await next();
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      const labels = {
        route: routeOf(ctx),
        method: KNOWN_METHODS.has(ctx.method) ? ctx.method : "OTHER",
        // An error escaping every handler becomes Koa's 500.
        status: String(failed ? 500 : ctx.status),
      };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - started) / 1000);
    }
  };

  return { registry, middleware };
}
