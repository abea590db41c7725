/**
 * The database's own availability through HAProxy, beside the engine's: a
 * client that commits a one-row write every quarter second on a fresh
 * connection and keeps the time of each success and failure. The failover
 * test prints when the database took writes again next to when sales did,
 * which tells the cluster's part of a switch from the engine's.
 */
import pg from "pg";
import { closeClient } from "./close-client.ts";

export interface WriteProbe {
  /** Seconds from `faultAt` until a write succeeded again after the first that failed; NaN if none failed. */
  secondsBack(faultAt: number): number;
  stop(): Promise<void>;
}

export async function startWriteProbe(url: string): Promise<WriteProbe> {
  const results: { at: number; ok: boolean }[] = [];
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query("create table if not exists ha_lab_probe (at timestamptz not null default now())");
  await closeClient(setup);
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const at = performance.now();
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000, query_timeout: 2000 });
      c.on("error", () => {});
      let ok = false;
      try {
        await c.connect();
        await c.query("insert into ha_lab_probe default values");
        ok = true;
      } catch {}
      await closeClient(c);
      results.push({ at, ok });
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    secondsBack(faultAt) {
      const after = results.filter((r) => r.at >= faultAt);
      const firstFail = after.find((r) => !r.ok);
      if (!firstFail) return Number.NaN;
      const back = after.find((r) => r.ok && r.at > firstFail.at);
      return back ? (back.at - faultAt) / 1000 : Number.NaN;
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
