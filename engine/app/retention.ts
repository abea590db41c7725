/**
 * The retention worker (docs/operations.md, Retention): settled callbacks with
 * their attempts, and the status history of final transactions, are deleted
 * once older than their retention period, at most `batch` rows of each table
 * per step and one step every `everyMs`, so a purge never competes with
 * payments for the database: that is its delete rate's bound, whatever the
 * backlog. A period of 0 keeps that table's rows for good.
 */
import { startPollLoop, type PollLoop } from "./poll-loop.ts";
import type { RetentionStore, RetentionTable } from "./ports.ts";
import type { Schedule } from "./schedule.ts";

const DAY_SECONDS = 24 * 60 * 60;

/** The tables with a retention period, and that period in seconds. */
export function retentionPeriods(r: Schedule["retention"]): [RetentionTable, number][] {
  const periods: [RetentionTable, number][] = [
    ["callback", r.callbackDays * DAY_SECONDS],
    ["transaction_event", r.eventDays * DAY_SECONDS],
  ];
  return periods.filter(([, seconds]) => seconds > 0);
}

export function startRetentionWorker(
  store: RetentionStore,
  r: Schedule["retention"],
  opts: { onError: (err: unknown) => void; onPurged?: (table: RetentionTable, rows: number) => void },
): PollLoop {
  const periods = retentionPeriods(r);
  return startPollLoop(
    async () => {
      for (const [table, seconds] of periods) {
        const rows = await store.purge(table, seconds, r.batch);
        if (rows > 0) opts.onPurged?.(table, rows);
      }
      // Always "nothing found": the loop then waits everyMs before the next step, which bounds the rate.
      return 0;
    },
    r.everyMs,
    opts.onError,
  );
}
