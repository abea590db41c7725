/**
 * `npm run bench -- --servers [--seconds S] [--warmup S] [--concurrency N]`:
 * grpc-js (our adapter, grpc-adapter.ts) against @connectrpc/connect-node's
 * server, serving the same protobuf-es descriptors and implementations in one
 * target process (servers-target.ts), for a trivial RPC (RoundTripService.Echo)
 * and for the real Process path (an approved card sale on the engine's
 * stores), side by side in one run. This is what decision record 0005
 * measures; re-run it when either library changes major version.
 *
 * Closed loop on 127.0.0.1 only: `--concurrency` workers (default 32) each
 * send the next call when the previous one answers, `--warmup` seconds
 * (default 1, not counted) then `--seconds` (default 5) per row; with
 * `--rounds N` the four rows are measured N times in turn and summed, so a
 * change in other load on the machine falls on both servers alike. The same
 * client (grpc-js with pre-encoded bytes) drives both servers, so the client's
 * cost is the same on both sides; "server cpu ms/call" is the target
 * process's CPU (every thread, not Postgres) over the measured window divided
 * by the calls answered OK, the figure least disturbed by other load.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { EngineService, ProcessRequestSchema, ProcessResponseSchema } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { loadRoundTrip } from "../support/round-trip-proto.ts";
import { orderId } from "../support/wire.ts";

interface Options {
  seconds: number;
  warmup: number;
  concurrency: number;
  rounds: number;
}

function parse(args: string[]): Options {
  const opts: Options = { seconds: 5, warmup: 1, concurrency: 32, rounds: 1 };
  for (let i = 0; i < args.length; i++) {
    const name = args[i];
    if (name === "--servers") continue;
    const key = name.replace(/^--/, "") as keyof Options;
    if (!(key in opts)) throw new Error(`unknown option ${name} (--seconds, --warmup, --concurrency, --rounds)`);
    const n = Number(args[++i]);
    const whole = key === "concurrency" || key === "rounds";
    const min = whole ? 1 : key === "seconds" ? 0.1 : 0;
    if (!Number.isFinite(n) || n < min || (whole && !Number.isInteger(n))) throw new Error(`${name} must be ${whole ? "an integer" : "a number"} >= ${min}`);
    opts[key] = n;
  }
  return opts;
}

/** One call: undefined when it succeeded, else why not. */
type Shot = () => Promise<string | undefined>;

interface Row {
  rpc: string;
  server: string;
  ok: number;
  errors: number;
  seconds: number;
  cpuMs: number;
  latencies: number[];
  firstError?: string;
}

/** The target process and a way to read its CPU time. */
async function startTarget() {
  const child = spawn(process.execPath, [new URL("./servers-target.ts", import.meta.url).pathname], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const queue: { resolve: (line: string) => void; reject: (err: Error) => void }[] = [];
  let exited: Error | undefined;
  lines.on("line", (line) => queue.shift()?.resolve(line));
  child.once("exit", (code) => {
    exited = new Error(`the target exited (${code})`);
    for (const waiting of queue.splice(0)) waiting.reject(exited);
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      if (exited) reject(exited);
      else queue.push({ resolve, reject });
    });
  const ready = JSON.parse(await next()) as { grpcJs: number; connect: number; token: string };
  return {
    ...ready,
    async cpuMicros(): Promise<number> {
      const answer = next();
      child.stdin.write("cpu\n");
      return (JSON.parse(await answer) as { cpuMicros: number }).cpuMicros;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once("exit", () => resolve());
        child.stdin.end("stop\n");
      }),
  };
}

