/**
 * "Check now" as data: every state of every type is either a step the
 * follow-up takes early or a refusal naming its cause (the status, the
 * operator's decision, the customer's challenge, a processor that cannot be
 * asked).
 */
import t from "tap";
import { type CheckedAttempt, checkVerdict } from "../../../../../engine/payments/domain/check-now.ts";
import { statesOf } from "../../../../../engine/payments/domain/transitions.ts";
import type { PayoutLetter, TransactionStatus, TransactionType } from "../../../../../engine/shared/transaction.ts";

const NOW = new Date("2026-11-25T12:00:00Z");
const LATER = new Date(NOW.getTime() + 60_000);
const EARLIER = new Date(NOW.getTime() - 60_000);

const attempt = (over: Partial<CheckedAttempt>): CheckedAttempt => ({
  traceId: 42,
  type: "sale",
  status: "pending",
  payoutLetter: null,
  processor: "sim-a",
  submitted: true,
  transactionId: "sim-a-p1",
  challengeExpiresAt: null,
  completingUntil: null,
  ...over,
});

t.test("every state of every type: final states and a payout in requested are refused, naming the status", async (t) => {
  const expected: Record<TransactionType, Record<string, string>> = {
    sale: {
      pending: "look-up",
      approved: "final",
      declined: "final",
      declined_retry: "final",
      cancelled: "final",
      pending_async: "challenge open",
    },
    refund: { pending: "look-up", approved: "final", declined: "final" },
    payout: {
      requested: "decision",
      "pending:A": "resume-payout",
      "pending:P": "look-up",
      "approved:Y": "final",
      "declined:J": "final",
      "cancelled:C": "final",
    },
  };
  for (const type of ["sale", "refund", "payout"] as const) {
    t.same(statesOf(type).sort(), Object.keys(expected[type]).sort(), `${type}: every state is in the table`);
    for (const key of statesOf(type)) {
      const [status, letter] = key.split(":") as [TransactionStatus, PayoutLetter | undefined];
      const v = checkVerdict(attempt({ type, status, payoutLetter: letter ?? null, challengeExpiresAt: status === "pending_async" ? LATER : null }), NOW, true);
      const want = expected[type][key];
      if (want === "final") {
        t.match(
          v,
          { ok: false, reason: "INVALID_STATE", message: new RegExp(`^transaction 42 is ${status}${letter ? ` \\(${letter}\\)` : ""}, a final status`) },
          `${type} ${key}`,
        );
      } else if (want === "decision") {
        t.match(v, { ok: false, reason: "INVALID_STATE", message: /is requested: the payout waits for an operator's decision/ }, `${type} ${key}`);
      } else if (want === "challenge open") {
        t.match(
          v,
          { ok: false, reason: "INVALID_STATE", message: /challenge is open until 2026-11-25T12:01:00.000Z and waits for the customer/ },
          `${type} ${key}`,
        );
      } else {
        t.same(v, { ok: true, step: want }, `${type} ${key}`);
      }
    }
  }
});

t.test("pending: a cascade attempt not yet sent is sent; a processor that cannot be asked is named", async (t) => {
  t.same(checkVerdict(attempt({ submitted: false }), NOW, true), { ok: true, step: "send" });
  t.same(checkVerdict(attempt({ submitted: false }), NOW, false), { ok: true, step: "send" }, "sending needs no lookup");
  t.match(checkVerdict(attempt({ processor: "acme" }), NOW, false), {
    ok: false,
    reason: "CAPABILITY_MISSING",
    message: /processor acme, which cannot be asked for a status/,
  });
  t.same(checkVerdict(attempt({ type: "payout", payoutLetter: "A" }), NOW, false), { ok: true, step: "resume-payout" });
});

t.test("pending_async: an expired challenge expires, a lost answer is recovered, an answer in flight is left alone", async (t) => {
  const async_ = (over: Partial<CheckedAttempt>) => attempt({ status: "pending_async", challengeExpiresAt: LATER, ...over });
  t.same(checkVerdict(async_({ challengeExpiresAt: EARLIER }), NOW, true), { ok: true, step: "expire-challenge" });
  t.same(checkVerdict(async_({ completingUntil: EARLIER }), NOW, true), { ok: true, step: "recover-answer" });
  t.match(checkVerdict(async_({ completingUntil: EARLIER }), NOW, false), { ok: false, reason: "CAPABILITY_MISSING" });
  t.match(checkVerdict(async_({ completingUntil: LATER }), NOW, true), { ok: false, message: /answer is being sent to the processor now/ });
});
