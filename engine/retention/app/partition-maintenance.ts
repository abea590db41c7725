/**
 * The monthly tables' upkeep (migration 022; docs/operations.md, Data retention), run by the retention worker at
 * its first step after a start and then once a day: each monthly table gets its months up to MONTHS_AHEAD after
 * the current one, so that rows never wait on a month being made and the default partition stays empty (it takes
 * a row whose month is missing, so an insert never fails for want of one); and each table with a retention period
 * has its months older than the period (whole months: a month goes once its last day is past the period)
 * detached and dropped. A failed run (a lock not had in time, the database away) is tried again an hour later.
 */
import type { DroppedMonth, MonthlyTable, RetentionStore } from "../ports/ports.ts";
import type { Schedule } from "../../payments/index.ts";

/** Months made ahead of the current one: three months of daily runs that could fail before a row lands in the default partition. */
export const MONTHS_AHEAD = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const RETRY_MS = 60 * 60 * 1000;
const DAY_SECONDS = DAY_MS / 1000;

/** The monthly tables, and for each the period after which its months go (0: kept for good). */
export function monthlyPeriods(r: Schedule["retention"]): [MonthlyTable, number][] {
  return [
    ["transaction_event", r.eventDays * DAY_SECONDS],
    ["callback_attempt", r.callbackDays * DAY_SECONDS],
    ["acquirer_webhook_event", r.webhookDays * DAY_SECONDS],
  ];
}

/** What one run did, for the log. */
export interface MaintenanceRun {
  made: number;
  dropped: DroppedMonth[];
}

/** When the next run is due, given when this one ran and whether it failed. */
export function nextRunAt(ranAt: number, failed: boolean): number {
  return ranAt + (failed ? RETRY_MS : DAY_MS);
}

/** A due-keeping runner of the upkeep: `step(now)` runs it when due (at once the first time) and says what it did. */
export function partitionMaintenance(store: RetentionStore, r: Schedule["retention"]) {
  let dueAt = 0;
  return {
    async step(now: number): Promise<MaintenanceRun | undefined> {
      if (now < dueAt) return undefined;
      dueAt = nextRunAt(now, true);
      const run: MaintenanceRun = { made: 0, dropped: [] };
      for (const [table, seconds] of monthlyPeriods(r)) {
        run.made += await store.makeMonths(table, MONTHS_AHEAD);
        if (seconds > 0) run.dropped.push(...(await store.dropMonths(table, seconds)));
      }
      dueAt = nextRunAt(now, false);
      return run;
    },
  };
}
