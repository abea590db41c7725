/**
 * The retention worker (docs/operations.md, Retention): settled callbacks and
 * the keys of old acquirer webhook events are deleted once older than their
 * retention period, at most `batch` rows of each table per step and one step
 * every `everyMs`, so a purge never competes with payments for the database:
 * that is its delete rate's bound, whatever the backlog. The monthly tables
 * (the status history, the callbacks' attempts, the webhook events with their
 * raw bodies) lose whole months instead, in the partition upkeep its first
 * step after a start and one step a day run (partition-maintenance.ts). A
 * period of 0 keeps that table's rows for good. Ended sessions (console,
 * sign-ins, enrolment tokens, hosted Cashier) go row by row, by their end on
 * the service's clock.
 */
import { startPollLoop, type PollLoop } from "../../shared/runtime/poll-loop.ts";
import type { Clock } from "../../shared/runtime/clock.ts";
import type { RetentionStore, RetentionTable, SessionRetention } from "../ports/ports.ts";
import type { Schedule } from "../../payments/index.ts";
import { type MaintenanceRun, partitionMaintenance } from "./partition-maintenance.ts";

const DAY_SECONDS = 24 * 60 * 60;

/** The tables purged row by row that have a retention period, and that period in seconds (the webhook keys: the events'). */
export function retentionPeriods(r: Schedule["retention"]): [RetentionTable, number][] {
  const periods: [RetentionTable, number][] = [
    ["callback", r.callbackDays * DAY_SECONDS],
    ["acquirer_webhook_event_key", r.webhookDays * DAY_SECONDS],
  ];
  return periods.filter(([, seconds]) => seconds > 0);
}

/**
 * How long after its end each kind of session is kept, in ms. Sessions: 30
 * days by default, long enough to answer "who was signed in, from where" about
 * a recent dispute (the audit log itself is kept for good); unfinished
 * sign-ins and enrolment tokens: a day, as they carry nothing worth keeping
 * once unusable. 0 keeps that kind for good.
 */
export function sessionPeriods(r: Schedule["retention"]): [SessionRetention, number][] {
  const periods: [SessionRetention, number][] = [
    ["console_session", r.sessionDays * DAY_SECONDS * 1000],
    ["hosted_session", r.sessionDays * DAY_SECONDS * 1000],
    ["console_sign_in", r.signInHours * 3_600_000],
    ["enrolment_token", r.signInHours * 3_600_000],
  ];
  return periods.filter(([, ms]) => ms > 0);
}

export function startRetentionWorker(
  store: RetentionStore,
  r: Schedule["retention"],
  opts: {
    onError: (err: unknown) => void;
    onPurged?: (table: RetentionTable | SessionRetention, rows: number) => void;
    /** A partition upkeep that made or dropped a month. */
    onMonths?: (run: MaintenanceRun) => void;
    /** The clock the sessions' times were written with (app/clock.ts). */
    now?: Clock;
  },
): PollLoop {
  const periods = retentionPeriods(r);
  const sessions = sessionPeriods(r);
  const now = opts.now ?? (() => new Date());
  const months = partitionMaintenance(store, r);
  return startPollLoop(
    async () => {
      // Its failure is told and the purges still run; it is tried again an hour later.
      const run = await months.step(Date.now()).catch((err: unknown) => {
        opts.onError(err);
        return undefined;
      });
      if (run && (run.made > 0 || run.dropped.length > 0)) opts.onMonths?.(run);
      for (const [table, seconds] of periods) {
        const rows = await store.purge(table, seconds, r.batch);
        if (rows > 0) opts.onPurged?.(table, rows);
      }
      for (const [kind, ms] of sessions) {
        const rows = await store.purgeSessions(kind, new Date(now().getTime() - ms), r.batch);
        if (rows > 0) opts.onPurged?.(kind, rows);
      }
      // Expired card tokens go at their expiry whatever the periods (CONTRACT 12): their sealed card, and a CVV never
      // used, are of no more use to anyone.
      const tokens = await store.purgeSessions("card_token", now(), r.batch);
      if (tokens > 0) opts.onPurged?.("card_token", tokens);
      // Always "nothing found": the loop then waits everyMs before the next step, which bounds the rate.
      return 0;
    },
    r.everyMs,
    opts.onError,
  );
}
