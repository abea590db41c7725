/**
 * Graceful close for the edge's HTTP server. `server.close()` alone destroys
 * every connection without a request in progress, including one accepted a
 * moment ago whose request bytes are still on their way, and closing a
 * listener resets every connection still in the kernel's accept queue: those
 * clients see a reset, neither a reply nor a refusal. Here the queue is
 * accepted first (Node accepts one connection per turn of the event loop, so
 * the loop turns until turns bring none), then the listener closes (new
 * connections are refused), replies still to be sent carry `Connection:
 * close`, and idle sockets are closed after a short grace, then every 250 ms,
 * until the last connection is gone.
 */
import { Server as NetServer } from "node:net";
import type { Server, ServerResponse } from "node:http";

const IDLE_GRACE_MS = 250;
/** Enough turns to accept a full default backlog (511) twice over. */
const MAX_ACCEPT_TURNS = 1024;

/**
 * Starts tracking `server`'s responses; call the returned close() to drain it.
 * `onStopAccepting` is told, with the requests still in progress, the moment
 * the listener is closed (for the log).
 */
export function drainable(server: Server, onStopAccepting: (inProgress: number) => void = () => {}): { close(): Promise<void> } {
  const active = new Set<ServerResponse>();
  let draining = false;
  let accepted = 0;
  server.on("connection", () => (accepted += 1));
  server.on("request", (_req, res: ServerResponse) => {
    active.add(res);
    res.once("close", () => active.delete(res));
    if (draining && !res.headersSent) res.setHeader("connection", "close");
  });
  return {
    close: async () => {
      draining = true;
      for (const res of active) if (!res.headersSent) res.setHeader("connection", "close");
      // Accept what the kernel has queued: turn the loop until two turns in a row
      // accept nothing (the first may end in the same iteration, before any poll).
      for (let turns = 0, quiet = 0; quiet < 2 && turns < MAX_ACCEPT_TURNS; turns++) {
        const before = accepted;
        await new Promise((r) => setImmediate(r));
        quiet = accepted === before ? quiet + 1 : 0;
      }
      await new Promise<void>((resolve) => {
        let sweep: NodeJS.Timeout | undefined;
        // net.Server's close stops listening and waits for the connections, without http.Server's idle sweep.
        NetServer.prototype.close.call(server, () => {
          clearInterval(sweep);
          resolve();
        });
        onStopAccepting(active.size);
        sweep = setInterval(() => server.closeIdleConnections(), IDLE_GRACE_MS);
      });
    },
  };
}
