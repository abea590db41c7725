/**
 * The LISTEN connection that lets other engines wake this one's workers
 * (engine/store/work-listener.ts), on a real Postgres: notices wake the worker
 * of their kind and the engine's own are skipped; a cut connection comes back
 * by itself and then wakes every worker (a notice may have been missed); a
 * database that cannot be reached does not hold up the start.
 */
import t from "tap";
import pg from "pg";
import { LISTENER_APPLICATION_NAME, startWorkListener } from "../../engine/store/work-listener.ts";
import { testDatabase } from "../support/processes.ts";
import { until } from "../support/until.ts";

const FAST = { connectTimeoutMs: 2000, reconnectMinMs: 50, reconnectMaxMs: 400 };

t.test("notices wake the worker of their kind, skip the engine's own, and come through again after the connection is cut", async (t) => {
  const db = await testDatabase();
  t.teardown(() => db.stop());
  const woken: string[] = [];
  const states: string[] = [];
  const listener = await startWorkListener({
    url: db.url,
    origin: "engine-a",
    timing: FAST,
    wake: (kind) => woken.push(kind ?? "every worker"),
    onState: (state) => states.push(state),
  });
  t.teardown(() => listener.stop());
  t.same(states, ["listening"], "listening once started");
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.teardown(() => client.end());

  // One transaction: delivered together, in order, at commit.
  await client.query(`select pg_notify('cashier_work', 'callback engine-b'), pg_notify('cashier_work', 'follow-up engine-a'),
    pg_notify('cashier_work', 'follow-up engine-b'), pg_notify('cashier_work', 'something-new engine-b')`);
  await until(async () => woken.length >= 3, 5000);
  t.same(woken, ["callback", "follow-up", "every worker"], "callback and follow-up wake theirs, an unknown kind wakes every worker, engine-a's own is skipped");

  woken.length = 0;
  // This database's listener only: the run's cluster is shared with other files' engines.
  const cut = await client.query(`select pg_terminate_backend(pid) as cut from pg_stat_activity where datname = current_database() and application_name = $1`, [
    LISTENER_APPLICATION_NAME,
  ]);
  t.same(cut.rows, [{ cut: true }], "its one connection is cut");
  t.ok(await until(async () => states.length >= 3, 5000), "and comes back");
  t.same(states, ["listening", "lost", "listening"]);
  t.same(woken, ["every worker"], "back, it wakes every worker once: a notice may have been missed");

  await client.query(`select pg_notify('cashier_work', 'callback engine-b')`);
  t.ok(await until(async () => woken.length >= 2, 5000));
  t.same(woken, ["every worker", "callback"], "notices come through again");
});

t.test("a database that cannot be reached does not hold up the start, and is tried again until stop", async (t) => {
  const states: string[] = [];
  const started = Date.now();
  const listener = await startWorkListener({
    // Port 9 (discard): nothing listens there.
    url: "postgres://cashier@127.0.0.1:9/cashier",
    origin: "engine-a",
    timing: FAST,
    wake: () => {},
    onState: (state) => states.push(state),
  });
  t.ok(Date.now() - started < FAST.connectTimeoutMs + 1000, "the start goes on at once");
  t.ok(await until(async () => states.length >= 3, 5000), "tried again, with growing waits");
  t.ok(
    states.every((s) => s === "lost"),
    "never listening",
  );
  const stopping = Date.now();
  await listener.stop();
  t.ok(Date.now() - stopping < FAST.connectTimeoutMs + 1000, "and stops without waiting for the database");
});
