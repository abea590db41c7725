/**
 * Scale-out: two engine processes and one edge on one Postgres serve a load
 * together. The edge spreads calls over both engines (ENGINE_URL lists them);
 * duplicate requests sent at the same moment to different engines still make
 * one order; both engines' workers deliver callbacks and follow pending
 * attempts, and no callback is sent twice (each event id arrives once, each
 * callback has exactly one attempt).
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import t from "tap";
import pg from "pg";
import { launch, platformWorld, stopProcess } from "../support/processes.ts";
import { orderId, processSale } from "../support/wire.ts";
import { until } from "../support/until.ts";

t.test("two engines, one edge, one database: no duplicate processing, no callback twice", async (t) => {
  const world = await platformWorld(t);
  const { stub, db } = world;
  const common = {
    ...world.env,
    CASHIER_MASTER_KEY: randomBytes(32).toString("hex"),
    CASHIER_EDGE_TOKEN: "edge-token-of-the-scale-out-test-0123456789",
    CASHIER_SERVICE_TOKENS: "ops-token-of-the-scale-out-test-0123456789",
  };
  // Both at once on an empty database, as `docker compose up --scale engine=2` starts them:
  // the startup lock makes one migrate while the other waits.
  // Each engine its own data dir: each starts its own acquirer simulator, whose ledger one simulator holds at a time.
  const [a, b] = await Promise.all([
    launch("engine/main.ts", common, "engine listening"),
    launch("engine/main.ts", { ...common, CASHIER_DATA_DIR: join(db.dir, "engine-b") }, "engine listening"),
  ]);
  t.teardown(() => stopProcess(a.child));
  t.teardown(() => stopProcess(b.child));
  // Alone, an engine cannot learn the edge's address: without CASHIER_PUBLIC_URL its start says so.
  const warned = await until(
    async () => /CASHIER_PUBLIC_URL is unset: the redirect_url links this engine hands out start with http:\/\/127\.0\.0\.1:0 /.test(a.out()),
    30_000,
  );
  t.ok(warned, "an engine alone without CASHIER_PUBLIC_URL warns that its links name its own EDGE_PORT");
  const engines = `http://127.0.0.1:${a.line.port},http://127.0.0.1:${b.line.port}`;
  const edge = await launch(
    "edge/main.ts",
    { EDGE_PORT: "0", EDGE_METRICS_PORT: "0", ENGINE_URL: engines, CASHIER_EDGE_TOKEN: "edge-token-of-the-scale-out-test-0123456789" },
    "edge listening",
  );
  t.teardown(() => stopProcess(edge.child));
  const url = `http://127.0.0.1:${edge.line.port}`;

  const cards = ["4111111111111111", "4000000000000002", "4000000000000077", "4000000000000119"];
  const orders: string[] = [];
  const replies = [];
  for (let round = 0; round < 10; round++) {
    const batch = cards.map((card) => ({ oid: orderId("scale"), card }));
    orders.push(...batch.map((x) => x.oid));
    // Each order twice at the same moment, through the edge's rotation: one copy per engine.
    replies.push(
      ...(await Promise.all(
        batch.flatMap(({ oid, card }) => {
          const body = { merchant_id: "m-plat-quiet", frontend: "quiet-usd", order_id: oid, card_number: card, notification_url: `${stub.url}/notify` };
          return [processSale(url, body), processSale(url, body)];
        }),
      )),
    );
  }
  t.ok(
    replies.every((r) => r.http === 200 && r.body.status === 0),
    "every request answered 200/0",
  );
  for (let i = 0; i < replies.length; i += 2)
    t.equal(replies[i].body.trace_id, replies[i + 1].body.trace_id, "both copies of an order answer the same trace_id");

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.teardown(() => client.end());
  const perOrder = (
    await client.query(
      `select o.order_id, count(t.*)::int as n from payment_order o join transaction t on t.order_ref = o.id where o.order_id = any($1) group by o.order_id`,
      [orders],
    )
  ).rows;
  t.equal(perOrder.length, orders.length, "one order per order_id");
  t.ok(
    perOrder.every((r) => r.n === 1),
    "one transaction per order: nothing processed twice",
  );

  // Callbacks: 10 RecordFailedDeposits for each failing card, 10 notifications for the pending card.
  await stub.waitFor("record_failed_deposit", () => true, { count: 20, timeoutMs: 20_000 });
  await stub.waitFor("notification", () => true, { count: 10, timeoutMs: 20_000 });
  // 20 RecordFailedDeposits and 10 notifications at least; a copy that answered an order
  // still pending also owes the platform that order's result (more notifications).
  let rows: { id: string; state: string; attempts: number }[] = [];
  await until(async () => {
    rows = (await client.query(`select c.id, c.state, (select count(*) from callback_attempt x where x.callback_id = c.id)::int as attempts from callback c`))
      .rows;
    return rows.length >= 30 && rows.every((r) => r.state === "delivered") && stub.received().length >= rows.length;
  }, 10_000);
  t.ok(rows.length >= 30, `${rows.length} callbacks owed`);
  t.ok(
    rows.every((r) => r.state === "delivered" && r.attempts === 1),
    "each delivered with exactly one attempt",
  );
  const events = stub.received().map((c) => c.eventId);
  t.equal(new Set(events).size, events.length, "no event id arrived twice");
  t.equal(events.length, rows.length, "one arrival per callback");

  const attemptsBy = (out: string) => out.split("\n").filter((l) => l.includes('"msg":"callback attempt"')).length;
  // The log line follows the recorded attempt; give the pipes a moment.
  await until(async () => attemptsBy(a.out()) + attemptsBy(b.out()) >= rows.length, 3000);
  t.ok(attemptsBy(a.out()) > 0 && attemptsBy(b.out()) > 0, `both engines delivered (${attemptsBy(a.out())} + ${attemptsBy(b.out())})`);
  t.equal(attemptsBy(a.out()) + attemptsBy(b.out()), rows.length, "and together exactly once each");

  // One engine goes away: the edge keeps serving through the other.
  await stopProcess(b.child);
  const after = await Promise.all(Array.from({ length: 8 }, () => processSale(url, { merchant_id: "m-plat-quiet", frontend: "quiet-usd" })));
  t.same(
    after.map((r) => r.http),
    Array(8).fill(200),
    "with one engine stopped, every request is still served",
  );
});
