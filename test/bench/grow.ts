/**
 * `npm run bench -- --grow N [--seconds S] [--concurrency C] [--repeat R] [--database URL [--fill-only]]`:
 * the operators' searches and the Process rate on an empty database, then on
 * the same database grown to N realistic orders (test/support/grow-fill.ts:
 * attempts, status history, callbacks), side by side, and the write cost of
 * the search indexes (migrations 011 and 033) measured by dropping them and running
 * Process again on the grown database: first the two on `transaction` (the
 * indexes that cost an attempt's status change its HOT update), then all.
 *
 * Process: a closed loop of C (default 32) gRPC callers (the Connect client)
 * sending approved sales for S seconds (default 10) after 2 s of warm-up.
 * Besides the rate it prints what a sale writes, counted by Postgres: WAL
 * bytes per sale and the share of attempt updates that were HOT (an update
 * whose new row needs no new index entry), both independent of the machine's
 * other load, unlike the rate, and the CPU per sale of Postgres (its
 * processes' /proc times) and of this process (the callers and the engine),
 * less disturbed by other load than the rate. Each search runs R times (default 30) one
 * after the other; p50 and p99 of its latency as the caller sees it.
 *
 * `--database URL` keeps the grown database: the orders go into URL (migrated
 * by the engine's start) and stay there, so that a fill of millions, which
 * takes most of an hour and measures nothing, can run while the machine is
 * busy, and the figures later on a quiet machine. `--fill-only` fills URL and
 * stops; a run given a URL that already holds N grown orders skips the fill.
 * The empty database's phases then run on a fresh database of the same
 * cluster (DATABASE_URL names its `postgres` database), and the index phases
 * put back the indexes they drop, so that the kept database can be measured
 * again.
 */
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { CallbackKind, CallbackState } from "../../gen/cashier/engine/v1/callback_pb.js";
import { BIG_MERCHANT, type FillCounts, growFill, TINY_MERCHANT } from "../support/grow-fill.ts";
import { saleRequest } from "../support/engine-request.ts";
import { startService, type Service } from "../support/service.ts";
import { orderId } from "../support/wire.ts";

interface Options {
  n: number;
  /** A database to grow (or already grown) and keep. */
  database?: string;
  fillOnly: boolean;
  seconds: number;
  concurrency: number;
  repeat: number;
}

function options(args: string[]): Options {
  const value = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    const v = Number(args[i + 1]);
    if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} needs a positive number, got ${JSON.stringify(args[i + 1] ?? null)}`);
    return v;
  };
  const at = args.indexOf("--database");
  const database = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && !/^postgres(ql)?:\/\//.test(database ?? "")) throw new Error(`--database needs a postgres:// URL, got ${JSON.stringify(database ?? null)}`);
  if (args.includes("--fill-only") && !database) throw new Error("--fill-only needs --database URL (the database to keep)");
  return {
    database,
    fillOnly: args.includes("--fill-only"),
    n: Math.floor(value("--grow", 100_000)),
    seconds: value("--seconds", 10),
    concurrency: Math.floor(value("--concurrency", 32)),
    repeat: Math.floor(value("--repeat", 30)),
  };
}

type Search = { name: string; run: (svc: Service) => Promise<unknown> };

const DAY = 86_400_000;
const ts = (ms: number) => ({ seconds: BigInt(Math.floor(ms / 1000)), nanos: 0 });

