/**
 * Callbacks as the domain sees them: their kinds and states, and the pure
 * rules that judge a platform's reply and say when to try again. A table per
 * kind says how the reply acknowledges (CONTRACT section 6):
 * - a notification is delivered by HTTP 2xx with `status` 0; anything else is retried;
 * - UpdatePayout and RecordFailedDeposit are ended by a status of 0 (delivered)
 *   or above (refused: the platform heard it and said no), and retried on a
 *   negative status, an unparsable reply, no reply, or HTTP 5xx, 408 or 429.
 * Notifications and UpdatePayout retry on a growing schedule of at least 24
 * hours; RecordFailedDeposit every CASHIER_RFD_RESEND_SECONDS up to a limit.
 */
export type CallbackKind = "validation" | "notification" | "update_payout" | "record_failed_deposit";
export type CallbackState = "pending" | "delivered" | "refused" | "failed";
export type AttemptOutcome = "delivered" | "refused" | "retry" | "failed" | "refused-address";

/** What one HTTP attempt produced. */
export interface SendResult {
  /** 0 when no reply arrived. */
  httpStatus: number;
  body: string;
  /** Why no usable reply: timeout, connection refused, redirect...; "" otherwise. */
  error: string;
  /** The address was refused by the SSRF guard: nothing was sent. */
  refusedAddress: boolean;
  durationMs: number;
}

export interface RetryPolicy {
  /** Delays after each failed attempt of notifications and UpdatePayout; given up after the last. */
  retrySeconds: number[];
  rfdResendSeconds: number;
  rfdMaxAttempts: number;
}

/** 10 s, 30 s, 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h x 3: about 32 hours in all. */
export const DEFAULT_RETRY_SECONDS = [10, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 28800, 28800];
export const DEFAULT_RFD_MAX_ATTEMPTS = 48;

export interface Verdict {
  outcome: AttemptOutcome;
  state: CallbackState;
  error: string;
  /** Seconds until the next attempt, when the state stays pending. */
  retryInSeconds: number | null;
}

type Ack = { ok: true; status: number } | { ok: false; error: string };

function parseObject(body: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(body);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function statusMember(member: string, mustBe2xx: boolean) {
  return (r: SendResult): Ack => {
    if (r.error) return { ok: false, error: r.error };
    if (mustBe2xx && (r.httpStatus < 200 || r.httpStatus > 299)) return { ok: false, error: `HTTP ${r.httpStatus}` };
    // A server error page may carry a status member of its own (Spring's {"status":500}): never an answer.
    if (r.httpStatus >= 500 || r.httpStatus === 408 || r.httpStatus === 429) return { ok: false, error: `HTTP ${r.httpStatus}` };
    const body = parseObject(r.body);
    if (!body) return { ok: false, error: `HTTP ${r.httpStatus}: the reply is not a JSON object` };
    const status = body[member];
    if (typeof status !== "number" || !Number.isInteger(status)) return { ok: false, error: `HTTP ${r.httpStatus}: the reply has no integer ${member}` };
    return { ok: true, status };
  };
}

const RULES: Record<Exclude<CallbackKind, "validation">, { ack: (r: SendResult) => Ack; positiveEnds: boolean; schedule: "growing" | "rfd" }> = {
  notification: { ack: statusMember("status", true), positiveEnds: false, schedule: "growing" },
  update_payout: { ack: statusMember("status", false), positiveEnds: true, schedule: "growing" },
  record_failed_deposit: { ack: statusMember("Status", false), positiveEnds: true, schedule: "rfd" },
};

/** Judges attempt number `attempt` (1 for the first) of a queued callback. */
export function judgeReply(kind: Exclude<CallbackKind, "validation">, r: SendResult, attempt: number, policy: RetryPolicy): Verdict {
  if (r.refusedAddress) return { outcome: "refused-address", state: "failed", error: r.error, retryInSeconds: null };
  const rule = RULES[kind];
  const ack = rule.ack(r);
  if (ack.ok && ack.status === 0) return { outcome: "delivered", state: "delivered", error: "", retryInSeconds: null };
  if (ack.ok && ack.status > 0 && rule.positiveEnds) return { outcome: "refused", state: "refused", error: `status ${ack.status}`, retryInSeconds: null };
  const error = ack.ok ? `status ${ack.status}` : ack.error;
  const delay = rule.schedule === "rfd" ? (attempt < policy.rfdMaxAttempts ? policy.rfdResendSeconds : null) : (policy.retrySeconds[attempt - 1] ?? null);
  if (delay === null) return { outcome: "failed", state: "failed", error, retryInSeconds: null };
  return { outcome: "retry", state: "pending", error, retryInSeconds: delay };
}
