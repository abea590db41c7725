/**
 * The engine's process: it reads the environment and listens. `npm run engine`
 * runs the engine alone; `npm start` (--with-edge) also starts the edge and the
 * Backoffice on worker threads of this process, by their entry files' paths
 * (engine/shared/runtime/server-worker.ts): the engine imports none of the
 * edge's code, and the edge reaches the engine over its gRPC socket like any
 * other client.
 */
// First: the .env file's settings must be in the environment before any module reads it.
import "./shared/config/env-file.ts";
import { loadConfig } from "./shared/config/config.ts";
import { reportStartFailure } from "./shared/runtime/start-error.ts";
import { createLogger } from "./shared/runtime/log.ts";
import { startEngine } from "./engine.ts";
import { handleShutdownSignals } from "./shared/runtime/shutdown.ts";
import { exitLoudlyWhenLoopEmpties } from "./shared/runtime/empty-loop.ts";
import { loadServerTls, loopbackTrust } from "./runtime/tls.ts";
import { startServerWorker } from "./shared/runtime/server-worker.ts";
import type { BackofficeListening, BackofficeWorkerData, EdgeListening, EdgeWorkerData } from "./shared/runtime/worker-data.ts";
import { loadBackofficeConfig, readBackofficeTls } from "./shared/config/backoffice-config.ts";

const withEdge = process.argv.includes("--with-edge");

/** How this process's own edge and Backoffice dial a listener bound to `host` (ENGINE_HOST): loopback for a wildcard. */
function dialable(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}
const log = createLogger(process.env.LOG_LEVEL || "info");
exitLoudlyWhenLoopEmpties(log, "cashier");
// Set once the engine runs, so that a later failure (the edge's port taken)
// stops it, and its embedded Postgres, before the process exits.
let started: { stop(): Promise<void> } | undefined;