/** The searches an operator runs (docs/operations.md, Searching), as the API is called. */
const SEARCHES: Search[] = [
  { name: "newest, all merchants", run: (s) => s.client.listTransactions({}) },
  { name: "merchant (half of all orders)", run: (s) => s.client.listTransactions({ merchantId: BIG_MERCHANT }) },
  { name: "merchant (2.6 %)", run: (s) => s.client.listTransactions({ merchantId: "m-grow-05" }) },
  { name: "merchant (20 old orders)", run: (s) => s.client.listTransactions({ merchantId: TINY_MERCHANT }) },
  { name: "pin", run: (s) => s.client.listTransactions({ pin: "cust-4242" }) },
  { name: "e-mail, other case", run: (s) => s.client.listTransactions({ email: "CUSTOMER4242@example.com" }) },
  { name: "card last four + merchant", run: (s) => s.client.listTransactions({ merchantId: BIG_MERCHANT, cardLastFour: "0042" }) },
  { name: "order_id, no merchant", run: (s) => s.client.listTransactions({ orderId: "g-4242" }) },
  { name: "processor transaction id", run: (s) => s.client.listTransactions({ processorTransactionId: "px-4242-1" }) },
  { name: "status declined + merchant", run: (s) => s.client.listTransactions({ merchantId: "m-grow-05", status: TransactionStatus.DECLINED }) },
  { name: "type payout + frontend", run: (s) => s.client.listTransactions({ frontend: `${BIG_MERCHANT}-fe0`, transactionType: TransactionType.PAYOUT }) },
  {
    name: "an old day, all merchants",
    run: (s) => s.client.listTransactions({ startTime: ts(Date.now() - 4 * DAY), endTime: ts(Date.now() - 3 * DAY) }),
  },
  { name: "matching nothing (processor)", run: (s) => s.client.listTransactions({ merchantId: BIG_MERCHANT, processor: "no-such" }) },
  { name: "deliveries: merchant", run: (s) => s.admin.listDeliveries({ merchantId: "m-grow-05" }) },
  { name: "deliveries: merchant + kind", run: (s) => s.admin.listDeliveries({ merchantId: "m-grow-05", kind: CallbackKind.UPDATE_PAYOUT }) },
  { name: "deliveries: failed", run: (s) => s.admin.listDeliveries({ state: CallbackState.FAILED }) },
  { name: "deliveries: kind nobody sent", run: (s) => s.admin.listDeliveries({ kind: CallbackKind.VALIDATION }) },
  { name: "failing deliveries", run: (s) => s.admin.listFailingDeliveries({}) },
  { name: "stuck transactions", run: (s) => s.admin.listStuckTransactions({}) },
];

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeSearches(svc: Service, repeat: number): Promise<Map<string, { p50: number; p99: number }>> {
  const out = new Map<string, { p50: number; p99: number }>();
  for (const s of SEARCHES) {
    await s.run(svc); // warm: the first call plans and fills caches
    const took: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const began = performance.now();
      await s.run(svc);
      took.push(performance.now() - began);
    }
    took.sort((a, b) => a - b);
    out.set(s.name, { p50: percentile(took, 50), p99: percentile(took, 99) });
  }
  return out;
}

interface ProcessFigures {
  rps: number;
  errors: number;
  walPerSale: number;
  hotShare: number;
  /** CPU per sale of this process (client, edge-less engine) and of the Postgres cluster, in ms. */
  nodeMs: number;
  pgMs: number;
}

const TICKS_PER_SECOND = 100;

/** CPU seconds used so far by the Postgres cluster (its postmaster and every child): /proc, Linux only. */
function clusterCpu(postmaster: number): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ppid = Number(fields[1]);
      if (Number(entry) === postmaster || ppid === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / TICKS_PER_SECOND;
}

