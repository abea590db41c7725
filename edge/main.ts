/**
 * `npm run edge`: the HTTP edge alone, calling the engine at ENGINE_URL with
 * CASHIER_EDGE_TOKEN (which the engine must accept).
 */
// First: the .env file's settings must be in the environment before any module reads it.
import "../engine/shared/config/env-file.ts";
import { createLogger } from "../engine/shared/runtime/log.ts";
import { ConfigError, loadConfig } from "../engine/shared/config/config.ts";
import { readFileSync } from "node:fs";
import { handleShutdownSignals } from "../engine/shared/runtime/shutdown.ts";
import { reportStartFailure } from "../engine/shared/runtime/start-error.ts";
import { startEdge } from "./server.ts";

/** ENGINE_TLS_CA, read here so a wrong path stops the start naming the variable. */
function readCa(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(`ENGINE_TLS_CA: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

const log = createLogger(process.env.LOG_LEVEL || "info").child({ process: "edge" });
try {
  const config = loadConfig();
  if (!config.edgeToken)
    throw new ConfigError("CASHIER_EDGE_TOKEN is required when the edge runs on its own (the same CASHIER_EDGE_TOKEN the engine is started with)");
  const engineTrust = { ca: readCa(config.engineTlsCaFile) };
  const edge = await startEdge({
    port: config.edgePort,
    engineUrl: config.engineUrl,
    token: config.edgeToken,
    engineTrust,
    trustedProxies: config.trustedProxies,
    metrics: { host: config.metricsHost, port: config.edgeMetricsPort, isDefault: config.edgeMetricsPortIsDefault },
    log,
  });
  // Stop accepting, let in-flight requests (and their engine calls) finish. The handler before the line that says
  // it listens: whoever acts on that line can stop it.
  handleShutdownSignals({ log, timeoutMs: config.shutdownTimeoutMs, stop: edge.close });
  if (edge.metricsMovedFromDefault)
    log.warn(
      { metricsPort: edge.metricsPort },
      `metrics: port ${config.edgeMetricsPort} is taken (another Cashier?), serving on ${edge.metricsPort}; set EDGE_METRICS_PORT to choose`,
    );
  log.info({ port: edge.port, engineUrl: config.engineUrl, metricsPort: edge.metricsPort }, "edge listening (HTTP)");
} catch (err) {
  reportStartFailure(log, "edge", err);
  process.exit(1);
}
