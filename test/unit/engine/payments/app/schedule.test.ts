/**
 * The schedule of the asynchronous life (engine/payments/app/schedule.ts) against its
 * documentation (docs/schedule.md): the table lists every value with its
 * default and its setting, derived values follow what they are made of, the
 * CASHIER_* settings keep their names and meanings, and every lease outlasts
 * the work it covers.
 */
import { DEFAULT_SCHEDULE_SETTINGS } from "../../../../../engine/shared/schedule-settings.ts";
import { readFileSync } from "node:fs";
import t from "tap";
import { buildSchedule, defaultSchedule, scheduleFromConfig } from "../../../../../engine/payments/app/schedule.ts";
import type { Schedule } from "../../../../../engine/payments/ports/schedule.ts";
import { loadConfig } from "../../../../../engine/shared/config/config.ts";
import { POOL_WAIT_MS, QUERY_TIMEOUT_MS } from "../../../../../engine/store/orm.ts";

interface DocRow {
  path: string;
  defaultText: string;
  setting: string;
}

const doc = readFileSync(new URL("../../../../../docs/schedule.md", import.meta.url), "utf8");
const rows: DocRow[] = doc
  .split("\n")
  .filter((l) => l.startsWith("| `"))
  .map((l) => {
    const [value, defaultText, setting] = l
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    return { path: value.replace(/`/g, ""), defaultText, setting };
  });

/** Every leaf of the schedule by its dotted path (a list is one leaf). */
function leaves(o: object, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(o)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) for (const [p, x] of leaves(v, path)) out.set(p, x);
    else out.set(path, v);
  }
  return out;
}

const at = (s: Schedule, path: string): unknown => leaves(s).get(path);

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 };

/** A duration as the docs write it ("500 ms", "2 min") in milliseconds. */
function durationMs(text: string): number {
  const m = /^(\d+(?:\.\d+)?) (ms|s|min|h)$/.exec(text.trim());
  if (!m) throw new Error(`not a duration: ${JSON.stringify(text)}`);
  return Number(m[1]) * UNIT_MS[m[2]];
}

/** The unit of a field, from its name: ...Ms, ...Seconds, else a plain number. */
const unitOf = (path: string): number => (path.endsWith("Ms") ? 1 : path.endsWith("Seconds") ? 1000 : 0);

/** The docs' default of a field, in the field's own unit. */
function documented(row: DocRow): unknown {
  const unit = unitOf(row.path);
  if (unit === 0) return Number(row.defaultText);
  const values = row.defaultText.split(",").map((x) => durationMs(x) / unit);
  return Array.isArray(at(defaultSchedule, row.path)) ? values : values[0];
}

t.test("docs/schedule.md lists every value of the schedule, once, with the default it has", async (t) => {
  const inCode = leaves(defaultSchedule);
  const inDoc = rows.map((r) => r.path);
  t.same([...inDoc].sort(), [...inCode.keys()].sort(), "the same values in the table and in the code");
  t.equal(new Set(inDoc).size, inDoc.length, "each value is one row");
  for (const row of rows) t.same(documented(row), inCode.get(row.path), `${row.path}: ${row.defaultText}`);
});

t.test("a derived value is the sum of the values its row names, and is not settable", async (t) => {
  const derived = rows.filter((r) => r.setting.startsWith("*derived*"));
  t.ok(derived.length >= 5, `${derived.length} derived values`);
  for (const row of derived) {
    const parts = [...row.setting.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    t.ok(parts.length > 0, `${row.path} names what it is made of`);
    const sumMs = parts.reduce((sum, p) => sum + Number(at(defaultSchedule, p)) * unitOf(p), 0);
    t.equal(Number(at(defaultSchedule, row.path)) * unitOf(row.path), sumMs, `${row.path} = ${parts.join(" + ")}`);
    t.notOk(leaves(DEFAULT_SCHEDULE_SETTINGS).has(row.path), `${row.path} is not a setting`);
  }
});

t.test("derived values follow their parts when those are set otherwise", async (t) => {
  const d = DEFAULT_SCHEDULE_SETTINGS;
  const s = buildSchedule({
    ...d,
    callbacks: { ...d.callbacks, timeoutMs: 800, leaseMarginMs: 1000 },
    processor: { timeoutMs: 7000 },
    followUp: { leaseMarginMs: 500 },
    recovery: { ...d.recovery, afterMs: 90_500 },
  });
  t.equal(s.callbacks.leaseMs, 1800, "a callback's lease: its timeout plus the margin");
  t.equal(s.followUp.leaseMs, 7500, "a follow-up's lease: one processor call plus the margin");
  t.equal(s.recovery.submitLeaseMs, 90_500, "a cascade submission is held for the recovery horizon");
  t.equal(s.recovery.pendingRecheckMs, 90_500, "a step that waits for nothing is looked at again after the recovery horizon");
  t.equal(s.recovery.sweepGraceSeconds, 91, "the sweep's grace is the horizon in whole seconds, never shorter");
});

t.test("the table's settings are the CASHIER_* variables, each setting the value of its row", async (t) => {
  const settable = rows.filter((r) => r.setting.startsWith("`CASHIER_"));
  t.same(settable.map((r) => r.setting.replace(/`/g, "")).sort(), [
    "CASHIER_CALLBACK_RETRY_SECONDS",
    "CASHIER_CALLBACK_TIMEOUT_MS",
    "CASHIER_CHALLENGE_TTL_SECONDS",
    "CASHIER_PROCESSOR_TIMEOUT_MS",
    "CASHIER_RETENTION_BATCH",
    "CASHIER_RETENTION_CALLBACK_DAYS",
    "CASHIER_RETENTION_EVENT_DAYS",
    "CASHIER_RETENTION_SESSION_DAYS",
    "CASHIER_RETENTION_SIGN_IN_HOURS",
    "CASHIER_RETENTION_WEBHOOK_DAYS",
    "CASHIER_RFD_MAX_ATTEMPTS",
    "CASHIER_RFD_RESEND_SECONDS",
    "CASHIER_VALIDATION_TIMEOUT_MS",
    "CASHIER_WORKER_POLL_MS",
  ]);
  for (const row of settable) {
    const name = row.setting.replace(/`/g, "");
    const list = Array.isArray(at(defaultSchedule, row.path));
    const set = scheduleFromConfig(loadConfig({ [name]: list ? "3,4,5" : "1234" }));
    t.same(at(set, row.path), list ? [3, 4, 5] : 1234, `${name} sets ${row.path}`);
  }
  t.equal(scheduleFromConfig(loadConfig({ CASHIER_CALLBACK_TIMEOUT_MS: "800" })).callbacks.leaseMs, 30_800, "and what is derived from it");
});

t.test("with no settings, the engine runs on the default schedule", async (t) => {
  t.same(scheduleFromConfig(loadConfig({})), defaultSchedule);
});

t.test("by default an attempt a dead engine left in its processor call is looked up within a minute of its start", async (t) => {
  const s = defaultSchedule;
  t.equal(s.recovery.lookupAfterMs, 35_000, "the lookup horizon: Validation 5 s + processor 20 s + 10 s");
  t.ok(s.recovery.lookupAfterMs + s.recovery.sweepEveryMs < 60_000, "the horizon plus one sweep interval is under a minute");
});

t.test("every lease outlasts the work it covers", async (t) => {
  const s = defaultSchedule;
  // One database round trip at worst: waiting for a pooled connection, then the query.
  const dbWait = POOL_WAIT_MS + QUERY_TIMEOUT_MS;
  t.ok(s.callbacks.leaseMarginMs >= 2 * dbWait, "a callback's margin covers the merchant lookup and the record");
  t.ok(s.callbacks.leaseMs > s.callbacks.timeoutMs, "a callback's lease outlasts its HTTP call");
  t.ok(s.followUp.leaseMs > s.processor.timeoutMs, "a follow-up's lease outlasts its processor call");
  t.ok(s.challenge.answerClaimMs > s.processor.timeoutMs, "a challenge answer's hold outlasts the processor call");
  t.ok(s.recovery.submitLeaseMs > s.processor.timeoutMs + dbWait, "a cascade submission's lease outlasts the charge and its record");
  t.ok(s.recovery.afterMs > s.validation.timeoutMs + s.processor.timeoutMs + 2 * dbWait, "no live Process is taken for a dead one");
  t.ok(s.recovery.noRecordAfterMs > s.recovery.afterMs, "'no record' is believed only well after the sweep found the attempt");
  t.ok(s.pendingPoll.minMs <= s.pendingPoll.maxMs && s.wakeUp.reconnectMinMs <= s.wakeUp.reconnectMaxMs, "each lower bound is below its upper bound");
});
