/** Starts edge/backoffice/worker.ts on a worker thread and waits until the console listens. */
import { Worker } from "node:worker_threads";
import type { BackofficeStart } from "./server.ts";
import { stopWorker } from "../worker-host.ts";

export interface BackofficeWorker {
  port: number;
  url: string;
  /** True when BACKOFFICE_PORT was unset and 8081 was taken, so a free port was chosen. */
  movedFromDefault: boolean;
  close(): Promise<void>;
}

export async function startBackofficeWorker(
  opts: Omit<BackofficeStart, "log"> & {
    logLevel: string;
    logFile?: string;
    /** Called if the console dies after it started. */
    onCrash: (err: unknown) => void;
  },
): Promise<BackofficeWorker> {
  const { onCrash, ...data } = opts;
  const worker = new Worker(new URL("./worker.ts", import.meta.url), { workerData: data });
  let closing = false;
  const started = await new Promise<{ port: number; url: string; movedFromDefault: boolean }>((resolve, reject) => {
    let listening = false;
    worker.on("error", (err) => {
      if (!listening) return reject(err);
      onCrash(err);
    });
    worker.on("exit", (code) => {
      if (!listening) return reject(new Error(`backoffice worker exited (${code}) before listening`));
      if (!closing) onCrash(new Error(`backoffice worker exited (${code})`));
    });
    worker.on("message", (msg: { type: string; port: number; url: string; movedFromDefault: boolean }) => {
      if (msg.type === "listening") {
        listening = true;
        resolve({ port: msg.port, url: msg.url, movedFromDefault: msg.movedFromDefault });
      }
    });
  });
  return {
    ...started,
    close: () => {
      closing = true;
      return stopWorker(worker);
    },
  };
}
