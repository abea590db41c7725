/** Starts edge/worker.ts on a worker thread and waits until it listens. */
import { Worker } from "node:worker_threads";

export interface EdgeWorker {
  port: number;
  close(): Promise<void>;
}

export async function startEdgeWorker(opts: {
  port: number;
  host?: string;
  engineUrl: string;
  token: string;
  logLevel: string;
  logFile?: string;
}): Promise<EdgeWorker> {
  const worker = new Worker(new URL("./worker.ts", import.meta.url), {
    workerData: { host: "0.0.0.0", ...opts },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`edge worker exited (${code}) before listening`)));
    worker.on("message", (msg: { type: string; port?: number }) => {
      if (msg.type === "listening") resolve(msg.port!);
    });
  });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 5000);
        worker.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage({ type: "stop" });
      }),
  };
}
