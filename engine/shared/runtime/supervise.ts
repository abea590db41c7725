/**
 * Keeps a process the service started (the embedded Postgres, the acquirer
 * simulator's child) running: when it ends by itself (kill -9, a crash, the
 * OOM killer) it is started again after a growing delay, and the owner is told
 * it is down and back so that health can say so. A process that cannot be
 * brought back (too many failed restarts in a window) is given up on: the owner
 * exits with one clear line, and the service's own supervisor (systemd,
 * docker, Kubernetes) restarts the whole of Cashier.
 */
import type { Logger } from "./log.ts";

/** How restarts are spaced and when they are given up on. */
export interface RestartPolicy {
  /** The delay before the first restart after an end; each further failure doubles it. */
  firstDelayMs: number;
  /** The longest delay between two restarts. */
  maxDelayMs: number;
  /** A run that lasts this long was stable: its end starts the delays from firstDelayMs again and counts as no failure. */
  stableMs: number;
  /** This many failures (failed starts, or runs that ended before stableMs) within windowMs give up. */
  maxFailures: number;
  windowMs: number;
}

/**
 * 0.5 s doubling to 30 s; six failures within two minutes give up. The end of
 * a run younger than a minute is the first of them, so a process that never
 * comes back is given up on after five failed restarts, about 15 s after its
 * end (0.5 + 1 + 2 + 4 + 8); a run of a minute was stable.
 */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  firstDelayMs: 500,
  maxDelayMs: 30_000,
  stableMs: 60_000,
  maxFailures: 6,
  windowMs: 120_000,
};

/** The delay before the `n`th restart in a row (1-based): firstDelayMs doubling, never past maxDelayMs. */
export function restartDelay(policy: RestartPolicy, n: number): number {
  // 2 ** n overflows to Infinity long after the cap: Math.min still answers the cap.
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, n - 1));
}

/** The failures (their times) still inside the window at `now`, and whether they are enough to give up. */
export function failuresInWindow(policy: RestartPolicy, failures: readonly number[], now: number): { kept: number[]; giveUp: boolean } {
  const kept = failures.filter((at) => now - at < policy.windowMs);
  return { kept, giveUp: kept.length >= policy.maxFailures };
}

/** A process to keep running, as its owner starts and watches it. */
export interface Supervisable {
  /** Resolves with how the current run ended ("killed by SIGKILL", "exit code 1") once it ends. */
  exited(): Promise<string>;
  /** Starts a new run after the last one ended; rejects, saying why, when it does not start. */
  restart(): Promise<void>;
}

export interface SupervisorEvents {
  /** The process ended by itself: it is down until onUp. */
  onDown(why: string): void;
  onUp(): void;
  /** Restarts failed too often: `line` says what and why; the owner exits with it. */
  onGiveUp(line: string): void;
}

export interface Supervisor {
  /** True from an end until a restart succeeds. */
  readonly down: boolean;
  /** Stops watching and restarting (a restart under way is waited for), before the owner stops the process itself. */
  stop(): Promise<void>;
}

/** The reason of a failed start, in one line and without a stack. */
function reasonOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0] || "no reason given";
}

/**
 * Watches `target` (running when called) as `name` and restarts it per `policy`.
 * One log line per event: its end, each failed restart, its return, giving up.
 */
export function supervise(
  name: string,
  target: Supervisable,
  events: SupervisorEvents,
  log: Logger,
  policy: RestartPolicy = DEFAULT_RESTART_POLICY,
  now: () => number = Date.now,
): Supervisor {
  let stopped = false;
  let down = false;
  let failures: number[] = [];
  // Restarts in a row since the last stable run: the backoff's step.
  let inRow = 0;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let restarting: Promise<void> | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });

  /** Records a failure; true when it is one too many. */
  const failed = (): boolean => {
    const counted = failuresInWindow(policy, [...failures, now()], now());
    failures = counted.kept;
    return counted.giveUp;
  };

  const giveUp = (why: string) => {
    stopped = true;
    const line = `${name} could not be restarted: ${failures.length} failures within ${Math.round(policy.windowMs / 1000)} s (last: ${why}); exiting so that a supervisor restarts Cashier`;
    log.fatal({ supervised: name, failures: failures.length }, line);
    events.onGiveUp(line);
  };

  const watch = (startedAt: number) => {
    void target.exited().then((how) => {
      if (stopped) return;
      const ranMs = now() - startedAt;
      down = true;
      events.onDown(how);
      if (ranMs >= policy.stableMs) inRow = 0;
      else if (failed()) return giveUp(`it ended (${how}) ${ranMs} ms after it started`);
      inRow += 1;
      const delay = restartDelay(policy, inRow);
      log.error({ supervised: name, ranMs, restartInMs: delay }, `${name} ended (${how}); restarting it in ${delay} ms`);
      restarting = restartLoop(delay);
    });
  };

  const restartLoop = async (firstDelay: number) => {
    let delay = firstDelay;
    for (;;) {
      await sleep(delay);
      if (stopped) return;
      try {
        await target.restart();
      } catch (err) {
        const why = reasonOf(err);
        if (stopped) return;
        if (failed()) return giveUp(why);
        inRow += 1;
        delay = restartDelay(policy, inRow);
        log.error({ supervised: name, restartInMs: delay }, `${name} did not start again (${why}); next try in ${delay} ms`);
        continue;
      }
      if (stopped) return;
      down = false;
      log.info({ supervised: name, restarts: inRow }, `${name} is running again`);
      events.onUp();
      watch(now());
      return;
    }
  };

  watch(now());
  return {
    get down() {
      return down;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await restarting;
    },
  };
}
