/**
 * The retention purge's plan, row by row: it stops at the first row still in
 * its retention period, deletes the settled rows before it and passes over the
 * unsettled ones, which are kept.
 */
import t from "tap";
import { planPurge, type RetentionRow } from "../../../../../engine/retention/domain/retention.ts";
import { retentionPeriods, sessionPeriods } from "../../../../../engine/retention/app/retention.ts";
import { monthlyPeriods, nextRunAt } from "../../../../../engine/retention/app/partition-maintenance.ts";

const row = (id: number, old: boolean, settled: boolean): RetentionRow => ({ id, old, settled });

const CASES: [string, RetentionRow[], number[], number | null][] = [
  ["nothing read", [], [], null],
  ["all old and settled", [row(1, true, true), row(2, true, true)], [1, 2], 2],
  ["stops at the first young row", [row(1, true, true), row(2, false, true), row(3, true, true)], [1], 1],
  ["a young first row decides nothing", [row(5, false, true), row(6, true, true)], [], null],
  ["an unsettled old row is kept and passed over", [row(1, true, false), row(2, true, true)], [2], 2],
  ["only unsettled old rows: none deleted, the watermark moves", [row(3, true, false), row(4, true, false)], [], 4],
  ["gaps in ids are fine", [row(10, true, true), row(40, true, true), row(41, false, false)], [10, 40], 40],
];

for (const [name, rows, doomed, watermark] of CASES) {
  t.test(name, async (t) => {
    t.strictSame(planPurge(rows), { doomed, watermark });
  });
}

t.test("a retention of 0 days leaves that table alone", async (t) => {
  const base = { batch: 10, everyMs: 1000, sessionDays: 0, signInHours: 0, webhookDays: 0 };
  t.strictSame(retentionPeriods({ ...base, callbackDays: 90, eventDays: 0 }), [["callback", 90 * 86400]]);
  t.strictSame(retentionPeriods({ ...base, callbackDays: 0, eventDays: 0 }), []);
  t.strictSame(retentionPeriods({ ...base, callbackDays: 1, eventDays: 2555 }), [["callback", 86400]], "the history goes by month, not row by row");
  t.strictSame(
    retentionPeriods({ ...base, callbackDays: 0, eventDays: 0, webhookDays: 90 }),
    [["acquirer_webhook_event_key", 90 * 86400]],
    "the webhook inbox's keys (its events go by month)",
  );
});

t.test("the monthly tables: every one has its months made; each goes after its own period, 0 for good", async (t) => {
  const base = { batch: 10, everyMs: 1000, sessionDays: 0, signInHours: 0 };
  t.strictSame(monthlyPeriods({ ...base, callbackDays: 90, eventDays: 0, webhookDays: 30 }), [
    ["transaction_event", 0],
    ["callback_attempt", 90 * 86400],
    ["acquirer_webhook_event", 30 * 86400],
  ]);
});

t.test("the partition upkeep runs daily, and an hour after a failed run", async (t) => {
  t.equal(nextRunAt(1_000, false), 1_000 + 86_400_000);
  t.equal(nextRunAt(1_000, true), 1_000 + 3_600_000);
});

t.test("sessions are kept their period after their end; 0 keeps them for good", async (t) => {
  const base = { batch: 10, everyMs: 1000, callbackDays: 0, eventDays: 0, webhookDays: 0 };
  t.strictSame(sessionPeriods({ ...base, sessionDays: 30, signInHours: 24 }), [
    ["console_session", 30 * 86_400_000],
    ["hosted_session", 30 * 86_400_000],
    ["console_sign_in", 86_400_000],
    ["enrolment_token", 86_400_000],
  ]);
  t.strictSame(sessionPeriods({ ...base, sessionDays: 0, signInHours: 2 }), [
    ["console_sign_in", 7_200_000],
    ["enrolment_token", 7_200_000],
  ]);
  t.strictSame(sessionPeriods({ ...base, sessionDays: 0, signInHours: 0 }), []);
});
