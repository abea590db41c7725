/**
 * Listening on a side port (the metrics endpoint, the Backoffice) whose number
 * may be only a default. Two Cashiers with different data dirs run side by
 * side on one machine once their EDGE_PORT and ENGINE_PORT differ; a side port
 * left at its default must not stop the second one. So a default port that is
 * taken gives way to a free one (the caller logs which), while a port the
 * operator chose stays a start error when taken, as EDGE_PORT and ENGINE_PORT are.
 */
import type { Server } from "node:net";

export interface ListenResult {
  /** True when the default port was taken and a free one was chosen instead. */
  movedFromDefault: boolean;
}

function listenOnce(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/** Listens on `port`; when `isDefault` and the port is in use, on any free port instead. */
export async function listenOnSidePort(server: Server, port: number, host: string, isDefault: boolean): Promise<ListenResult> {
  try {
    await listenOnce(server, port, host);
    return { movedFromDefault: false };
  } catch (err) {
    if (!isDefault || port === 0 || (err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
    await listenOnce(server, 0, host);
    return { movedFromDefault: true };
  }
}
