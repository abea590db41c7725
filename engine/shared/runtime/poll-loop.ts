/**
 * The loop behind every background worker: run a tick; when it found work,
 * run again at once, else sleep until the poll interval passes or it is woken:
 * by a change in this process that owes work now (deps.wake), or by another
 * engine's notice on the same database (store/work-listener.ts). The poll is
 * the fallback that finds everything else (work due later, a lost notice).
 * stop() waits for the running tick.
 */
export interface PollLoop {
  wake(): void;
  stop(): Promise<void>;
}

export function startPollLoop(tick: () => Promise<number>, pollMs: number, onError: (err: unknown) => void): PollLoop {
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        wakeUp = undefined;
        resolve();
      }, pollMs);
      wakeUp = () => {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      };
    });
  const running = (async () => {
    while (!stopping) {
      let found = 0;
      try {
        found = await tick();
      } catch (err) {
        onError(err);
      }
      if (!stopping && found === 0) await sleep();
    }
  })();
  return {
    wake() {
      if (wakeUp) wakeUp();
      else woken = true;
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await running;
    },
  };
}

/**
 * A worker that keeps up to `max` jobs in flight: it claims as many as there
 * are free slots and claims again as each one finishes, so one slow platform
 * or processor holds one slot, not the whole batch. stop() stops claiming and
 * waits for the jobs in flight at most `drainMs`: what it does not wait for is
 * safe, since a claim that is never recorded falls due again after its lease.
 */
export function startWorkPool<T>(opts: {
  claim: (n: number) => Promise<T[]>;
  work: (job: T) => Promise<void>;
  max: number;
  pollMs: number;
  drainMs: number;
  onError: (err: unknown) => void;
}): PollLoop {
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  const loop: PollLoop = startPollLoop(
    async () => {
      const free = opts.max - inFlight.size;
      if (free <= 0) return 0;
      const jobs = await opts.claim(free);
      // Claimed while stop() was called: left to fall due again after their lease.
      if (stopping) return 0;
      for (const job of jobs) {
        const p: Promise<void> = opts
          .work(job)
          .catch(opts.onError)
          .finally(() => {
            inFlight.delete(p);
            loop.wake();
          });
        inFlight.add(p);
      }
      return jobs.length;
    },
    opts.pollMs,
    opts.onError,
  );
  return {
    wake: () => loop.wake(),
    async stop() {
      stopping = true;
      await loop.stop();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(inFlight), new Promise<void>((resolve) => (timer = setTimeout(resolve, opts.drainMs)))]);
      clearTimeout(timer);
    },
  };
}
