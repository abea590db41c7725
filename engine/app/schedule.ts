/**
 * Every delay, lease, horizon, timeout and backoff of a transaction's
 * asynchronous life, in one typed object. docs/schedule.md has the table (what
 * each value bounds, why that size) and the diagram of which lease covers which
 * step. Pure, no I/O: config.ts takes its defaults from here, engine.ts builds
 * the schedule from the config once and puts it in deps, and every use site
 * reads it from there. A derived value (a lease = what it covers plus a margin)
 * is computed here, in buildSchedule, never again at a use site.
 */
import { DEFAULT_RETRY_SECONDS, DEFAULT_RFD_MAX_ATTEMPTS, type RetryPolicy } from "../domain/callbacks.ts";

/** What can be set; the rest of a Schedule is derived from it. */
export interface ScheduleSettings {
  workers: {
    /** CASHIER_WORKER_POLL_MS: an idle worker looks for due work this often; the fallback when no wake-up comes. */
    pollMs: number;
    /** On stop, how long the jobs in flight are waited for; what is left falls due again after its lease. */
    drainMs: number;
  };
  /** The LISTEN connection that lets other engines wake this one's workers. */
  wakeUp: {
    /** A connection attempt that takes longer is given up (and retried). */
    connectTimeoutMs: number;
    /** First wait before reconnecting after the connection is lost; doubled at each failure... */
    reconnectMinMs: number;
    /** ...up to this. */
    reconnectMaxMs: number;
  };
  /** Queued callbacks (notification, UpdatePayout, RecordFailedDeposit): their HTTP call, lease and retries. */
  callbacks: RetryPolicy & {
    /** CASHIER_CALLBACK_TIMEOUT_MS: the whole HTTP call. */
    timeoutMs: number;
    /** Beyond the call: the merchant lookup and recording the answer, two bounded database waits. */
    leaseMarginMs: number;
  };
  validation: {
    /** CASHIER_VALIDATION_TIMEOUT_MS: the Validation call, made while the customer waits. */
    timeoutMs: number;
  };
  processor: {
    /** One processor call; no answer in time is "unknown", never declined. */
    timeoutMs: number;
  };
  followUp: {
    /** Beyond the processor call: reading the attempt and recording the answer. */
    leaseMarginMs: number;
  };
  /** When a pending attempt's processor is asked again: a fraction of its age, within bounds. */
  pendingPoll: { minMs: number; maxMs: number; ageDivisor: number };
  challenge: {
    /** CASHIER_CHALLENGE_TTL_SECONDS: how long an open 3-D Secure challenge waits for the customer. */
    ttlSeconds: number;
    /** How long the customer's answer holds the challenge while the processor is asked. */
    answerClaimMs: number;
  };
  recovery: {
    /** How long a live engine may take over one step before it is presumed dead there. */
    afterMs: number;
    /** How often a follow-up worker sweeps new attempts for ones left without a check. */
    sweepEveryMs: number;
    /** A processor's "no record of this attempt" is believed only once the attempt is this old. */
    noRecordAfterMs: number;
  };
  /** The retention purge (docs/operations.md, Retention). */
  retention: {
    /** CASHIER_RETENTION_CALLBACK_DAYS: settled callbacks and their attempts are kept this long; 0 keeps them for good. */
    callbackDays: number;
    /** CASHIER_RETENTION_EVENT_DAYS: final transactions' status history is kept this long; 0 (the default) keeps it for good. */
    eventDays: number;
    /** CASHIER_RETENTION_SESSION_DAYS: ended or expired console and hosted Cashier sessions are kept this long after their end; 0 keeps them for good. */
    sessionDays: number;
    /** CASHIER_RETENTION_SIGN_IN_HOURS: unfinished sign-ins and enrolment tokens are kept this long after their expiry; 0 keeps them for good. */
    signInHours: number;
    /** CASHIER_RETENTION_BATCH: rows of each table one purge step reads at most. */
    batch: number;
    /** One purge step this often: with batch, the bound on the delete rate. */
    everyMs: number;
  };
}

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

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** The defaults; each one's reason is in docs/schedule.md. */
export const DEFAULT_SCHEDULE_SETTINGS: ScheduleSettings = {
  workers: { pollMs: 500, drainMs: 2 * SECOND },
  wakeUp: { connectTimeoutMs: 5 * SECOND, reconnectMinMs: 500, reconnectMaxMs: 30 * SECOND },
  callbacks: {
    timeoutMs: 10 * SECOND,
    leaseMarginMs: 30 * SECOND,
    retrySeconds: DEFAULT_RETRY_SECONDS,
    rfdResendSeconds: 300,
    rfdMaxAttempts: DEFAULT_RFD_MAX_ATTEMPTS,
  },
  validation: { timeoutMs: 5 * SECOND },
  processor: { timeoutMs: 20 * SECOND },
  followUp: { leaseMarginMs: 10 * SECOND },
  pendingPoll: { minMs: 1 * SECOND, maxMs: 5 * MINUTE, ageDivisor: 10 },
  challenge: { ttlSeconds: 900, answerClaimMs: 60 * SECOND },
  recovery: { afterMs: 2 * MINUTE, sweepEveryMs: 10 * SECOND, noRecordAfterMs: 10 * MINUTE },
  retention: { callbackDays: 90, eventDays: 0, sessionDays: 30, signInHours: 24, batch: 1000, everyMs: 10 * SECOND },
};

export const defaultSchedule: Schedule = buildSchedule(DEFAULT_SCHEDULE_SETTINGS);

/** The CASHIER_* settings that set the schedule, as engine/config.ts reads them (its Config has them all). */
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
