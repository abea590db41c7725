/**
 * The Backoffice's reads off the primary, against a real streaming replica
 * (test/support/streaming-replica.ts) of this file's own embedded Postgres,
 * over HTTP: with DATABASE_READ_URL set, a sale made through the edge appears
 * in the console's search once the replica has replayed it, read there (the
 * replica's sessions show the read pool as the service role); with the
 * replica's replay paused, a newer sale is missing from the search while its
 * detail (read on the primary) shows it, and once the replica is more than
 * 5 s behind the search and the dashboard say by how much and the CSV export
 * ends with a line saying so, and the engine's metrics show the lag; resumed,
 * the sale appears and the notice goes; with the replica stopped, the pages
 * read the primary (the newest sale is there, no notice), the fallback is
 * counted and logged once. The read path's refusal of writes is
 * test/db/engine/store/read-orm.test.ts's.
 */
import t from "tap";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "../../../../engine/store/embedded-postgres.ts";
import { serviceRoleName } from "../../../../engine/store/service-role.ts";
import { READ_APPLICATION_NAME } from "../../../../engine/store/read-orm.ts";
import type { BackofficeHandle } from "../../../../edge/backoffice/server.ts";
import { type ConsoleClient, createOperator, enrolOverHttp, startConsole } from "../../../support/backoffice.ts";
import { type Service, startService } from "../../../support/service.ts";
import { type StreamingReplica, startStreamingReplica } from "../../../support/streaming-replica.ts";
import { until } from "../../../support/until.ts";
import { processSale } from "../../../support/wire.ts";

/** As long as replication, a replica's start and the lag's 5 s take on a loaded machine: a hang guard, not a limit. */
const PATIENCE_MS = 120_000;

let replica: StreamingReplica;
let svc: Service;
let bo: BackofficeHandle;
let op: ConsoleClient;

// Set up in `before`, each piece's teardown registered as it starts: a failed start leaves no cluster behind.
t.before(async () => {
  const dir = mkdtempSync(join(tmpdir(), "cashier-replica-"));
  // The clusters run as the unprivileged "postgres" user when we are root.
  chmodSync(dir, 0o755);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const primary = await startEmbeddedPostgres(join(dir, "primary"), () => {});
  t.teardown(() => primary.stop());
  replica = await startStreamingReplica(join(dir, "primary"), primary.url, join(dir, "replica"));
  t.teardown(() => replica.remove());
  svc = await startService({ DATABASE_URL: primary.url, DATABASE_READ_URL: replica.url }, { ownCluster: true });
  t.teardown(() => svc.stop());
  bo = await startConsole(svc);
  t.teardown(() => bo.close());
  op = (await enrolOverHttp(bo.url, await createOperator(svc, "rita", "admin"), "rita")).client;
});

const run = Date.now().toString(36);

/** A sale through the edge: its order_id and trace_id. */
async function sale(n: number): Promise<{ orderId: string; traceId: number }> {
  const orderId = `replica-${run}-${n}`;
  const r = await processSale(svc.edgeUrl, { order_id: orderId });
  if (typeof r.body.trace_id !== "number") throw new Error(`no trace_id: ${JSON.stringify(r.body)}`);
  return { orderId, traceId: r.body.trace_id };
}

const search = (orderId: string) => op.get(`/transactions?order_id=${encodeURIComponent(orderId)}`);
/** A search page lists the sale (its row's link; the order_id alone is also in the filter's field). */
const listed = (body: string, s: { traceId: number }) => body.includes(`<a href="/transactions/${s.traceId}">`);
const NOTICE =
  /<div class="notice info" role="status" id="replica-lag">Figures here may be up to (\d+) s behind: they were read from a replica of the database, which is catching up\.<\/div>/;

