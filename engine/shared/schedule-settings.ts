/**
 * What of the schedule can be set (ScheduleSettings), with the defaults: the
 * settings reader (config.ts) and the schedule (engine/payments/app/schedule.ts)
 * both start from here. Each default's reason is in docs/schedule.md.
 */

export interface RetryPolicy {
  /** Delays after each failed attempt of notifications and UpdatePayout; given up after the last. */
  retrySeconds: number[];
  rfdResendSeconds: number;
  rfdMaxAttempts: number;
}

/** 10 s, 30 s, 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h x 3: about 32 hours in all. */
export const DEFAULT_RETRY_SECONDS = [10, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 28800, 28800];
export const DEFAULT_RFD_MAX_ATTEMPTS = 48;

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
    /** CASHIER_RETENTION_WEBHOOK_DAYS: the acquirers' webhook events (their raw bodies) are kept this long after they came; 0 keeps them for good. */
    webhookDays: number;
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
  retention: { callbackDays: 90, eventDays: 0, webhookDays: 90, sessionDays: 30, signInHours: 24, batch: 1000, everyMs: 10 * SECOND },
};
