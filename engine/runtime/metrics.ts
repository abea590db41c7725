/**
 * The engine's Prometheus metrics (prom-client). One registry per engine, so a
 * test process can start several engines; the processor-outcome counter is
 * module-level because use cases record into it without holding the engine.
 * Labels are bounded sets (RPC methods, gRPC codes, processors, states):
 * nothing a caller sends (card numbers, ids, order ids) ever becomes a label.
 */
import { status as GrpcStatus } from "@grpc/grpc-js";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { AuthRefusal } from "../rpc/auth.ts";
import { observing, type Interceptor } from "../rpc/interceptors.ts";

/** Latency buckets in seconds: from a cached reply (1 ms) to a slow processor (10 s). */
const RPC_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A scrape must not hang on a database that does not answer. */
const COLLECT_TIMEOUT_MS = 2000;

const processorOutcomes = new Counter({
  name: "cashier_processor_outcomes_total",
  help: "Processor answers by processor, transaction type and outcome (approved, declined, retry, unknown...).",
  labelNames: ["processor", "type", "outcome"] as const,
  registers: [],
});

/**
 * Counts one processor answer. Called by the use cases after each processor
 * call, so operators see a failing acquirer before merchants do.
 */
export function recordProcessorOutcome(processor: string, type: string, outcome: string): void {
  processorOutcomes.inc({ processor, type, outcome });
}

const writeBatchCalls = new Histogram({
  name: "cashier_db_write_batch_calls",
  help: "Hot writes (order inserts, status changes) committed together in one transaction, per batch.",
  buckets: [1, 2, 4, 8, 16, 32, 64],
  registers: [],
});

const writeBatchesRefused = new Counter({
  name: "cashier_db_write_batches_refused_total",
  help: "Batches of hot writes Postgres refused as a whole; each of their writes then ran again on its own.",
  registers: [],
});

/** Counts one batch of hot writes (engine/store/write-batch.ts). */
export function recordWriteBatch(calls: number, refused: boolean): void {
  writeBatchCalls.observe(calls);
  if (refused) writeBatchesRefused.inc();
}

/** Batches of hot writes and the writes in them since the process started (the bench's per-phase figure). */
export async function writeBatchTotals(): Promise<{ batches: number; calls: number }> {
  const { values } = await writeBatchCalls.get();
  const read = (suffix: string) => values.find((v) => v.metricName === `cashier_db_write_batch_calls${suffix}`)?.value ?? 0;
  return { batches: read("_count"), calls: read("_sum") };
}

const replicaFallbacks = new Counter({
  name: "cashier_db_replica_fallbacks_total",
  help: "Backoffice reads meant for the read replica (DATABASE_READ_URL) that read the primary instead, by why: unavailable, or lag_unknown.",
  labelNames: ["reason"] as const,
  registers: [],
});

/** Counts one read sent to the primary though a replica is configured (engine/store/replica-reads.ts). */
export function recordReplicaFallback(reason: "unavailable" | "lag_unknown"): void {
  replicaFallbacks.inc({ reason });
}

