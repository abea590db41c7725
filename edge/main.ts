/**
 * `npm run edge`: the HTTP edge alone, calling the engine at ENGINE_URL with
 * CASHIER_EDGE_TOKEN (which the engine must accept).
 */
import { createLogger } from "../engine/log.ts";
import { ConfigError, loadConfig } from "../engine/config.ts";
import { startEdge } from "./server.ts";

const log = createLogger(process.env.LOG_LEVEL || "info").child({ process: "edge" });
try {
  const config = loadConfig();
  if (!config.edgeToken) throw new ConfigError("CASHIER_EDGE_TOKEN is required when the edge runs on its own (one of the engine's CASHIER_SERVICE_TOKENS)");
  const edge = await startEdge({ port: config.edgePort, engineUrl: config.engineUrl, token: config.edgeToken, log });
  log.info({ port: edge.port, engineUrl: config.engineUrl }, "edge listening (HTTP)");
  const stop = async () => {
    log.info({}, "edge stopping");
    await edge.close();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
} catch (err) {
  log.fatal({ err: err instanceof ConfigError ? err.message : err }, "edge failed to start");
  process.exit(1);
}
