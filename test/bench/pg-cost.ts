/**
 * `npm run bench -- --pg-cost [--sales N]`: Postgres's own CPU per approved
 * sale, for the rows a sale writes, read from the backend's /proc CPU ticks
 * rather than from throughput, so other load on the machine barely moves it.
 * One connection writes N sales one after the other (the floor phase's two
 * statements: order, attempt, "created" event, the move to approved and its
 * event, in one transaction), in turn:
 *
 *   as migrated   every trigger, foreign key and CHECK in place
 *   no triggers   the transition and initial-state triggers disabled
 *   replica       session_replication_role = replica: no trigger and no
 *                 foreign-key check at all (what they cost together)
 *
 * Each variant runs three times, interleaved; the figure is the smallest.
 * The service (embedded Postgres unless DATABASE_URL is set) runs on a fresh
 * database, started and stopped here; only the variants' tables are touched.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";
import { startService } from "../support/service.ts";
import { orderId } from "../support/wire.ts";
import { PREPARE_SALE, saleSql } from "./floor.ts";

/** Each variant runs this many times, interleaved; the smallest figure is kept. */
const ROUNDS = 3;

function backendSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

type Variant = { name: string; before: string[]; after: string[] };

const VARIANTS: Variant[] = [
  { name: "as migrated", before: [], after: [] },
  {
    name: "no triggers",
    before: ["alter table transaction disable trigger transaction_transition", "alter table transaction disable trigger transaction_initial"],
    after: ["alter table transaction enable trigger transaction_transition", "alter table transaction enable trigger transaction_initial"],
  },
  { name: "replica (no triggers, no keys)", before: ["set session_replication_role = replica"], after: ["set session_replication_role = origin"] },
];

export async function pgCostMain(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, strict: false, options: { sales: { type: "string" } } });
  const sales = Number(values.sales ?? 2000);
  const svc = await startService({ LOG_LEVEL: "warn" });
  const client = new pg.Client({ connectionString: svc.engine.databaseUrl });
  await client.connect();
  try {
    const [{ pid }] = (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows;
    await client.query(PREPARE_SALE);
    const best = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of VARIANTS) {
        for (const q of v.before) await client.query(q);
        for (let i = 0; i < 200; i++) await client.query(saleSql(client, orderId("pgc"), 1050)); // warm
        const t0 = backendSeconds(pid);
        for (let i = 0; i < sales; i++) await client.query(saleSql(client, orderId("pgc"), 1050));
        const ms = ((backendSeconds(pid) - t0) / sales) * 1000;
        for (const q of v.after) await client.query(q);
        best.set(v.name, Math.min(best.get(v.name) ?? Number.POSITIVE_INFINITY, ms));
      }
    }
    const base = best.get("as migrated") ?? Number.NaN;
    console.log(`pg-cost: ${sales} sales per variant, one connection, backend CPU per sale (the smallest of ${ROUNDS} runs)`);
    for (const [name, ms] of best) console.log(`${name.padEnd(32)} ${ms.toFixed(3)} ms  ${(((ms - base) / base) * 100).toFixed(0).padStart(4)}%`);
  } finally {
    await client.end();
    await svc.stop();
  }
}
