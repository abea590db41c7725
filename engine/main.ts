/**
 * The only file that reads the environment and listens. `npm run engine` runs
 * the engine alone; `npm start` (--with-edge) runs engine, edge and workers in
 * one process, the edge reaching the engine over its gRPC socket like any
 * other client.
 */
import { ConfigError, loadConfig } from "./config.ts";
import { createLogger } from "./log.ts";
import { startEngine } from "./engine.ts";

const withEdge = process.argv.includes("--with-edge");
const log = createLogger(process.env.LOG_LEVEL || "info");

try {
  const config = loadConfig();
  const engine = await startEngine(config, log.child({ process: "engine" }));
  let closeEdge = async () => {};
  if (withEdge) {
    // The edge runs on a worker thread of this process, so it has a core of
    // its own; it reaches the engine over the gRPC socket like any client.
    const { startEdgeWorker } = await import("../edge/worker-host.ts");
    const edge = await startEdgeWorker({
      port: config.edgePort,
      engineUrl: `http://127.0.0.1:${engine.port}`,
      token: engine.edgeToken,
      logLevel: config.logLevel,
      onCrash: (err) => {
        log.fatal({ err }, "the edge worker died; exiting so a supervisor restarts Cashier");
        process.exit(1);
      },
    });
    engine.setPublicUrl(`http://127.0.0.1:${edge.port}`);
    closeEdge = edge.close;
    log.info({ edgePort: edge.port, enginePort: engine.port }, `cashier ready: HTTP on ${edge.port}, gRPC on ${engine.port}`);
  } else if (config.serviceTokens.length === 0 && !config.edgeToken) {
    log.warn({}, "no CASHIER_SERVICE_TOKENS or CASHIER_EDGE_TOKEN: every gRPC call will be refused");
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    await closeEdge();
    await engine.stop();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
} catch (err) {
  log.fatal({ err: err instanceof ConfigError ? err.message : err }, "cashier failed to start");
  process.exit(1);
}
