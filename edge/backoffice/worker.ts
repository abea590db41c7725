/**
 * The console on a worker thread of `npm start`, next to the edge's: it keeps
 * page rendering off the engine's event loop and reaches the engine over the
 * gRPC socket like any client. Started by engine/main.ts (--with-edge) and
 * worker-host.ts, with the data of BackofficeWorkerData.
 */
import { parentPort, workerData } from "node:worker_threads";
import pino from "pino";
import { createLogger } from "../../engine/shared/runtime/log.ts";
import { startBackoffice } from "./server.ts";
import type { BackofficeListening, BackofficeWorkerData } from "../../engine/shared/runtime/worker-data.ts";

const data = workerData as BackofficeWorkerData;
const destination = data.logFile ? pino.destination({ dest: data.logFile, sync: true, append: true }) : undefined;
const log = createLogger(data.logLevel, destination).child({ process: "backoffice" });
const { logLevel: _level, logFile: _file, ...start } = data;
const handle = await startBackoffice({ ...start, log });
parentPort!.postMessage({ type: "listening", port: handle.port, url: handle.url, movedFromDefault: handle.movedFromDefault } satisfies BackofficeListening);
parentPort!.on("message", async (msg: { type: string }) => {
  if (msg.type !== "stop") return;
  await handle.close();
  process.exit(0);
});
