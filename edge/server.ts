/**
 * Starts the edge: a Koa app on an HTTP server, talking to the engine at
 * engineUrl, with request time limits (middleware/time-limits.ts), and its
 * Prometheus metrics on a listener of their own (never the public port).
 */
import type { EngineTrust } from "../engine/shared/runtime/worker-data.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startMetricsServer } from "../engine/shared/runtime/metrics-server.ts";
import { buildApp } from "./app.ts";
import type { EdgeLogger } from "./logger.ts";
import { createEngineClients } from "./engine-client.ts";
import { drainable } from "./drain.ts";
import { createEdgeMetrics } from "./metrics.ts";
import { timeLimitedServerOptions } from "./middleware/time-limits.ts";
import { csrfKeyFrom } from "./pages/kit/csrf.ts";
import { answerUnknownMethods } from "./unknown-method.ts";

export interface EdgeHandle {
  port: number;
  /** Where GET /metrics is served (EDGE_METRICS_PORT on METRICS_HOST, or the free port chosen). */
  metricsPort: number;
  /** True when the metrics port was only a default, taken, so a free one was chosen (to log). */
  metricsMovedFromDefault: boolean;
  server: Server;
  close(): Promise<void>;
}

/** The edge's metrics listener: METRICS_HOST and EDGE_METRICS_PORT (isDefault: give way to a free port when taken). */
export interface EdgeMetricsListener {
  host: string;
  port: number;
  isDefault?: boolean;
}

export async function startEdge(opts: {
  port: number;
  host?: string;
  engineUrl: string;
  token: string;
  engineTrust?: EngineTrust;
  /** CASHIER_TRUSTED_PROXIES: whose forwarding headers are believed (none when not given). */
  trustedProxies?: readonly string[];
  /** Where the metrics are scraped; 127.0.0.1 on any free port when not given. */
  metrics?: EdgeMetricsListener;
  log: EdgeLogger;
}): Promise<EdgeHandle> {
  const { engine, cashier, close: closeClients } = createEngineClients(opts.engineUrl, opts.token, opts.engineTrust);
  const metrics = createEdgeMetrics();
  const app = buildApp({ engine, cashier, log: opts.log, metrics, csrfKey: csrfKeyFrom(opts.token), trustedProxies: opts.trustedProxies });
  const server = createServer(timeLimitedServerOptions(), app.callback());
  answerUnknownMethods(server, app.allowedOn);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host ?? "0.0.0.0", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const where = opts.metrics ?? { host: "127.0.0.1", port: 0 };
  const scrape = await startMetricsServer(
    metrics.registry,
    where.host,
    where.port,
    (err) => opts.log.error({ err }, "edge metrics scrape failed"),
    where.isDefault ?? false,
  ).catch((err: unknown) => {
    server.close();
    throw err;
  });
  // Stop accepting, finish the requests in progress, then close the engine connections and resolve.
  const drain = drainable(server, (inProgress) => opts.log.info({ inProgress }, "edge stopped accepting; finishing requests in progress"));
  const close = async () => {
    await drain.close();
    await scrape.close();
    closeClients();
  };
  return { port, metricsPort: scrape.port, metricsMovedFromDefault: scrape.movedFromDefault, server, close };
}
