/**
 * `npm run bench -- --cashier-queries [--flows N] [--orders N] [--statements]`:
 * the work one hosted Cashier deposit costs, counted rather than timed. The
 * service starts on a fresh database (with N orders of test/support/grow-fill.ts
 * first, 30 000 by default, so that the indexes are of a realistic depth),
 * runs 5 warm-up flows of the bench's `cashier` phase (test/bench/cashier-phase.ts),
 * then N flows (100 by default) one after the other, and prints per flow:
 *
 *   statements   every SQL statement the engine sends (counted on pg's Client,
 *                BEGIN and COMMIT included), and per step of the flow
 *   commits      pg_stat_database.xact_commit of the service's database
 *   idx / seq    pg_stat_user_tables idx_scan and seq_scan, per table
 *                (both less those of an equally long window without flows:
 *                the workers' polls and sweeps)
 *   node ms      this process's CPU (engine, and the edge on its worker thread)
 *   pg ms        the CPU of the database's backends (/proc/<pid>/stat)
 *
 * Background work (the workers' polls, the status callback) is counted with
 * the step it falls in. `--statements` lists each step's statements, the
 * most frequent first, with their count per flow and their mean wall time.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import pg from "pg";
import { growFill } from "../support/grow-fill.ts";
import { startService } from "../support/service.ts";
import { cashierShot } from "./cashier-phase.ts";

const STEPS = ["session start", "autologin", "deposit page", "submit", "result page"] as const;

function ticks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

/** Statements seen on pg's Client, by step and by text: how many, and their wall time in ms (sent to answered). */
const seen = new Map<string, Map<string, { n: number; ms: number }>>();
let step = "outside";
let statements = 0;

function countStatements(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0];
    const text = typeof q === "string" ? q : ((q as { text?: string; name?: string })?.text ?? (q as { name?: string })?.name ?? "?");
    statements += 1;
    const byText = seen.get(step) ?? new Map<string, { n: number; ms: number }>();
    const key = text.replace(/\s+/g, " ").trim().slice(0, 160);
    const entry = byText.get(key) ?? { n: 0, ms: 0 };
    entry.n += 1;
    byText.set(key, entry);
    seen.set(step, byText);
    const began = performance.now();
    const result = original.apply(this, args);
    if (result instanceof Promise)
      result.then(
        () => {
          entry.ms += performance.now() - began;
        },
        () => {},
      );
    return result;
  };
}

/** Which step of a flow a request to the edge is, by its method and path; undefined for any other request. */
function stepOf(url: URL, method: string): string | undefined {
  if (method === "POST" && url.pathname === "/api/session") return STEPS[0];
  if (url.pathname.includes("/result/")) return STEPS[4];
  if (method === "POST") return STEPS[3];
  if (url.pathname.includes("/autologin/")) return STEPS[1];
  return STEPS[2];
}

/** Names the statements by the step of the flow whose request is under way (flows run one after the other). */
function nameSteps(edgeUrl: string, stepStatements: Map<string, number>): () => void {
  const original = http.request;
  const edge = new URL(edgeUrl);
  let mark = statements;
  let current = "outside";
  const close = () => {
    stepStatements.set(current, (stepStatements.get(current) ?? 0) + statements - mark);
    mark = statements;
  };
  (http as { request: unknown }).request = (...args: unknown[]) => {
    const url = args[0] instanceof URL ? args[0] : undefined;
    const method = String((args[1] as { method?: string } | undefined)?.method ?? "GET");
    const named = url && url.host === edge.host ? stepOf(url, method) : undefined;
    if (named) {
      close();
      current = named;
      step = named;
    }
    return (original as (...a: unknown[]) => http.ClientRequest)(...args);
  };
  return () => {
    close();
    (http as { request: unknown }).request = original;
    step = "outside";
  };
}

interface Counters {
  commits: number;
  tables: Map<string, { idx: number; seq: number }>;
}

