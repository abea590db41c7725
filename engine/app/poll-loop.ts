/**
 * The loop behind every background worker: run a tick; when it found work,
 * run again at once, else sleep until the poll interval passes or someone in
 * this process wakes it (a change that owes a callback). Other processes on
 * the same database are found by polling. stop() waits for the running tick.
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
