/**
 * The bench's bound ("floor"): the least a service could do for an approved
 * sale over HTTP with the engine's own crash guarantee, the writes of every
 * sale in flight gathered as the engine's write batch gathers them (two
 * statements and two commits per batch, on the engine's number of batch
 * connections), served by node:http on a worker thread as the edge is
 * (floor-batched-worker.ts). The engine's batch made it faster than the
 * one-round-trip-per-sale floor (floor.ts, kept as the phase `floor-single`),
 * which then bounded nothing: the phases are read against this one.
 */
import { Worker } from "node:worker_threads";

export interface BatchedFloor {
  url: string;
  /** The server's thread, for its CPU (edge-thread.ts) as the edge's is read. */
  thread: Worker;
  close(): Promise<void>;
}

/** Starts the batched bound's thread on a free port of 127.0.0.1, writing to `databaseUrl`. */
export async function startBatchedFloor(databaseUrl: string): Promise<BatchedFloor> {
  const thread = new Worker(new URL("./floor-batched-worker.ts", import.meta.url), { workerData: { databaseUrl } });
  const port = await new Promise<number>((resolve, reject) => {
    thread.once("message", (m: { port: number }) => resolve(m.port));
    thread.once("error", reject);
    thread.once("exit", (code) => reject(new Error(`the batched floor's thread exited (${code}) before it listened`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    thread,
    async close() {
      const exited = new Promise<void>((resolve) => thread.once("exit", () => resolve()));
      thread.postMessage("close");
      await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 5000).unref())]);
      await thread.terminate();
    },
  };
}