export async function cashierQueriesMain(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: { flows: { type: "string" }, orders: { type: "string" }, statements: { type: "boolean" } },
  });
  const flows = Number(values.flows ?? 100);
  const orders = Number(values.orders ?? 30000);
  countStatements();
  const svc = await startService({ LOG_LEVEL: "warn" });
  const probe = new pg.Client({ connectionString: svc.engine.databaseUrl });
  await probe.connect();
  try {
    if (orders > 0) await growFill(svc.engine.databaseUrl, orders);
    const [{ pid: probePid }] = (await probe.query<{ pid: number }>("select pg_backend_pid() as pid")).rows;
    const pgTicks = async (): Promise<number> => {
      const pids = await probe.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and pid <> $1", [probePid]);
      return pids.rows.reduce((s, r) => s + ticks(r.pid), 0);
    };
    /** The database's counters, once every backend has flushed them (an idle one may hold them ten seconds). */
    const read = async (): Promise<Counters> => {
      await sleep(11_000);
      const db = await probe.query<{ c: string }>("select xact_commit as c from pg_stat_database where datname = current_database()");
      const t = await probe.query<{ relname: string; idx: string | null; seq: string }>(
        "select relname, idx_scan as idx, seq_scan as seq from pg_stat_user_tables",
      );
      return { commits: Number(db.rows[0].c), tables: new Map(t.rows.map((r) => [r.relname, { idx: Number(r.idx ?? 0), seq: Number(r.seq) }])) };
    };
    // One client address per 20 flows, each far under the Cashier's per-address limits (the flows still run one by one).
    const c = cashierShot(svc, Math.ceil((flows + 5) / 20), 30_000);
    for (let i = 0; i < 5; i++) {
      const failed = await c.shot();
      if (failed) throw new Error(`warm-up flow failed: ${failed}`);
    }
    // The workers' own commits and scans in a window without flows, taken off the flows' window.
    const idle0 = await read();
    const idle1 = await read();
    seen.clear();
    const stepStatements = new Map<string, number>();
    const statementsBefore = statements;
    const pgBefore = await pgTicks();
    const nodeBefore = process.cpuUsage();
    const done = nameSteps(svc.edgeUrl, stepStatements);
    for (let i = 0; i < flows; i++) {
      const failed = await c.shot();
      if (failed) throw new Error(`flow ${i} failed: ${failed}`);
    }
    done();
    const nodeMs = (() => {
      const u = process.cpuUsage(nodeBefore);
      return (u.user + u.system) / 1000;
    })();
    const pgMs = ((await pgTicks()) - pgBefore) * 10;
    const flowStatements = statements - statementsBefore;
    const after = await read();
    c.close();
    const per = (n: number) => (n / flows).toFixed(1);
    console.log(`cashier-queries: ${flows} flows one after the other, ${orders} orders in the database`);
    console.log(`statements/flow ${per(flowStatements)}`);
    for (const [s, n] of stepStatements) console.log(`  ${s.padEnd(14)} ${per(n)}`);
    console.log(`commits/flow    ${per(after.commits - idle1.commits - (idle1.commits - idle0.commits))}`);
    console.log(`node ms/flow    ${(nodeMs / flows).toFixed(2)}`);
    console.log(`pg ms/flow      ${(pgMs / flows).toFixed(2)}`);
    const rows: string[] = [];
    for (const [name, a] of after.tables) {
      const b = idle1.tables.get(name) ?? { idx: 0, seq: 0 };
      const i0 = idle0.tables.get(name) ?? { idx: 0, seq: 0 };
      const idx = a.idx - b.idx - (b.idx - i0.idx);
      const seq = a.seq - b.seq - (b.seq - i0.seq);
      if (idx || seq) rows.push(`  ${name.padEnd(28)} idx ${per(idx).padStart(6)}  seq ${per(seq).padStart(6)}`);
    }
    console.log("scans/flow by table");
    for (const r of rows.sort()) console.log(r);
    if (values.statements) {
      for (const [s, byText] of seen) {
        console.log(`-- ${s}`);
        for (const [text, e] of [...byText].sort((a, b) => b[1].n - a[1].n)) {
          console.log(`  ${per(e.n).padStart(5)}  ${(e.ms / e.n).toFixed(2).padStart(6)} ms  ${text}`);
        }
      }
    }
  } finally {
    await probe.end();
    await svc.stop();
  }
}