async function metrics(): Promise<string> {
  return (await fetch(`http://127.0.0.1:${svc.engine.metricsPort}/metrics`)).text();
}
const metric = (text: string, name: string) => {
  const m = new RegExp(`^${name.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text);
  return m ? Number(m[1]) : undefined;
};

let first: { orderId: string; traceId: number };
let second: { orderId: string; traceId: number };

t.test("a sale made on the primary appears in the search, read from the replica", async (t) => {
  first = await sale(1);
  t.ok(await until(() => replica.caughtUp(), PATIENCE_MS, 200), "the replica replays it");
  const page = await search(first.orderId);
  t.equal(page.status, 200);
  t.ok(listed(page.body, first), "the sale is listed");
  t.notMatch(page.body, /replica-lag/, "caught up: no notice");
  const sessions = await replica.sql<{ usename: string }>("select usename from pg_stat_activity where application_name = $1", [READ_APPLICATION_NAME]);
  t.ok(sessions.length > 0, "the read pool's sessions are on the replica");
  t.same(new Set(sessions.map((s) => s.usename)), new Set([serviceRoleName("cashier")]), "signed in as the service role, as the primary's pool");
  const m = await metrics();
  t.equal(metric(m, "cashier_db_replica_reachable"), 1);
  t.ok((metric(m, "cashier_db_replica_lag_seconds") ?? -1) >= 0, "its lag is measured");
});

t.test("replay paused: the newer sale is missing from the search, and past 5 s the pages say how far behind they may be", async (t) => {
  await replica.sql("select pg_wal_replay_pause()");
  t.teardown(() => replica.sql("select pg_wal_replay_resume()").catch(() => {}));
  second = await sale(2);

  const detail = await op.get(`/transactions/${second.traceId}`);
  t.equal(detail.status, 200, "the detail reads the primary");
  t.match(detail.body, second.orderId, "and shows the sale at once");
  t.notMatch(detail.body, /replica-lag/);

  const behind = await until(
    async () => {
      const page = await search(second.orderId);
      return NOTICE.test(page.body) ? page : undefined;
    },
    PATIENCE_MS,
    500,
  );
  t.ok(behind, "the search says it may be behind");
  const seconds = Number(NOTICE.exec(behind!.body)![1]);
  t.ok(seconds > 5, `more than 5 s behind (${seconds} s)`);
  t.notOk(listed(behind!.body, second), "the sale the replica has not replayed is not listed");
  t.match(behind!.body, /No transaction matches this search\./);

  const dashboard = await op.get("/");
  t.equal(dashboard.status, 200);
  t.match(dashboard.body, NOTICE, "the dashboard says it too");

  const csv = await op.get(`/transactions.csv?order_id=${encodeURIComponent(first.orderId)}`);
  t.equal(csv.status, 200);
  const lines = csv.body.trimEnd().split("\r\n");
  t.match(lines[1], first.orderId, "the export lists what the replica has");
  t.match(
    lines.at(-1),
    /^# read from a replica of the database up to \d+ s behind: the latest transactions may be missing$/,
    "and ends saying it may be behind",
  );

  t.ok((metric(await metrics(), "cashier_db_replica_lag_seconds") ?? 0) > 5, "the metric shows the lag");
});

t.test("replay resumed: the sale appears and the notice goes", async (t) => {
  await replica.sql("select pg_wal_replay_resume()");
  const caught = await until(
    async () => {
      const page = await search(second.orderId);
      return listed(page.body, second) ? page : undefined;
    },
    PATIENCE_MS,
    200,
  );
  t.ok(caught, "listed once replayed");
  t.notMatch(caught!.body, /replica-lag/, "no notice");
  t.notMatch((await op.get("/")).body, /replica-lag/, "nor on the dashboard");
});

t.test("replica stopped: the pages read the primary, the fallback is counted and logged once", async (t) => {
  await replica.stop();
  const third = await sale(3);
  for (let i = 0; i < 3; i++) {
    const page = await search(third.orderId);
    t.equal(page.status, 200, "the search answers");
    t.ok(listed(page.body, third), "with the newest sale: read on the primary");
    t.notMatch(page.body, /replica-lag/, "and no notice");
  }
  const dashboard = await op.get("/");
  t.equal(dashboard.status, 200, "the dashboard answers");
  t.notMatch(dashboard.body, /replica-lag/);
  const m = await metrics();
  t.ok((metric(m, 'cashier_db_replica_fallbacks_total{reason="unavailable"}') ?? 0) >= 4, "each read counted");
  t.equal(metric(m, "cashier_db_replica_reachable"), 0);
  t.ok(Number.isNaN(metric(m, "cashier_db_replica_lag_seconds")), "no lag (NaN) while it cannot be told");
  const warnings = svc
    .logs()
    .split("\n")
    .filter((l) => l.includes("the read replica cannot serve"));
  t.equal(warnings.length, 1, "one warning for the outage");
});