/** What the metrics read at scrape time: the pg pool under MikroORM. */
export interface PoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
  query(text: string): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface EngineMetrics {
  registry: Registry;
  /** Counts and times every call of EngineService and AdminService, refused ones included: the outermost interceptor. */
  interceptor: Interceptor;
  /** What the interceptor records for one ended call. */
  record(method: string, code: GrpcStatus, ms: number): void;
  /** Counts one refused bearer token (engine/rpc/auth.ts), reflection's included: a guesser shows here first. */
  authRefused(reason: AuthRefusal): void;
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The read replica's figures, measured at scrape time (a replica read by no page is watched all the same): its lag
 * in seconds (engine/store/replica-lag.ts; NaN while it cannot be told), whether it answered, and the reads
 * that fell back to the primary.
 */
function replicaGauges(registry: Registry, lag: () => Promise<number | undefined>): void {
  registry.registerMetric(replicaFallbacks);
  let last: Promise<number | undefined | null> | undefined;
  // One measurement per scrape for both gauges, whose collects a scrape starts together (null: the replica or the
  // primary did not answer); the next scrape measures anew.
  const measure = () =>
    (last ??= withTimeout(lag(), COLLECT_TIMEOUT_MS)
      .catch(() => null)
      .finally(() => {
        last = undefined;
      }));
  new Gauge({
    name: "cashier_db_replica_lag_seconds",
    help: "How far the read replica (DATABASE_READ_URL) may be behind the primary, in seconds; 0 when caught up, NaN when it cannot be told (read at scrape time).",
    registers: [registry],
    async collect() {
      const ms = await measure();
      this.set(typeof ms === "number" ? ms / 1000 : Number.NaN);
    },
  });
  new Gauge({
    name: "cashier_db_replica_reachable",
    help: "1 when the read replica answered the scrape's lag query, 0 when it did not.",
    registers: [registry],
    async collect() {
      this.set((await measure()) === null ? 0 : 1);
    },
  });
}

/**
 * Builds the engine's registry. `pool` resolves to the pg Pool MikroORM uses
 * (`orm.em.getConnection().getNativeClient()`); its counts and the callback
 * table are read at scrape time, so an idle engine does no metrics work.
 */
export function createEngineMetrics(
  pool: () => Promise<PoolLike>,
  opts: { defaults?: boolean; replicaLag?: () => Promise<number | undefined> } = {},
): EngineMetrics {
  const registry = new Registry();
  if (opts.defaults !== false) collectDefaultMetrics({ register: registry });
  registry.registerMetric(processorOutcomes);
  registry.registerMetric(writeBatchCalls);
  registry.registerMetric(writeBatchesRefused);
  if (opts.replicaLag) replicaGauges(registry, opts.replicaLag);

  const requests = new Counter({
    name: "cashier_rpc_requests_total",
    help: "gRPC calls to the engine's services by method and status code.",
    labelNames: ["method", "code"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "cashier_rpc_duration_seconds",
    help: "Time from a gRPC call's arrival to its reply, by method and status code.",
    labelNames: ["method", "code"] as const,
    buckets: RPC_BUCKETS,
    registers: [registry],
  });

  // Resolved once, so the pool gauges read synchronously at the start of a
  // scrape, before the callback count below borrows a connection from the pool.
  let cached: PoolLike | undefined;
  const current = async () => (cached ??= await pool());
  void current().catch(() => {});
  const poolGauge = (name: string, help: string, read: (p: PoolLike) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        // Synchronous once the pool is known (no await is reached).
        const p = cached ?? (await current().catch(() => undefined));
        if (p) this.set(read(p));
      },
    });
  poolGauge("cashier_db_pool_connections", "Connections the database pool holds (busy and idle).", (p) => p.totalCount);
  poolGauge("cashier_db_pool_idle_connections", "Connections idle in the database pool.", (p) => p.idleCount);
  poolGauge("cashier_db_pool_max_connections", "The database pool's size limit.", (p) => p.options.max ?? 0);
  poolGauge("cashier_db_pool_waiting_requests", "Queries waiting for a free connection: above 0 for long means the pool is too small.", (p) => p.waitingCount);

  new Gauge({
    name: "cashier_callbacks",
    help: "Platform callbacks in the database by kind and state (read at scrape time).",
    labelNames: ["kind", "state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const p = await current();
        const { rows } = await withTimeout(p.query("select kind, state, count(*)::int as n from callback group by kind, state"), COLLECT_TIMEOUT_MS);
        for (const r of rows) this.set({ kind: String(r.kind), state: String(r.state) }, Number(r.n));
      } catch {
        // No callback table yet (before its migration), or no database: no series, and the scrape still answers.
      }
    },
  });

  const authRefusals = new Counter({
    name: "cashier_rpc_auth_refusals_total",
    help: "gRPC calls refused for their bearer token, by why: missing, malformed, wrong, or throttled (the address is blocked after too many).",
    labelNames: ["reason"] as const,
    registers: [registry],
  });

  const record = (method: string, code: GrpcStatus, ms: number) => {
    const labels = { method: method.replace(/^\//, ""), code: GrpcStatus[code] ?? String(code) };
    requests.inc(labels);
    duration.observe(labels, ms / 1000);
  };
  return { registry, interceptor: observing(record), record, authRefused: (reason) => authRefusals.inc({ reason }) };
}