function shots(port: number, token: string) {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${token}`);
  const identity = (b: Buffer) => b;
  const call = (path: string, bytes: Uint8Array, check: (reply: Buffer) => string | undefined): Promise<string | undefined> =>
    new Promise((resolve) => {
      client.makeUnaryRequest(path, identity, identity, Buffer.from(bytes), metadata, { deadline: Date.now() + 10_000 }, (err, reply) => {
        if (err) resolve(`${grpc.status[err.code] ?? err.code}: ${err.details}`.slice(0, 120));
        else resolve(reply ? check(reply) : "empty reply");
      });
    });
  const rt = loadRoundTrip();
  const echoBytes = toBinary(rt.EchoRequest, create(rt.EchoRequest, { choice: { case: "text", value: "ping" }, tags: ["a", "b"] } as never));
  const echo: Shot = () =>
    call("/cashier.roundtrip.v1.RoundTripService/Echo", echoBytes, (reply) => (reply.length > echoBytes.length ? undefined : "short echo"));
  const processPath = `/${EngineService.typeName}/${EngineService.method.process.name}`;
  const sale: Shot = () => {
    const request = create(ProcessRequestSchema, {
      merchantId: "m-test",
      orderId: orderId("servers"),
      transactionType: TransactionType.SALE,
      amount: { amountMinor: 1050n, currency: "USD" },
      card: { number: "4111111111111111", cvv: "123", expiry: "12/2030" },
      customer: { pin: "cust-42", email: "jane@example.com", firstName: "Jane", lastName: "Doe", country: "GB", zip: "SW1A1AA" },
      frontend: "test-usd",
      returnUrl: "https://merchant.example/return",
      timestamp: BigInt(Math.floor(Date.now() / 1000)),
      version: "1.0",
    });
    return call(processPath, toBinary(ProcessRequestSchema, request), (reply) => {
      const status = fromBinary(ProcessResponseSchema, reply).transaction?.status;
      return status === TransactionStatus.APPROVED ? undefined : `transaction ${status === undefined ? "missing" : TransactionStatus[status]}`;
    });
  };
  return { echo, sale, close: () => client.close() };
}

async function measure(rpc: string, server: string, shot: Shot, opts: Options, cpuMicros: () => Promise<number>): Promise<Row> {
  const row: Row = { rpc, server, ok: 0, errors: 0, seconds: opts.seconds, cpuMs: 0, latencies: [] };
  let phase: "warmup" | "measure" | "done" = opts.warmup > 0 ? "warmup" : "measure";
  const worker = async () => {
    while (phase !== "done") {
      const counted = phase === "measure";
      const started = performance.now();
      const failure = await shot();
      if (!counted || phase === "warmup") continue;
      if (failure === undefined) {
        row.ok += 1;
        row.latencies.push(performance.now() - started);
      } else {
        row.errors += 1;
        row.firstError ??= failure;
      }
    }
  };
  const workers = Array.from({ length: opts.concurrency }, worker);
  if (opts.warmup > 0) await new Promise((r) => setTimeout(r, opts.warmup * 1000));
  phase = "measure";
  const cpuBefore = await cpuMicros();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, opts.seconds * 1000));
  phase = "done";
  row.seconds = (performance.now() - started) / 1000;
  row.cpuMs = ((await cpuMicros()) - cpuBefore) / 1000;
  await Promise.all(workers);
  return row;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function table(rows: Row[]): string {
  const head = ["rpc", "server", "calls", "req/s", "server cpu ms/call", "p50 ms", "p99 ms", "errors"];
  const body = rows.map((r) => {
    const sorted = [...r.latencies].sort((a, b) => a - b);
    return [
      r.rpc,
      r.server,
      String(r.ok),
      (r.ok / r.seconds).toFixed(0),
      r.ok > 0 ? (r.cpuMs / r.ok).toFixed(3) : "-",
      percentile(sorted, 50).toFixed(2),
      percentile(sorted, 99).toFixed(2),
      String(r.errors),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  return [head, ...body]
    .map((cells) =>
      cells
        .map((c, i) => c.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export async function serversMain(args: string[]): Promise<void> {
  const opts = parse(args);
  const target = await startTarget();
  const sides = [
    { server: "grpc-js", ...shots(target.grpcJs, target.token) },
    { server: "connect-node", ...shots(target.connect, target.token) },
  ];
  const rows = new Map<string, Row>();
  try {
    for (let round = 0; round < opts.rounds; round++) {
      for (const rpc of ["echo", "process"] as const) {
        for (const side of sides) {
          const r = await measure(rpc, side.server, rpc === "echo" ? side.echo : side.sale, opts, target.cpuMicros);
          const sum = rows.get(`${rpc} ${side.server}`);
          if (!sum) rows.set(`${rpc} ${side.server}`, r);
          else {
            sum.ok += r.ok;
            sum.errors += r.errors;
            sum.seconds += r.seconds;
            sum.cpuMs += r.cpuMs;
            sum.latencies.push(...r.latencies);
            sum.firstError ??= r.firstError;
          }
        }
      }
    }
  } finally {
    for (const side of sides) side.close();
    await target.stop();
  }
  const all = [...rows.values()];
  const rounds = opts.rounds > 1 ? `, ${opts.rounds} rounds summed` : "";
  console.log(`servers: closed loop, concurrency ${opts.concurrency}, ${opts.warmup} s warm-up + ${opts.seconds} s per row${rounds}, 127.0.0.1`);
  console.log(table(all));
  for (const r of all) if (r.firstError) console.log(`  ${r.rpc} ${r.server} first error: ${r.firstError}`);
  if (all.some((r) => r.ok === 0)) process.exitCode = 1;
}
