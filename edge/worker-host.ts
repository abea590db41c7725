/** Starts edge/worker.ts on a worker thread and waits until it listens (tests and the bench; `npm start` goes through engine/main.ts). */
import type { Worker } from "node:worker_threads";
import { startServerWorker } from "../engine/shared/runtime/server-worker.ts";
import type { EdgeListening, EdgeWorkerData } from "../engine/shared/runtime/worker-data.ts";

export { stopWorker } from "../engine/shared/runtime/server-worker.ts";

export interface EdgeWorker {
  port: number;
  /** Where the edge's GET /metrics is served (its own listener, not `port`). */
  metricsPort: number;
  /** The thread itself: the bench reads its CPU, heap and profile. */
  thread: Worker;
  close(): Promise<void>;
}

/**
 * The young generation as `npm start` sizes it (--max-semi-space-size=8: three
 * 8 MB semi-spaces' worth) even when the process is started without the flag:
 * left alone, V8 grows it to 96 MB per thread under load and keeps it
 * (docs/decisions/0013-less-work-per-sale.md).
 */
export const EDGE_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 24 };

export async function startEdgeWorker(
  opts: Omit<EdgeWorkerData, "host"> & {
    host?: string;
    /** Called if the edge dies after it started: the process should not run on without it. */
    onCrash: (err: unknown) => void;
  },
): Promise<EdgeWorker> {
  const { onCrash, ...data } = opts;
  const worker = await startServerWorker<EdgeListening>(
    new URL("./worker.ts", import.meta.url),
    { ...data, host: data.host ?? "0.0.0.0" } satisfies EdgeWorkerData,
    {
      name: "edge",
      resourceLimits: EDGE_RESOURCE_LIMITS,
      onCrash,
    },
  );
  return { port: worker.ready.port, metricsPort: worker.ready.metricsPort, thread: worker.thread, close: worker.close };
}
