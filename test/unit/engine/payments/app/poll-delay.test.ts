/**
 * How soon the follow-up worker asks a processor again about a pending attempt
 * (README "States"): after 1 s, then a tenth of the attempt's age, at most
 * every 5 minutes.
 */
import t from "tap";
import type { Attempt } from "../../../../../engine/shared/transaction.ts";
import { pollDelayMs } from "../../../../../engine/payments/app/advance.ts";
import { defaultSchedule } from "../../../../../engine/payments/app/schedule.ts";
import { anAttempt } from "../../../../support/builders.ts";

const NOW = new Date("2026-11-18T10:00:00Z");

/** Only createdAt matters; the rest is the builder's pending sale. */
function createdAgo(ms: number): Attempt {
  const createdAt = new Date(NOW.getTime() - ms);
  return anAttempt({ status: "pending", createdAt, updatedAt: createdAt });
}

const S = 1000;
const MIN = 60 * S;

t.test("pollDelayMs: 1 s minimum, a tenth of the age, 5 min maximum", async (t) => {
  const rows: [name: string, ageMs: number, want: number][] = [
    ["just created", 0, 1 * S],
    ["1 s old", 1 * S, 1 * S],
    ["5 s old", 5 * S, 1 * S],
    ["10 s old: a tenth is exactly 1 s", 10 * S, 1 * S],
    ["11 s old", 11 * S, 1100],
    ["20 s old", 20 * S, 2 * S],
    ["1 min old", 1 * MIN, 6 * S],
    ["10 min old", 10 * MIN, 1 * MIN],
    ["49 min old", 49 * MIN, 294_000],
    ["50 min old: a tenth is exactly 5 min", 50 * MIN, 5 * MIN],
    ["51 min old", 51 * MIN, 5 * MIN],
    ["1 day old", 24 * 60 * MIN, 5 * MIN],
    ["30 days old", 30 * 24 * 60 * MIN, 5 * MIN],
    ["created in the future (clock skew)", -60 * S, 1 * S],
  ];
  for (const [name, age, want] of rows) t.equal(pollDelayMs(createdAgo(age), NOW, defaultSchedule.pendingPoll), want, `${name} -> ${want} ms`);
});

t.test("pollDelayMs: never below 1 s nor above 5 min, growing with the age", async (t) => {
  let previous = 0;
  for (let age = 0; age <= 2 * 3600 * S; age += 37 * S) {
    const d = pollDelayMs(createdAgo(age), NOW, defaultSchedule.pendingPoll);
    t.ok(d >= 1 * S && d <= 5 * MIN, `age ${age} ms -> ${d} ms within [1 s, 5 min]`);
    t.ok(d >= previous, `age ${age} ms: not shorter than for a younger attempt`);
    previous = d;
  }
});
