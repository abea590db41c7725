/**
 * The monthly tables (migration 022) over a real Postgres: the upkeep makes
 * the months ahead and a row of a month nobody made still goes in (to the
 * default partition, then into its month once made); retention drops whole
 * months older than the period, keeping the rows that may still change (a
 * transaction not final, a callback pending or changed within the period) and
 * every young row; an acquirer's event is kept once across months, until its
 * month and key are gone.
 */
import t from "tap";
import { processTransaction } from "../../../../../engine/payments/app/process-transaction.ts";
import { PgWebhookInbox } from "../../../../../engine/payments/store/webhook-inbox-store.ts";
import { PgRetentionStore } from "../../../../../engine/retention/store/retention-store.ts";
import { partitionMaintenance } from "../../../../../engine/retention/app/partition-maintenance.ts";
import { aProcessInput } from "../../../../support/builders.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const engine = useEngineDeps(t);
const DAYS_90 = 90 * 86400;
const TABLES = ["transaction_event", "callback_attempt", "acquirer_webhook_event"] as const;

t.before(async () => {
  await engine().merchants.upsert({
    merchantId: "m-part",
    secret: "partition-secret-0123456789",
    frontends: [{ name: "part-usd", baseCurrency: "USD" }],
  });
  // Months back to a year ago, as a database a year old has them (the migration made them from its oldest row).
  for (const table of TABLES) await engine().sql(`select cashier_partitions_create(?, now() - interval '12 months', now())`, [table]);
});

let n = 0;
async function sale(card: string): Promise<number> {
  n += 1;
  const input = aProcessInput({ merchantId: "m-part", orderId: `part-${process.pid}-${n}`, frontend: "part-usd", card: { number: card } });
  const r = await processTransaction(engine().deps, input, undefined);
  if (!r.ok) throw new Error(r.error.message);
  return r.attempt.traceId;
}

