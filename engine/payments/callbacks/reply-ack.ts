/**
 * Reading a platform's reply (CONTRACT section 6): which member carries the
 * status for each callback (RecordFailedDeposit's is `Status`, as seed 2.6
 * writes it), and which HTTP answers count. A notification needs HTTP 2xx; the
 * other two read the body, except after HTTP 5xx, 408 or 429, whose body is a
 * server's error page (Spring's {"status":500}), not the platform's answer.
 * A reply cut at the bound the sender reads (reply-bound.ts) is judged on what
 * was read: it acknowledges only when that already parses.
 */
import type { CallbackKind } from "../../shared/callbacks.ts";
import type { RetryPolicy } from "../../shared/schedule-settings.ts";
import { judgeAck, type Ack, type Verdict } from "../domain/callbacks.ts";
import { maskCardNumbers } from "../../shared/card.ts";
import { duplicateMember } from "../../shared/duplicate-member.ts";
import type { SendResult } from "../ports/callbacks.ts";
import { MAX_REPLY_BYTES } from "./reply-bound.ts";

type QueuedKind = Exclude<CallbackKind, "validation">;

const READ: Record<QueuedKind, { member: string; mustBe2xx: boolean }> = {
  notification: { member: "status", mustBe2xx: true },
  update_payout: { member: "status", mustBe2xx: false },
  record_failed_deposit: { member: "Status", mustBe2xx: false },
};

/** A reply body as a JSON object that names each member once, or why it is not one. */
export function parseJsonObject(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, error: "not JSON" };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return { ok: false, error: "not a JSON object" };
  // Two of one member: JSON.parse keeps the last, the platform's own reader may have meant the first.
  const twice = duplicateMember(text);
  // The name is the platform's text: a card number used as one is masked like the reply body beside it.
  if (twice !== undefined) return { ok: false, error: `a JSON object naming ${maskCardNumbers(twice.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 50))} twice` };
  return { ok: true, value: v as Record<string, unknown> };
}

/** Why a reply body is no JSON object, in the words a delivery record shows; a cut reply says so. */
export function unparsableReply(r: SendResult, error: string): string {
  const what = error === "not JSON" ? "not a JSON object" : error;
  return r.cut
    ? `the reply is over ${MAX_REPLY_BYTES / 1024} KiB (read no further) and its first ${MAX_REPLY_BYTES / 1024} KiB are ${what}`
    : `the reply is ${what}`;
}

export function readAck(kind: QueuedKind, r: SendResult): Ack {
  if (r.error) return { ok: false, error: r.error, refusedAddress: r.refusedAddress };
  const { member, mustBe2xx } = READ[kind];
  if (mustBe2xx && (r.httpStatus < 200 || r.httpStatus > 299)) return { ok: false, error: `HTTP ${r.httpStatus}` };
  if (r.httpStatus >= 500 || r.httpStatus === 408 || r.httpStatus === 429) return { ok: false, error: `HTTP ${r.httpStatus}` };
  const body = parseJsonObject(r.body);
  if (!body.ok) return { ok: false, error: `HTTP ${r.httpStatus}: ${unparsableReply(r, body.error)}` };
  const status = body.value[member];
  if (typeof status !== "number" || !Number.isInteger(status)) return { ok: false, error: `HTTP ${r.httpStatus}: the reply has no integer ${member}` };
  return { ok: true, status };
}

/** One attempt's reply -> what happens to the callback. */
export function judgeReply(kind: QueuedKind, r: SendResult, attempt: number, policy: RetryPolicy): Verdict {
  return judgeAck(kind, readAck(kind, r), attempt, policy);
}
