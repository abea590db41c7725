/**
 * The schedule the use cases are given (ProcessDeps.schedule): every delay,
 * lease, horizon, timeout and backoff of a transaction's asynchronous life,
 * the settings and what is derived from them. app/schedule.ts builds it from
 * the settings (engine/shared/schedule-settings.ts); docs/schedule.md
 * has the table.
 */
import type { ScheduleSettings } from "../../shared/schedule-settings.ts";

/** The schedule the engine runs on: the settings and what is derived from them. */
export interface Schedule extends ScheduleSettings {
  callbacks: ScheduleSettings["callbacks"] & {
    /** Claim of a due callback: the call's timeout plus the margin. */
    leaseMs: number;
  };
  followUp: ScheduleSettings["followUp"] & {
    /** Claim of a due attempt: one processor call plus the margin. */
    leaseMs: number;
  };
  recovery: ScheduleSettings["recovery"] & {
    /** The sweep looks at attempts at least this old (recovery.afterMs, in the sweep's unit). */
    sweepGraceSeconds: number;
    /** Claim of a cascade attempt's submission (a charge: never made twice, so the longest lease). */
    submitLeaseMs: number;
    /** A step into pending that waits for nothing in particular is looked at again this much later. */
    pendingRecheckMs: number;
    /**
     * An attempt still pending with no check this old is looked up at its processor
     * by trace_id: longer than a live Process's Validation and processor call, and
     * safe if that Process still runs, since a lookup fences the key (decision 0007).
     */
    lookupAfterMs: number;
    /** lookupAfterMs in the sweep's unit (whole seconds, never shorter). */
    lookupGraceSeconds: number;
  };
}