/** The months (YYYY_MM) `table` has as partitions, in order. */
async function monthsOf(table: string): Promise<string[]> {
  const rows = await engine().sql<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ?::regclass order by 1`,
    [table],
  );
  return rows.map((r) => r.name.slice(table.length + 1)).filter((m) => m !== "default");
}

/** YYYY_MM of the UTC month `offset` months from the database's current one. */
async function month(offset: number): Promise<string> {
  const [r] = await engine().sql<{ m: string }>(`select to_char(date_trunc('month', now() at time zone 'UTC') + make_interval(months => ?), 'YYYY_MM') as m`, [
    offset,
  ]);
  return r.m;
}

/** Where each row of `table` with these ids is: its partition's name. */
async function placeOf(table: string, column: string, ids: number[]): Promise<string[]> {
  const rows = await engine().sql<{ place: string }>(`select tableoid::regclass::text as place from ${table} where ${column} in (?) order by id`, [ids]);
  return rows.map((r) => r.place);
}

t.test("the upkeep makes every monthly table's months through three ahead, once", async (t) => {
  const store = new PgRetentionStore(engine().orm);
  const ahead = [await month(0), await month(1), await month(2), await month(3)];
  await engine().sql(`drop table transaction_event_${ahead[3]}`);
  t.notOk((await monthsOf("transaction_event")).includes(ahead[3]), "a month three ahead is missing");
  t.equal(await store.makeMonths("transaction_event", 3), 1, "the upkeep makes the one month missing");
  for (const table of TABLES) {
    const months = await monthsOf(table);
    t.ok(
      ahead.every((m) => months.includes(m)),
      `${table} has ${ahead.join(", ")}`,
    );
    t.equal(await store.makeMonths(table, 3), 0, `${table}: a second run makes none`);
  }
});

t.test("a row of a month nobody made still goes in, and into its month once that is made", async (t) => {
  const traceId = await sale("4111111111111111");
  const [row] = await engine().sql<{ id: number }>(
    `insert into transaction_event (trace_id, from_status, to_status, cause, at) values (?, 'approved', 'approved', 'test:far-future', '2099-06-15T12:00:00Z') returning id::int as id`,
    [traceId],
  );
  t.strictSame(await placeOf("transaction_event", "id", [row.id]), ["transaction_event_default"], "kept by the default partition");
  await engine().sql(`select cashier_partitions_create('transaction_event', '2099-06-01T00:00:00Z', '2099-06-01T00:00:00Z')`);
  t.strictSame(await placeOf("transaction_event", "id", [row.id]), ["transaction_event_2099_06"], "moved into June 2099 when it was made");
  const [{ count }] = await engine().sql<{ count: number }>(`select count(*)::int as count from transaction_event where cause = 'test:far-future'`);
  t.equal(count, 1, "once");
  await engine().sql(`delete from transaction_event where id = ?`, [row.id]);
  await engine().sql(`drop table transaction_event_2099_06`);
});

t.test("status history: months past the period go whole; a transaction not final keeps its history, young months stay", async (t) => {
  const { sql } = engine();
  const approvedOld = await sale("4111111111111111");
  const declinedOld = await sale("4000000000000002");
  const pendingOld = await sale("4000000000000077");
  const approvedYoung = await sale("5555555555554444");
  t.equal((await engine().deps.orders.get(pendingOld))?.status, "pending", "the pending card's sale is still pending");
  // Moved to a month that ended over 90 days ago (an update of the partition key moves the row to that month).
  await sql("update transaction_event set at = now() - interval '200 days' where trace_id in (?)", [[approvedOld, declinedOld, pendingOld]]);
  const events = async (traceId: number) => (await sql<{ n: number }>("select count(*)::int as n from transaction_event where trace_id = ?", [traceId]))[0].n;
  const before = [await events(approvedOld), await events(declinedOld), await events(pendingOld), await events(approvedYoung)];
  t.ok(
    before.every((c) => c > 0),
    `every sale has history (${before.join(", ")})`,
  );
  const [{ m: oldMonth }] = await sql<{ m: string }>(`select to_char((now() - interval '200 days') at time zone 'UTC', 'YYYY_MM') as m`);

  const store = new PgRetentionStore(engine().orm);
  const dropped = await store.dropMonths("transaction_event", DAYS_90);
  const theMonth = dropped.find((d) => d.month === oldMonth);
  t.strictSame(theMonth, { table: "transaction_event", month: oldMonth, kept: before[2] }, "the old month is dropped, the pending sale's rows kept");
  const [{ m: cutMonth }] = await sql<{ m: string }>(`select to_char((now() - interval '90 days') at time zone 'UTC', 'YYYY_MM') as m`);
  t.ok(
    dropped.every((d) => d.month < cutMonth),
    `only months before ${cutMonth}, the month 90 days ago, are dropped (${dropped.map((d) => d.month).join(", ")})`,
  );
  t.notOk((await monthsOf("transaction_event")).includes(oldMonth), "its partition is gone");
  t.equal(await events(approvedOld), 0, "approved, 200 days old: history gone");
  t.equal(await events(declinedOld), 0, "declined, 200 days old: history gone");
  t.equal(await events(pendingOld), before[2], "still pending: its history is kept, however old");
  t.strictSame([...new Set(await placeOf("transaction_event", "trace_id", [pendingOld]))], ["transaction_event_default"], "in the default partition");
  t.equal(await events(approvedYoung), before[3], "young: kept");
  t.equal((await engine().deps.orders.get(approvedOld))?.status, "approved", "the transaction itself is never deleted");
  const months = await monthsOf("transaction_event");
  t.ok(months.includes(await month(-2)) && months.includes(await month(0)), "the months inside the period stay");
  t.strictSame(await store.dropMonths("transaction_event", DAYS_90), [], "a second run drops nothing");
  const [{ left }] = await sql<{ left: number }>(`select count(*)::int as left from pg_class where relname like 'transaction_event_%_retired'`);
  t.equal(left, 0, "no detached month is left behind");
});

t.test("callback attempts: old months go; a pending callback's, or one changed within the period, are kept until it goes", async (t) => {
  const { sql } = engine();
  const traceId = await sale("4111111111111111");
  // Three callbacks, each with one attempt 200 days old: settled long ago, pending, settled 10 days ago.
  const plan: [string, number][] = [
    ["delivered", 200],
    ["pending", 200],
    ["delivered", 10],
  ];
  const ids: number[] = [];
  for (const [state, days] of plan) {
    const [c] = await sql<{ id: number }>(
      `insert into callback (event_id, kind, merchant_id, trace_id, url, body, state, updated_at)
       values (gen_random_uuid(), 'notification', 'm-part', ?, 'http://127.0.0.1:1/n', '{}', ?, now() - make_interval(days => ?)) returning id::int as id`,
      [traceId, state, days],
    );
    await sql("insert into callback_attempt (callback_id, at, duration_ms, outcome) values (?, now() - interval '200 days', 5, 'retry')", [c.id]);
    ids.push(c.id);
  }
  const attemptsOf = async (id: number) => (await sql<{ n: number }>("select count(*)::int as n from callback_attempt where callback_id = ?", [id]))[0].n;

  const store = new PgRetentionStore(engine().orm);
  const dropped = await store.dropMonths("callback_attempt", DAYS_90);
  const [{ m: oldMonth }] = await sql<{ m: string }>(`select to_char((now() - interval '200 days') at time zone 'UTC', 'YYYY_MM') as m`);
  t.match(
    dropped.find((d) => d.month === oldMonth),
    { kept: 2 },
    "the old month is dropped, two attempts kept",
  );
  t.strictSame([await attemptsOf(ids[0]), await attemptsOf(ids[1]), await attemptsOf(ids[2])], [0, 1, 1], "the settled one's attempt went; the others stay");

  // The callback changed 10 days ago ages past the period: the callback purge takes it and its kept attempt.
  await sql("update callback set updated_at = now() - interval '100 days' where id = ?", [ids[2]]);
  while ((await store.purge("callback", DAYS_90, 1000)) > 0);
  t.equal(await attemptsOf(ids[2]), 0, "its attempt went with it");
  t.equal(await attemptsOf(ids[1]), 1, "the pending one's stays");
});

t.test("acquirer webhooks: an event is kept once across months; its month goes whole, then its key", async (t) => {
  const { sql, orm } = engine();
  const inbox = new PgWebhookInbox(orm);
  const entry = (eventId: string) => ({
    merchantId: "m-part",
    account: "adyen-eu",
    eventId,
    eventType: "AUTHORISATION",
    body: Buffer.from('{"notificationItems":[]}'),
    traceId: null,
    outcome: "kept",
    appliedAt: null,
  });
  const oldId = `evt-old-${process.pid}`;
  const youngId = `evt-young-${process.pid}`;
  t.equal(await inbox.record(entry(oldId)), true, "kept");
  t.equal(await inbox.record(entry(youngId)), true, "kept");
  t.equal(await inbox.record(entry(youngId)), false, "a replay in the same month writes nothing");
  // The first copy came 200 days ago: its row in that month, its key with it.
  await sql("update acquirer_webhook_event set received_at = now() - interval '200 days' where event_id = ?", [oldId]);
  await sql("update acquirer_webhook_event_key set received_at = now() - interval '200 days' where event_id = ?", [oldId]);
  t.equal(await inbox.record(entry(oldId)), false, "a replay months later writes nothing either");
  t.equal(await inbox.has("m-part", "adyen-eu", oldId), true, "and it is known as kept");
  const count = async (id: string) => (await sql<{ n: number }>("select count(*)::int as n from acquirer_webhook_event where event_id = ?", [id]))[0].n;
  t.equal(await count(oldId), 1, "one row for it");

  // Two copies at once: one row.
  const both = await Promise.all([inbox.record(entry(`evt-race-${process.pid}`)), inbox.record(entry(`evt-race-${process.pid}`))]);
  t.strictSame(both.sort(), [false, true], "two copies at the same moment: one kept");

  const store = new PgRetentionStore(orm);
  await store.dropMonths("acquirer_webhook_event", DAYS_90);
  t.equal(await count(oldId), 0, "the old month is dropped with the event's raw body");
  t.equal(await count(youngId), 1, "the young event stays");
  t.equal(await inbox.has("m-part", "adyen-eu", oldId), true, "its key stays until the key purge");
  t.equal(await store.purge("acquirer_webhook_event_key", DAYS_90, 1000), 1, "the key purge takes the old key only");
  t.equal(await inbox.has("m-part", "adyen-eu", youngId), true, "the young key stays");
  t.equal(await inbox.record(entry(oldId)), true, "a replay after both are gone is kept as new");
});

t.test("the worker's upkeep runs at once, then not again the same day", async (t) => {
  const store = new PgRetentionStore(engine().orm);
  for (const table of TABLES) await engine().sql(`select cashier_partitions_create(?, now() - interval '12 months', now())`, [table]);
  const r = { callbackDays: 90, eventDays: 0, webhookDays: 90, sessionDays: 30, signInHours: 24, batch: 1000, everyMs: 10_000 };
  const upkeep = partitionMaintenance(store, r);
  const first = await upkeep.step(Date.now());
  t.ok(first, "the first step runs it");
  t.equal(await upkeep.step(Date.now() + 60_000), undefined, "a minute later: not due");
  t.ok(await upkeep.step(Date.now() + 25 * 3_600_000), "a day later: due again");
  t.ok((await monthsOf("transaction_event")).includes(await month(-11)), "the history, kept for good (0 days), keeps its old months");
  t.notOk((await monthsOf("callback_attempt")).includes(await month(-11)), "the callbacks' attempts (90 days) lose theirs");
});
