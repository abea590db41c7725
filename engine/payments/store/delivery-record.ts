/**
 * A delivery's record, hand-written as the hot path's writes are
 * (hot-statements.ts): the attempt kept and the callback moved on in one
 * statement, committed with whatever other writes leave at the same moment
 * (write-batch.ts). A fast platform is sent thousands of callbacks a second;
 * each delivery's own commit was most of what one cost Postgres, and the
 * deliveries that finish together now share one.
 *
 * The callback moves only while the claim is still this worker's: a lost
 * claim (the lease ran out and another worker took it) keeps the attempt only.
 */
import type { AttemptOutcome, CallbackState } from "../../shared/callbacks.ts";
import { preparedStatement } from "../../store/prepared-statement.ts";

export type RecordDeliveryParams = {
  callbackId: number;
  claim: string;
  durationMs: number;
  httpStatus: number;
  responseBody: string;
  outcome: AttemptOutcome;
  error: string;
  state: CallbackState;
  /** When to try again, in ms from now; null keeps next_attempt_at (a final state). */
  retryMs: number | null;
};

export const RECORD_DELIVERY = preparedStatement<RecordDeliveryParams, { id: number }>(
  "cashier-record-delivery",
  { callbackId: true, claim: true, durationMs: true, httpStatus: true, responseBody: true, outcome: true, error: true, state: true, retryMs: true },
  (p) => `with a as (
    insert into callback_attempt (callback_id, at, duration_ms, http_status, response_body, outcome, error)
    values (${p.callbackId}::bigint, now() - make_interval(secs => ${p.durationMs}::int / 1000.0), ${p.durationMs}::int,
      ${p.httpStatus}::int, ${p.responseBody}::text, ${p.outcome}::text, ${p.error}::text))
  update callback set state = ${p.state}::text, claim = null, updated_at = now(),
    next_attempt_at = case when ${p.retryMs}::bigint is null then next_attempt_at
                           else now() + make_interval(secs => ${p.retryMs}::bigint / 1000.0) end
  where id = ${p.callbackId}::bigint and claim = ${p.claim}::uuid
  returning id`,
  (p) => `callback:${p.callbackId}`,
);
