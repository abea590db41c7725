/**
 * A Prometheus endpoint: GET /metrics on a port of its own, the engine's
 * (METRICS_PORT) and the edge's (EDGE_METRICS_PORT), on METRICS_HOST (loopback
 * unless told otherwise), so scraping never competes with the gRPC or the
 * public HTTP port and stays off the internet. In the shared layer: the engine
 * and the edge both serve one. A bare node:http server: one route needs no framework.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import { listenOnSidePort } from "./listen.ts";

export interface MetricsServer {
  port: number;
  /** True when METRICS_PORT was unset and its default was taken, so a free port was chosen. */
  movedFromDefault: boolean;
  close(): Promise<void>;
}

/** Serves `registry` at GET /metrics; anything else is 404 (405 for another method on /metrics). */
export async function startMetricsServer(
  registry: Registry,
  host: string,
  port: number,
  onError: (err: unknown) => void,
  portIsDefault = false,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found: the metrics are at /metrics\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "content-type": "text/plain", allow: "GET, HEAD" }).end("method not allowed\n");
      return;
    }
    registry.metrics().then(
      (body) => res.writeHead(200, { "content-type": registry.contentType }).end(req.method === "HEAD" ? undefined : body),
      (err: unknown) => {
        onError(err);
        res.writeHead(500, { "content-type": "text/plain" }).end("metrics unavailable\n");
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  const { movedFromDefault } = await listenOnSidePort(server, port, host, portIsDefault);
  return {
    port: (server.address() as AddressInfo).port,
    movedFromDefault,
    close: () =>
      new Promise<void>((resolve) => {
        // An in-flight scrape finishes; idle keep-alive connections go now, anything left after a second too.
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}
