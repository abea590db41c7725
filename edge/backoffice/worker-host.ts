/** Starts edge/backoffice/worker.ts on a worker thread and waits until the console listens (tests; `npm start` goes through engine/main.ts). */
import { startServerWorker } from "../../engine/shared/runtime/server-worker.ts";
import type { BackofficeListening, BackofficeWorkerData } from "../../engine/shared/runtime/worker-data.ts";

export interface BackofficeWorker {
  port: number;
  url: string;
  /** True when BACKOFFICE_PORT was unset and 8081 was taken, so a free port was chosen. */
  movedFromDefault: boolean;
  close(): Promise<void>;
}

export async function startBackofficeWorker(
  opts: BackofficeWorkerData & {
    /** Called if the console dies after it started. */
    onCrash: (err: unknown) => void;
  },
): Promise<BackofficeWorker> {
  const { onCrash, ...data } = opts;
  const worker = await startServerWorker<BackofficeListening>(new URL("./worker.ts", import.meta.url), data, { name: "backoffice", onCrash });
  const { port, url, movedFromDefault } = worker.ready;
  return { port, url, movedFromDefault, close: worker.close };
}
