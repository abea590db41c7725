/**
 * A statement that waits past the serving pool's bound is cancelled by
 * Postgres itself (statement_timeout, engine/store/orm.ts) before the engine
 * answers 503: the platform, told to retry, finds no order taken behind its
 * back, and its retry is processed as new. Before, the client gave up at 10 s
 * while the statement went on waiting and committed once the lock was gone.
 */
import pg from "pg";
import t from "tap";
import { QUERY_TIMEOUT_MS, STATEMENT_TIMEOUT_MS } from "../../engine/store/orm.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const service = useService(t);

t.test("a sale held by a lock past the bound: 503, no order left behind, the retry processed", async (t) => {
  t.ok(STATEMENT_TIMEOUT_MS < QUERY_TIMEOUT_MS, "the server gives up before the client");
  t.equal((await processSale(service().edgeUrl)).http, 200, "the merchant is warm: the sale's first statement is its insert");
  // Another session keeps new orders out: its EXCLUSIVE lock conflicts with every INSERT's ROW EXCLUSIVE.
  const locker = new pg.Client({ connectionString: service().engine.databaseUrl });
  await locker.connect();
  t.teardown(() => locker.end().catch(() => {}));
  await locker.query("begin");
  await locker.query("lock table payment_order in exclusive mode");
  const oid = orderId("late");
  const started = performance.now();
  const held = processSale(service().edgeUrl, { order_id: oid });
  const answered = await held;
  const seconds = (performance.now() - started) / 1000;
  // The scenario, not a wait for an event: the lock outlives the client's own bound (by 1.5 s), so that a statement
  // still waiting would take it only after the platform was told to retry.
  const past = QUERY_TIMEOUT_MS + 1500 - (performance.now() - started);
  if (past > 0) await new Promise((r) => setTimeout(r, past));
  await locker.query("rollback");
  // A statement still waiting was granted the table at that rollback (Postgres grants the waiters as it releases) and
  // would now commit. A SHARE lock, which every INSERT's ROW EXCLUSIVE conflicts with, is granted to us only once such
  // a transaction has ended: after it, its row would be seen.
  await locker.query("begin");
  await locker.query("set local lock_timeout = '15s'");
  await locker.query("lock table payment_order in share mode");
  await locker.query("commit");
  t.equal(answered.http, 503, `503 after ${seconds.toFixed(1)} s: ${answered.text}`);
  t.equal(answered.body.status, -2, "a negative status: retry later");
  const rows = await service().sql<{ n: number }>("select count(*)::int as n from payment_order where order_id = $1", [oid]);
  t.equal(rows[0].n, 0, "no order was taken after the platform was told to retry");
  const retry = await processSale(service().edgeUrl, { order_id: oid });
  t.equal(retry.http, 200);
  t.equal(retry.body.transaction_status, "approved", "the retry is processed as a new order");
});
