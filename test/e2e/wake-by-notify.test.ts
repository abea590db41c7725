/**
 * Several engines on one database: work committed through one engine wakes
 * the others' workers at once through Postgres LISTEN/NOTIFY, not at their next
 * poll (docs/schedule.md, "Waking other engines"). Every poll here is a minute
 * apart and engine A never wakes its own workers (its in-process wake-up is
 * cut), so work handled within seconds can only have been handled by engine B,
 * woken by the notice A's statement sent at commit.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import t from "tap";
import pg from "pg";
import { loadConfig } from "../../engine/shared/config/config.ts";
import { createLogger } from "../../engine/shared/runtime/log.ts";
import { startEngine } from "../../engine/engine.ts";
import { LISTENER_APPLICATION_NAME } from "../../engine/store/work-listener.ts";
import { launch, platformWorld, stopProcess } from "../support/processes.ts";
import { orderId, processSale } from "../support/wire.ts";
import { until } from "../support/until.ts";

/** Far longer than any wait below: nothing here is found by polling. */
const POLL_ONCE_A_MINUTE = "60000";
/** What "at once" means below: seconds, against a poll of a minute. */
const PROMPTLY_MS = 10_000;

t.test("two engines polling once a minute: work committed through engine A is taken at once by engine B", async (t) => {
  const world = await platformWorld(t);
  const { stub, db } = world;
  const env = {
    ...world.env,
    CASHIER_WORKER_POLL_MS: POLL_ONCE_A_MINUTE,
    CASHIER_MASTER_KEY: randomBytes(32).toString("hex"),
    CASHIER_EDGE_TOKEN: "edge-token-of-the-wake-up-test-0123456789",
  };

  // Engine A runs in this process so that its own wake-up can be cut: its workers sleep out their minute.
  const logA: string[] = [];
  const a = await startEngine(loadConfig(env), createLogger("info", { write: (line: string) => void logA.push(line) }), { host: "127.0.0.1" });
  t.teardown(() => a.stop());
  a.deps.wake = () => {};
  // Its own data dir: it starts its own acquirer simulator, whose ledger one simulator holds at a time.
  const b = await launch("engine/main.ts", { ...env, CASHIER_DATA_DIR: join(db.dir, "engine-b") }, "engine listening");
  t.teardown(() => stopProcess(b.child));
  // The edge sends every request to engine A only.
  const edge = await launch(
    "edge/main.ts",
    { EDGE_PORT: "0", EDGE_METRICS_PORT: "0", ENGINE_URL: `http://127.0.0.1:${a.port}`, CASHIER_EDGE_TOKEN: "edge-token-of-the-wake-up-test-0123456789" },
    "edge listening",
  );
  t.teardown(() => stopProcess(edge.child));
  const url = `http://127.0.0.1:${edge.line.port}`;

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.teardown(() => client.end());
  const listeners = async () =>
    (
      await client.query(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1 and query ilike 'listen%'`,
        [LISTENER_APPLICATION_NAME],
      )
    ).rows[0].n as number;
  t.equal(await until(async () => (await listeners()) === 2 && 2, 10_000), 2, "each engine listens on one connection of its own");

  await t.test("a RecordFailedDeposit owed by a decline on A is delivered by B within seconds", async (t) => {
    const r = await processSale(url, { merchant_id: "m-plat-quiet", frontend: "quiet-usd", order_id: orderId("notify"), card_number: "4000000000000002" });
    t.equal(r.body.transaction_status, "declined");
    const [call] = await stub.waitFor("record_failed_deposit", (c) => (c.body as { TraceID?: number })?.TraceID === r.body.trace_id, {
      timeoutMs: PROMPTLY_MS,
    });
    t.ok(call.signatureValid, "signed");
    const made = (log: string) => log.split("\n").some((l) => l.includes('"msg":"callback attempt"') && l.includes(`"traceId":${r.body.trace_id},`));
    // The log line follows the recorded attempt; give the pipe a moment.
    t.ok(await until(async () => made(b.out()), 3000), "engine B made the call");
    t.notOk(made(logA.join("")), "engine A did not");
  });

  await t.test("a cascade attempt created by a retry on A is submitted by B within seconds", async (t) => {
    const oid = orderId("cascade");
    const r = await processSale(url, { merchant_id: "m-plat-quiet", frontend: "quiet-usd", order_id: oid, card_number: "4000000000000259" });
    t.equal(r.body.transaction_status, "declined_retry", "the first attempt asks for the next processor");
    const second = await until(async () => {
      const { rows } = await client.query(
        `select t.status, t.processor from transaction t join payment_order o on o.id = t.order_ref where o.order_id = $1 and t.attempt = 2`,
        [oid],
      );
      return rows[0]?.status === "approved" ? rows[0] : undefined;
    }, PROMPTLY_MS);
    t.same(second, { status: "approved", processor: "sim-b" }, "the second attempt went to sim-b and was approved");
  });
});
