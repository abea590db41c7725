/**
 * The edge on a worker thread: `npm start` runs engine and edge in one
 * process, and this lets the edge use the machine's second core instead of
 * sharing the engine's event loop. It still reaches the engine over the gRPC
 * socket, like any other client. Started by engine/main.ts (--with-edge) and
 * edge/worker-host.ts, with the data of EdgeWorkerData.
 */
import { parentPort, workerData } from "node:worker_threads";
import pino from "pino";
import { createLogger } from "../engine/shared/runtime/log.ts";
import { startEdge } from "./server.ts";
import type { EdgeListening, EdgeWorkerData } from "../engine/shared/runtime/worker-data.ts";

const data = workerData as EdgeWorkerData;
const destination = data.logFile ? pino.destination({ dest: data.logFile, sync: true, append: true }) : undefined;
const log = createLogger(data.logLevel, destination).child({ process: "edge" });
const edge = await startEdge({
  port: data.port,
  host: data.host,
  engineUrl: data.engineUrl,
  token: data.token,
  engineTrust: data.engineTrust,
  trustedProxies: data.trustedProxies,
  metrics: data.metrics,
  log,
});
parentPort!.postMessage({
  type: "listening",
  port: edge.port,
  metricsPort: edge.metricsPort,
  metricsMovedFromDefault: edge.metricsMovedFromDefault,
} satisfies EdgeListening);
parentPort!.on("message", async (msg: { type: string }) => {
  if (msg.type !== "stop") return;
  await edge.close();
  process.exit(0);
});
