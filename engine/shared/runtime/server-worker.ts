/**
 * A server on a worker thread of this process (`npm start` runs the edge and
 * the Backoffice so, each with a core of its own). The thread runs an entry
 * file given by its path and speaks a two-message protocol: it posts
 * `{ type: "listening", ... }` once it serves, and stops when it is posted
 * `{ type: "stop" }`. The starter imports none of the entry's code: the
 * engine's main starts the edge's entry files as a supervisor would start
 * their processes (docs/architecture.md, The launcher).
 */
import { type ResourceLimits, Worker } from "node:worker_threads";

/** What the thread posts once it listens; each server adds its own fields. */
export interface ListeningMessage {
  type: "listening";
  port: number;
}

export interface ServerWorker<Ready extends ListeningMessage> {
  /** The thread's listening message. */
  ready: Ready;
  /** The thread itself: the bench reads its CPU, heap and profile. */
  thread: Worker;
  close(): Promise<void>;
}

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

/** Starts `entry` on a worker thread with `data` and waits until it listens (or fails to). */
export async function startServerWorker<Ready extends ListeningMessage>(
  entry: URL,
  data: object,
  opts: {
    /** For the start's error messages: "edge", "backoffice". */
    name: string;
    resourceLimits?: ResourceLimits;
    /** Called if the server dies after it started: the process should not run on without it. */
    onCrash: (err: unknown) => void;
  },
): Promise<ServerWorker<Ready>> {
  const worker = new Worker(entry, { workerData: data, resourceLimits: opts.resourceLimits });
  let closing = false;
  const ready = await new Promise<Ready>((resolve, reject) => {
    let listening = false;
    worker.on("error", (err) => {
      if (!listening) return reject(err);
      opts.onCrash(err);
    });
    worker.on("exit", (code) => {
      if (!listening) return reject(new Error(`${opts.name} worker exited (${code}) before listening`));
      if (!closing) opts.onCrash(new Error(`${opts.name} worker exited (${code})`));
    });
    worker.on("message", (msg: Ready) => {
      if (msg.type === "listening") {
        listening = true;
        resolve(msg);
      }
    });
  });
  return {
    ready,
    thread: worker,
    close: () => {
      closing = true;
      return stopWorker(worker);
    },
  };
}