try {
  const config = loadConfig();
  const engine = await startEngine(config, log.child({ process: "engine" }), {
    // A supervised process (the embedded Postgres, the acquirer simulator) could not be restarted: its supervisor has
    // logged why. The rest stops within the shutdown time (a started one, if any), and the process exits 1 so that
    // its own supervisor restarts Cashier.
    onGiveUp: () => {
      const force = setTimeout(() => process.exit(1), config.shutdownTimeoutMs);
      void (started?.stop() ?? Promise.resolve()).finally(() => {
        clearTimeout(force);
        process.exit(1);
      });
    },
  });
  // Stopped once, whoever asks first: a signal during the edge's start and that start's own failure may both.
  let stopping: Promise<void> | undefined;
  const stopEngine = () => (stopping ??= engine.stop());
  started = { stop: stopEngine };
  let closeEdge = async () => {};
  // From here a signal is ours, before any "ready" line a supervisor may act on. The edge first: it stops
  // accepting HTTP and finishes its requests, whose engine calls are then done; the engine then drains gRPC,
  // stops its workers and closes the database. (An edge still starting ends with the process.)
  handleShutdownSignals({
    log,
    timeoutMs: config.shutdownTimeoutMs,
    stop: async () => {
      // First: a process that ends with us (Ctrl-C reaches the embedded Postgres too) is not one to restart.
      await engine.stopSupervising();
      await closeEdge();
      await stopEngine();
    },
  });
  if (withEdge) {
    // The edge runs on a worker thread of this process, so it has a core of
    // its own; it reaches the engine over the gRPC socket like any client.
    // Its entry file is started by path, as a supervisor starts a process:
    // the engine imports none of the edge's code.
    const tls = loadServerTls(config);
    const edge = await startServerWorker<EdgeListening>(
      new URL("../edge/worker.ts", import.meta.url),
      {
        host: "0.0.0.0",
        port: config.edgePort,
        engineUrl: `${tls ? "https" : "http"}://${dialable(config.engineHost)}:${engine.port}`,
        engineTrust: tls ? loopbackTrust(tls) : undefined,
        token: engine.edgeToken,
        trustedProxies: config.trustedProxies,
        metrics: { host: config.metricsHost, port: config.edgeMetricsPort, isDefault: config.edgeMetricsPortIsDefault },
        logLevel: config.logLevel,
      } satisfies EdgeWorkerData,
      {
        name: "edge",
        // The young generation as --max-semi-space-size=8 sizes it, even when started without the flag
        // (docs/decisions/0013-less-work-per-sale.md).
        resourceLimits: { maxYoungGenerationSizeMb: 24 },
        onCrash: (err) => {
          log.fatal({ err }, "the edge worker died; exiting so a supervisor restarts Cashier");
          process.exit(1);
        },
      },
    );
    engine.setPublicUrl(`http://127.0.0.1:${edge.ready.port}`);
    if (edge.ready.metricsMovedFromDefault)
      log.warn(
        { edgeMetricsPort: edge.ready.metricsPort },
        `edge metrics: port ${config.edgeMetricsPort} is taken (another Cashier?), serving on ${edge.ready.metricsPort}; set EDGE_METRICS_PORT to choose`,
      );
    // A signal while the Backoffice starts still drains the edge.
    closeEdge = () => edge.close();
    // The Backoffice console: its own listener (BACKOFFICE_HOST:BACKOFFICE_PORT) on a worker thread of its own.
    const bo = loadBackofficeConfig();
    const started = await startServerWorker<BackofficeListening>(
      new URL("../edge/backoffice/worker.ts", import.meta.url),
      {
        port: bo.port,
        portIsDefault: bo.portIsDefault,
        host: bo.host,
        engineUrl: `${tls ? "https" : "http"}://${dialable(config.engineHost)}:${engine.port}`,
        engineTrust: tls ? loopbackTrust(tls) : undefined,
        token: engine.backofficeToken,
        tls: readBackofficeTls(bo),
        publicUrl: bo.publicUrl,
        trustedProxies: config.trustedProxies,
        logLevel: config.logLevel,
      } satisfies BackofficeWorkerData,
      {
        name: "backoffice",
        onCrash: (err) => {
          log.fatal({ err }, "the backoffice worker died; exiting so a supervisor restarts Cashier");
          process.exit(1);
        },
      },
    );
    const backoffice = { ...started.ready, close: started.close };
    closeEdge = async () => {
      await Promise.all([edge.close(), backoffice.close()]);
    };
    if (backoffice.movedFromDefault) {
      log.warn(
        { backofficePort: backoffice.port },
        `backoffice: port ${bo.port} is taken (another Cashier?), serving on ${backoffice.port}; set BACKOFFICE_PORT to choose`,
      );
    }
    log.info(
      {
        edgePort: edge.ready.port,
        enginePort: engine.port,
        engineHost: config.engineHost,
        metricsPort: engine.metricsPort,
        edgeMetricsPort: edge.ready.metricsPort,
        metricsHost: config.metricsHost,
        backofficePort: backoffice.port,
      },
      `cashier ready: HTTP on ${edge.ready.port}, gRPC on ${engine.port}, Backoffice on ${backoffice.url}`,
    );
  } else {
    if (config.serviceTokens.length === 0 && !config.edgeToken)
      log.warn({}, "no CASHIER_SERVICE_TOKENS or CASHIER_EDGE_TOKEN: every gRPC call will be refused");
    // Alone, the engine cannot learn where the edge listens: its links would name this process's EDGE_PORT.
    if (!config.publicUrl)
      log.warn(
        { publicUrl: `http://127.0.0.1:${config.edgePort}` },
        `CASHIER_PUBLIC_URL is unset: the redirect_url links this engine hands out start with http://127.0.0.1:${config.edgePort} (its own EDGE_PORT); set CASHIER_PUBLIC_URL to the edge's public address`,
      );
  }
} catch (err) {
  reportStartFailure(log, "cashier", err);
  await started?.stop().catch(() => {});
  process.exit(1);
}