async function postmasterOf(svc: Service): Promise<number> {
  const [r] = await svc.sql<{ pid: number }>("select pg_backend_pid() as pid");
  const stat = readFileSync(`/proc/${r.pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

async function counters(svc: Service) {
  // Stats reach the shared counters when a backend is idle for a moment; wait for the engine's to settle.
  await sleep(1500);
  const [r] = await svc.sql<{ lsn: string; upd: string; hot: string }>(
    `select pg_current_wal_lsn()::text as lsn, n_tup_upd::text as upd, n_tup_hot_upd::text as hot
     from pg_stat_user_tables where relname = 'transaction'`,
  );
  return r;
}

async function processPhase(svc: Service, o: Options): Promise<ProcessFigures> {
  const request = () =>
    saleRequest({
      orderId: orderId("grow"),
      customer: { pin: "cust-42", email: "jane@example.com", firstName: "Jane", lastName: "Doe", country: "GB", zip: "SW1A1AA" },
      timestamp: BigInt(Math.floor(Date.now() / 1000)),
    });
  let ok = 0;
  let errors = 0;
  let counting = false;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      try {
        const res = await svc.client.process(request());
        if (res.transaction?.status === TransactionStatus.APPROVED) {
          if (counting) ok += 1;
        } else if (counting) errors += 1;
      } catch {
        if (counting) errors += 1;
      }
    }
  };
  const workers = Array.from({ length: o.concurrency }, worker);
  await sleep(2000);
  const before = await counters(svc);
  const postmaster = await postmasterOf(svc);
  const pg0 = clusterCpu(postmaster);
  const node0 = process.cpuUsage();
  counting = true;
  const began = performance.now();
  await sleep(o.seconds * 1000);
  counting = false;
  const node = process.cpuUsage(node0);
  const pgSeconds = clusterCpu(postmaster) - pg0;
  const seconds = (performance.now() - began) / 1000;
  stop = true;
  await Promise.all(workers);
  const after = await counters(svc);
  const [wal] = await svc.sql<{ bytes: string }>("select pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text as bytes", [after.lsn, before.lsn]);
  const upd = Number(after.upd) - Number(before.upd);
  const hot = Number(after.hot) - Number(before.hot);
  // The WAL and update counts include the 1.5 s settle and the warm-up's tail; per sale they are close enough to compare phases.
  const sales = Math.max(ok, 1);
  return {
    rps: ok / seconds,
    errors,
    walPerSale: Number(wal.bytes) / sales,
    hotShare: upd > 0 ? hot / upd : Number.NaN,
    nodeMs: (node.user + node.system) / 1000 / sales,
    pgMs: (pgSeconds * 1000) / sales,
  };
}

/** The operators' search indexes: migration 011's and the unsettled callbacks by id (033). */
const SEARCH_INDEXES = [
  "payment_order_created_idx",
  "payment_order_merchant_created_idx",
  "payment_order_pin_idx",
  "payment_order_email_idx",
  "payment_order_last_four_idx",
  "transaction_processor_id_idx",
  "transaction_open_idx",
  "callback_unsettled_idx",
  "callback_unsettled_newest_idx",
];

/** The two on transaction: they name columns a status change writes, so they cost it its HOT update. */
const ATTEMPT_INDEXES = ["transaction_open_idx", "transaction_processor_id_idx"];

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ")).join("\n");
}

/** Orders a grown database holds (grow-fill.ts's merchants), and the rows the fill wrote for them. */
async function grownCounts(svc: Service): Promise<FillCounts> {
  const [r] = await svc.sql<Record<keyof FillCounts, string>>(
    `select (select count(*) from payment_order where merchant_id like 'm-grow-%')::text as orders,
       (select count(*) from transaction t join payment_order o on o.id = t.order_ref where o.merchant_id like 'm-grow-%')::text as transactions,
       (select count(*) from transaction_event)::text as events,
       (select count(*) from callback where merchant_id like 'm-grow-%')::text as callbacks,
       (select count(*) from callback_attempt)::text as attempts`,
  );
  return {
    orders: Number(r.orders),
    transactions: Number(r.transactions),
    events: Number(r.events),
    callbacks: Number(r.callbacks),
    attempts: Number(r.attempts),
  };
}

/** Drops indexes for a phase; the returned function puts them back as they were (their own definitions). */
async function dropIndexes(svc: Service, names: string[]): Promise<() => Promise<void>> {
  const defs = await svc.sql<{ def: string }>("select indexdef as def from pg_indexes where indexname = any($1::text[])", [names]);
  for (const index of names) await svc.sql(`drop index ${index}`);
  return async () => {
    for (const { def } of defs) await svc.sql(def);
  };
}

export async function growMain(args: string[]): Promise<void> {
  const o = options(args);
  const log = (line: string) => process.stderr.write(`[grow] ${line}\n`);
  const kept: Record<string, string> = o.database ? { DATABASE_URL: o.database } : {};
  if (o.fillOnly) {
    log(`migrating ${new URL(o.database!).pathname.slice(1)} and filling ${o.n} orders into it`);
    const svc = await startService({ LOG_LEVEL: "warn", ...kept });
    try {
      const began = Date.now();
      const counts = await growFill(svc.engine.databaseUrl, o.n, log);
      console.log(
        `filled: ${counts.orders} orders, ${counts.transactions} attempts, ${counts.events} status changes in ${((Date.now() - began) / 1000).toFixed(0)} s`,
      );
    } finally {
      await svc.stop();
    }
    return;
  }
  log(`starting the service; then ${o.n} orders${o.database ? " (kept database)" : ""}`);
  // Kept mode: the empty phases on a fresh database of the kept one's cluster, the grown ones on the kept database.
  const svc = await startService({ LOG_LEVEL: "warn" });
  let grown: Service | undefined;
  let emptyStopped = false;
  try {
    const [v] = await svc.sql<{ version: string }>("select version()");
    log("Process on the empty database");
    const emptyProcess = await processPhase(svc, o);
    log("searches on the empty database");
    const emptySearch = await timeSearches(svc, o.repeat);
    let counts: FillCounts;
    let filled: string;
    if (o.database) {
      await svc.stop();
      emptyStopped = true;
      grown = await startService({ LOG_LEVEL: "warn", ...kept });
      counts = await grownCounts(grown);
      filled = "earlier";
      if (counts.orders < o.n) {
        log(`filling ${o.n} orders into the kept database (it holds ${counts.orders})`);
        const began = Date.now();
        counts = await growFill(grown.engine.databaseUrl, o.n, log);
        filled = `in ${((Date.now() - began) / 1000).toFixed(0)} s`;
      }
    } else {
      log(`filling ${o.n} orders`);
      const began = Date.now();
      counts = await growFill(svc.engine.databaseUrl, o.n, log);
      filled = `in ${((Date.now() - began) / 1000).toFixed(0)} s`;
      grown = svc;
    }
    const g = grown;
    log("searches on the grown database");
    const grownSearch = await timeSearches(g, o.repeat);
    log("Process on the grown database");
    const grownProcess = await processPhase(g, o);
    log("Process on the grown database without the attempts' two indexes (those that cost HOT updates)");
    const putBackAttempt = await dropIndexes(g, ATTEMPT_INDEXES);
    const hotProcess = await processPhase(g, o);
    log("Process on the grown database without any search index (011, 033)");
    const putBackRest = await dropIndexes(
      g,
      SEARCH_INDEXES.filter((i) => !ATTEMPT_INDEXES.includes(i)),
    );
    const bareProcess = await processPhase(g, o);
    log("putting the indexes back");
    await putBackRest();
    await putBackAttempt();

    const [size] = await g.sql<{ size: string }>("select pg_size_pretty(pg_database_size(current_database())) as size");
    console.log("");
    console.log(
      `machine:   ${os.cpus()[0]?.model.trim() ?? "?"}, ${os.cpus().length} cores; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    console.log(`postgres:  ${v.version.split(" on ")[0]}; database ${size.size} grown`);
    console.log(
      `grown by:  ${counts.orders} orders, ${counts.transactions} attempts, ${counts.events} status changes, ${counts.callbacks} callbacks, ${counts.attempts} callback attempts, filled ${filled}`,
    );
    console.log(`process:   ${o.concurrency} gRPC callers, ${o.seconds} s per phase; searches: ${o.repeat} calls each, one at a time`);
    console.log("");
    const pr = (name: string, p: ProcessFigures) => [
      name,
      p.rps.toFixed(0),
      String(p.errors),
      p.walPerSale.toFixed(0),
      Number.isNaN(p.hotShare) ? "-" : `${(p.hotShare * 100).toFixed(0)}%`,
      p.pgMs.toFixed(2),
      p.nodeMs.toFixed(2),
    ];
    console.log(
      table([
        ["Process (approved sale)", "sales/s", "errors", "WAL bytes/sale", "HOT updates", "pg cpu ms/sale", "node cpu ms/sale"],
        pr("empty database", emptyProcess),
        pr(`grown (${o.n})`, grownProcess),
        pr("grown, without the 2 on transaction", hotProcess),
        pr("grown, without any search index", bareProcess),
      ]),
    );
    console.log("");
    const rows = [["search", "empty p50 ms", "empty p99 ms", `${o.n} p50 ms`, `${o.n} p99 ms`]];
    for (const s of SEARCHES) {
      const e = emptySearch.get(s.name)!;
      const g = grownSearch.get(s.name)!;
      rows.push([s.name, e.p50.toFixed(2), e.p99.toFixed(2), g.p50.toFixed(2), g.p99.toFixed(2)]);
    }
    console.log(table(rows));
  } finally {
    if (grown && grown !== svc) await grown.stop();
    if (!emptyStopped) await svc.stop();
  }
}
