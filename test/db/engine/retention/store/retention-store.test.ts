/**
 * The retention purge of callbacks over a real Postgres, on transactions made
 * by the Process use case: old settled callbacks go (with their attempts kept
 * past their month), what is young or may still change stays, a step reads at
 * most its batch and resumes after its watermark, and two engines stepping at
 * once delete each row once. The monthly tables' retention is
 * partition-retention.test.ts's.
 */
import t from "tap";
import { processTransaction } from "../../../../../engine/payments/app/process-transaction.ts";
import { PgRetentionStore } from "../../../../../engine/retention/store/retention-store.ts";
import { aProcessInput } from "../../../../support/builders.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const engine = useEngineDeps(t);
const DAYS_90 = 90 * 86400;

t.before(async () => {
  await engine().merchants.upsert({
    merchantId: "m-ret",
    secret: "retention-secret-0123456789",
    frontends: [{ name: "ret-usd", baseCurrency: "USD" }],
  });
});

let n = 0;
async function sale(card: string): Promise<number> {
  n += 1;
  const input = aProcessInput({ merchantId: "m-ret", orderId: `ret-${process.pid}-${n}`, frontend: "ret-usd", card: { number: card } });
  const r = await processTransaction(engine().deps, input, undefined);
  if (!r.ok) throw new Error(r.error.message);
  return r.attempt.traceId;
}

t.test("callbacks: a step reads at most its batch, deletes old settled ones with their attempts, and resumes after its watermark", async (t) => {
  const { sql } = engine();
  const traceId = await sale("4111111111111111");
  // Five callbacks in id order: old delivered, old pending, old failed, young delivered, old delivered.
  const plan: [string, number][] = [
    ["delivered", 100],
    ["pending", 100],
    ["failed", 100],
    ["delivered", 1],
    ["delivered", 100],
  ];
  const ids: number[] = [];
  for (const [state, days] of plan) {
    const [c] = await sql<{ id: number }>(
      `insert into callback (event_id, kind, merchant_id, trace_id, url, body, state, updated_at)
       values (gen_random_uuid(), 'notification', 'm-ret', ?, 'http://127.0.0.1:1/n', '{}', ?, now() - make_interval(days => ?)) returning id::int as id`,
      [traceId, state, days],
    );
    // An old callback's attempt is older than any month this database has: it is in the default partition, where
    // attempts kept past their month are, and goes with its callback.
    await sql("insert into callback_attempt (callback_id, at, duration_ms, outcome) values (?, now() - make_interval(days => ?), 5, 'delivered')", [
      c.id,
      days === 1 ? 0 : 200,
    ]);
    ids.push(c.id);
  }
  const [, c2, c3, c4, c5] = ids;
  const left = async () => (await sql<{ id: number }>("select id::int as id from callback where id in (?) order by id", [ids])).map((r) => r.id);
  const attemptsLeft = async () => (await sql<{ n: number }>("select count(*)::int as n from callback_attempt where callback_id in (?)", [ids]))[0].n;

  const store = new PgRetentionStore(engine().orm);
  t.equal(await store.purge("callback", DAYS_90, 2), 1, "step 1 reads two: deletes the delivered one, keeps the pending one");
  t.strictSame(await left(), [c2, c3, c4, c5]);
  t.equal(await store.purge("callback", DAYS_90, 2), 1, "step 2 reads the next two: deletes the failed one, stops at the young one");
  t.strictSame(await left(), [c2, c4, c5]);
  t.equal(await store.purge("callback", DAYS_90, 2), 0, "step 3 starts at the young one: nothing, the old one after it waits");
  t.strictSame(await left(), [c2, c4, c5]);
  t.equal(await attemptsLeft(), 3, "the deleted callbacks' attempts (past their month) went with them, the others' stayed");

  await sql("update callback set updated_at = now() - interval '100 days' where id = ?", [c4]);
  t.equal(await store.purge("callback", DAYS_90, 10), 2, "once the young one ages, it and the one after it go; the pending one stays");
  t.strictSame(await left(), [c2]);
});

t.test("two engines stepping at once delete each row once", async (t) => {
  const { sql } = engine();
  const traceId = await sale("4111111111111111");
  const inserted = await sql<{ id: number }>(
    `insert into callback (event_id, kind, merchant_id, trace_id, url, body, state, updated_at)
     select gen_random_uuid(), 'notification', 'm-ret', ?, 'http://127.0.0.1:1/n', '{}', 'delivered', now() - interval '100 days'
     from generate_series(1, 40) returning id::int as id`,
    [traceId],
  );
  const a = new PgRetentionStore(engine().orm);
  const b = new PgRetentionStore(engine().orm);
  let deleted = 0;
  for (let i = 0; i < 10; i++) {
    const [x, y] = await Promise.all([a.purge("callback", DAYS_90, 5), b.purge("callback", DAYS_90, 5)]);
    deleted += x + y;
  }
  const remaining = (await sql<{ n: number }>("select count(*)::int as n from callback where id in (?)", [inserted.map((r) => r.id)]))[0].n;
  t.equal(remaining, 0, "all 40 are gone");
  t.equal(deleted, 40, "and the steps counted 40 deletions between them, none twice");
});
