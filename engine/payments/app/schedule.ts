/**
 * Every delay, lease, horizon, timeout and backoff of a transaction's
 * asynchronous life, in one typed object. docs/schedule.md has the table (what
 * each value bounds, why that size) and the diagram of which lease covers which
 * step. Pure, no I/O: the settings and their defaults are in engine/shared/schedule-settings.ts (config.ts reads them too), engine.ts builds
 * the schedule from the config once and puts it in deps, and every use site
 * reads it from there. A derived value (a lease = what it covers plus a margin)
 * is computed here, in buildSchedule, never again at a use site.
 */
import { DEFAULT_SCHEDULE_SETTINGS, type ScheduleSettings } from "../../shared/schedule-settings.ts";
import type { Schedule } from "../ports/schedule.ts";

/** The derived values, from the settings. */
export function buildSchedule(s: ScheduleSettings): Schedule {
  return {
    ...s,
    workers: { ...s.workers },
    wakeUp: { ...s.wakeUp },
    callbacks: { ...s.callbacks, retrySeconds: [...s.callbacks.retrySeconds], leaseMs: s.callbacks.timeoutMs + s.callbacks.leaseMarginMs },
    validation: { ...s.validation },
    processor: { ...s.processor },
    followUp: { ...s.followUp, leaseMs: s.processor.timeoutMs + s.followUp.leaseMarginMs },
    pendingPoll: { ...s.pendingPoll },
    challenge: { ...s.challenge },
    retention: { ...s.retention },
    recovery: {
      ...s.recovery,
      sweepGraceSeconds: Math.ceil(s.recovery.afterMs / 1000),
      submitLeaseMs: s.recovery.afterMs,
      pendingRecheckMs: s.recovery.afterMs,
      lookupAfterMs: s.validation.timeoutMs + s.processor.timeoutMs + s.followUp.leaseMarginMs,
      lookupGraceSeconds: Math.ceil((s.validation.timeoutMs + s.processor.timeoutMs + s.followUp.leaseMarginMs) / 1000),
    },
  };
}

export const defaultSchedule: Schedule = buildSchedule(DEFAULT_SCHEDULE_SETTINGS);

/** The CASHIER_* settings that set the schedule, as engine/shared/config/config.ts reads them (its Config has them all). */
export interface ScheduleConfig {
  workerPollMs: number;
  callbackTimeoutMs: number;
  callbackRetrySeconds: number[];
  rfdResendSeconds: number;
  rfdMaxAttempts: number;
  validationTimeoutMs: number;
  processorTimeoutMs: number;
  challengeTtlSeconds: number;
  retention: Partial<ScheduleSettings["retention"]>;
}

/** The schedule of an engine: the CASHIER_* settings the config read, the defaults for the rest. */
export function scheduleFromConfig(config: ScheduleConfig): Schedule {
  const d = DEFAULT_SCHEDULE_SETTINGS;
  return buildSchedule({
    ...d,
    workers: { ...d.workers, pollMs: config.workerPollMs },
    callbacks: {
      ...d.callbacks,
      timeoutMs: config.callbackTimeoutMs,
      retrySeconds: config.callbackRetrySeconds,
      rfdResendSeconds: config.rfdResendSeconds,
      rfdMaxAttempts: config.rfdMaxAttempts,
    },
    validation: { timeoutMs: config.validationTimeoutMs },
    processor: { timeoutMs: config.processorTimeoutMs },
    challenge: { ...d.challenge, ttlSeconds: config.challengeTtlSeconds },
    retention: { ...d.retention, ...config.retention },
  });
}

/** How long to wait before asking a processor again about a pending attempt of this age. */
export function pendingPollDelayMs(p: Schedule["pendingPoll"], ageMs: number): number {
  return Math.max(p.minMs, Math.min(p.maxMs, ageMs / p.ageDivisor));
}
