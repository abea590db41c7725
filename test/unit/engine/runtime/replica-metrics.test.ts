/**
 * The read replica's series: none without DATABASE_READ_URL; with it, the lag measured at each scrape (once for both
 * gauges) in seconds and the replica reachable, or NaN and unreachable when the measurement fails or cannot tell; and
 * the reads that fell back to the primary, by reason.
 */
import t from "tap";
import { createEngineMetrics, type PoolLike, recordReplicaFallback } from "../../../../engine/runtime/metrics.ts";

const pool = async (): Promise<PoolLike> => ({ totalCount: 0, idleCount: 0, waitingCount: 0, options: {}, query: async () => ({ rows: [] }) });

t.test("no replica configured: no replica series", async (t) => {
  const text = await createEngineMetrics(pool, { defaults: false }).registry.metrics();
  t.notMatch(text, /cashier_db_replica/);
});

t.test("a replica: its lag in seconds and reachable, measured once per scrape", async (t) => {
  const answers: (number | undefined | Error)[] = [12_500, 0, undefined, new Error("connect ECONNREFUSED")];
  let measured = 0;
  const m = createEngineMetrics(pool, {
    defaults: false,
    replicaLag: async () => {
      measured += 1;
      const a = answers.shift();
      if (a instanceof Error) throw a;
      return a;
    },
  });
  const scrape = () => m.registry.metrics();
  let text = await scrape();
  t.match(text, /^cashier_db_replica_lag_seconds 12\.5$/m);
  t.match(text, /^cashier_db_replica_reachable 1$/m);
  t.equal(measured, 1, "one measurement for both gauges");
  text = await scrape();
  t.match(text, /^cashier_db_replica_lag_seconds 0$/m, "caught up");
  text = await scrape();
  t.match(text, /^cashier_db_replica_lag_seconds nan$/im, "a lag it cannot tell");
  t.match(text, /^cashier_db_replica_reachable 1$/m, "though the replica answered");
  text = await scrape();
  t.match(text, /^cashier_db_replica_lag_seconds nan$/im, "no answer: no figure");
  t.match(text, /^cashier_db_replica_reachable 0$/m);
  t.equal(measured, 4);
});

t.test("fallbacks are counted by reason", async (t) => {
  const m = createEngineMetrics(pool, { defaults: false, replicaLag: async () => 0 });
  const before = await m.registry.getSingleMetricAsString("cashier_db_replica_fallbacks_total");
  const count = (text: string, reason: string) => Number(new RegExp(`reason="${reason}"} (\\d+)`).exec(text)?.[1] ?? 0);
  recordReplicaFallback("unavailable");
  recordReplicaFallback("unavailable");
  recordReplicaFallback("lag_unknown");
  const after = await m.registry.getSingleMetricAsString("cashier_db_replica_fallbacks_total");
  t.equal(count(after, "unavailable") - count(before, "unavailable"), 2);
  t.equal(count(after, "lag_unknown") - count(before, "lag_unknown"), 1);
});
