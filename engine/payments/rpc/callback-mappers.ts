/** Callbacks (store views) -> cashier.engine.v1.Callback, and the enums both ways. */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CallbackAttemptSchema, CallbackKind, CallbackSchema, CallbackState, type Callback } from "../../../gen/cashier/engine/v1/callback_pb.js";
import type { CallbackKind as Kind, CallbackState as State } from "../../shared/callbacks.ts";
import type { CallbackView } from "../ports/callbacks.ts";

const KINDS: Record<Kind, CallbackKind> = {
  validation: CallbackKind.VALIDATION,
  notification: CallbackKind.NOTIFICATION,
  update_payout: CallbackKind.UPDATE_PAYOUT,
  record_failed_deposit: CallbackKind.RECORD_FAILED_DEPOSIT,
};

const STATES: Record<State, CallbackState> = {
  pending: CallbackState.PENDING,
  delivered: CallbackState.DELIVERED,
  refused: CallbackState.REFUSED,
  failed: CallbackState.FAILED,
};

const invert = <K extends string, V>(m: Record<K, V>) => new Map<V, K>(Object.entries(m).map(([k, v]) => [v as V, k as K]));
const KIND_OF = invert(KINDS);
const STATE_OF = invert(STATES);

/** A stored kind's enum; UNSPECIFIED for a name the table does not hold. */
export const kindToProto = (k: string): CallbackKind => KINDS[k as Kind] ?? CallbackKind.UNSPECIFIED;

/** UNSPECIFIED -> undefined (no filter); an unknown number -> null (refused). */
export const kindFromProto = (k: CallbackKind): Kind | undefined | null => (k === CallbackKind.UNSPECIFIED ? undefined : (KIND_OF.get(k) ?? null));
export const stateFromProto = (s: CallbackState): State | undefined | null => (s === CallbackState.UNSPECIFIED ? undefined : (STATE_OF.get(s) ?? null));

export function callbackToProto(c: CallbackView): Callback {
  return create(CallbackSchema, {
    id: BigInt(c.id),
    eventId: c.eventId,
    kind: KINDS[c.kind],
    state: STATES[c.state],
    merchantId: c.merchantId,
    traceId: c.traceId,
    url: c.url,
    body: c.body,
    attemptCount: c.attemptCount,
    nextAttemptTime: c.state === "pending" ? timestampFromDate(c.nextAttemptAt) : undefined,
    createTime: timestampFromDate(c.createdAt),
    attempts: c.attempts.map((a) =>
      create(CallbackAttemptSchema, {
        time: timestampFromDate(a.at),
        durationMs: a.durationMs,
        httpStatus: a.httpStatus,
        responseBody: a.responseBody,
        outcome: a.outcome,
        error: a.error,
      }),
    ),
  });
}
