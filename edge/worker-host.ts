/** Starts edge/worker.ts on a worker thread and waits until it listens. */
import { Worker } from "node:worker_threads";
import type { EngineTrust } from "./engine-client.ts";

/**
 * Asks a server's worker thread to stop (it finishes its requests in progress)
 * and resolves when it has exited; past 5 s it is terminated.
 */
export function stopWorker(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 5000);
    worker.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    worker.postMessage({ type: "stop" });
  });
}

export interface EdgeWorker {
  port: number;
  /** The thread itself: the bench reads its CPU, heap and profile. */
  thread: Worker;
  close(): Promise<void>;
}

export async function startEdgeWorker(opts: {
  port: number;
  host?: string;
  engineUrl: string;
  token: string;
  /** Plain strings, so they cross to the worker thread. */
  engineTrust?: EngineTrust;
  logLevel: string;
  logFile?: string;
  /** Called if the edge dies after it started: the process should not run on without it. */
  onCrash: (err: unknown) => void;
}): Promise<EdgeWorker> {
  const worker = new Worker(new URL("./worker.ts", import.meta.url), {
    // The young generation as `npm start` sizes it (--max-semi-space-size=8: three
    // 8 MB semi-spaces' worth) even when the process is started without the flag:
    // left alone, V8 grows it to 96 MB per thread under load and keeps it
    // (docs/decisions/0013-less-work-per-sale.md).
    resourceLimits: { maxYoungGenerationSizeMb: 24 },
    workerData: {
      host: opts.host ?? "0.0.0.0",
      port: opts.port,
      engineUrl: opts.engineUrl,
      token: opts.token,
      engineTrust: opts.engineTrust,
      logLevel: opts.logLevel,
      logFile: opts.logFile,
    },
  });
  let closing = false;
  const port = await new Promise<number>((resolve, reject) => {
    let listening = false;
    worker.on("error", (err) => {
      if (!listening) return reject(err);
      opts.onCrash(err);
    });
    worker.on("exit", (code) => {
      if (!listening) return reject(new Error(`edge worker exited (${code}) before listening`));
      if (!closing) opts.onCrash(new Error(`edge worker exited (${code})`));
    });
    worker.on("message", (msg: { type: string; port?: number }) => {
      if (msg.type === "listening") {
        listening = true;
        resolve(msg.port!);
      }
    });
  });
  return {
    port,
    thread: worker,
    close: () => {
      closing = true;
      return stopWorker(worker);
    },
  };
}
