/**
 * Callbacks as the domain sees them: their kinds and states, and the pure
 * rules that turn a platform's acknowledgement into what happens next
 * (CONTRACT section 6). How an acknowledgement is read off a reply (member
 * names, HTTP status) is the callback codecs' business (engine/payments/callbacks/reply-ack.ts):
 * - status 0 delivers;
 * - a positive status ends UpdatePayout and RecordFailedDeposit as refused (the
 *   platform heard it and said no), and is retried for a notification;
 * - a negative status or no usable acknowledgement is retried.
 * Notifications and UpdatePayout retry on a growing schedule of at least 24
 * hours; RecordFailedDeposit every CASHIER_RFD_RESEND_SECONDS up to a limit.
 */
import type { RetryPolicy } from "../../shared/schedule-settings.ts";
import type { AttemptOutcome, CallbackKind, CallbackState } from "../../shared/callbacks.ts";

export interface Verdict {
  outcome: AttemptOutcome;
  state: CallbackState;
  error: string;
  /** Seconds until the next attempt, when the state stays pending. */
  retryInSeconds: number | null;
}

/**
 * What a platform's reply amounted to: a status it acknowledged with, or no
 * usable acknowledgement (with the reason); `refusedAddress` when nothing was
 * sent because the SSRF guard refused the address.
 */
export type Ack = { ok: true; status: number } | { ok: false; error: string; refusedAddress?: boolean };

type QueuedKind = Exclude<CallbackKind, "validation">;

const RULES: Record<QueuedKind, { positiveEnds: boolean; schedule: "growing" | "rfd" }> = {
  notification: { positiveEnds: false, schedule: "growing" },
  update_payout: { positiveEnds: true, schedule: "growing" },
  record_failed_deposit: { positiveEnds: true, schedule: "rfd" },
};

/** Judges attempt number `attempt` (1 for the first) of a queued callback. */
export function judgeAck(kind: QueuedKind, ack: Ack, attempt: number, policy: RetryPolicy): Verdict {
  if (!ack.ok && ack.refusedAddress) return { outcome: "refused-address", state: "failed", error: ack.error, retryInSeconds: null };
  const rule = RULES[kind];
  if (ack.ok && ack.status === 0) return { outcome: "delivered", state: "delivered", error: "", retryInSeconds: null };
  if (ack.ok && ack.status > 0 && rule.positiveEnds) return { outcome: "refused", state: "refused", error: `status ${ack.status}`, retryInSeconds: null };
  const error = ack.ok ? `status ${ack.status}` : ack.error;
  const delay = rule.schedule === "rfd" ? (attempt < policy.rfdMaxAttempts ? policy.rfdResendSeconds : null) : (policy.retrySeconds[attempt - 1] ?? null);
  if (delay === null) return { outcome: "failed", state: "failed", error, retryInSeconds: null };
  return { outcome: "retry", state: "pending", error, retryInSeconds: delay };
}
