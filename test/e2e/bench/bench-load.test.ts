/**
 * The bench's load mode runs end to end, bounded (4 workers for 2 s): it
 * starts its own service, drives Process over gRPC and prints figures an
 * operator can read. Only their presence and sanity are asserted, never a
 * speed: the machine running the tests may be busy.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import t from "tap";

const run = promisify(execFile);
const repo = new URL("../../..", import.meta.url).pathname;

function figure(out: string, label: string): number {
  const m = new RegExp(`^${label.replace("/", "\\/")}:\\s+([0-9.]+)`, "m").exec(out);
  if (!m) throw new Error(`no "${label}:" line in:\n${out}`);
  return Number(m[1]);
}

t.test("--load grpc prints calls, calls/s, p50, p99 and no errors", async (t) => {
  const { stdout } = await run(process.execPath, ["test/bench/bench.ts", "--load", "grpc", "--concurrency", "4", "--duration", "2"], {
    cwd: repo,
    timeout: 150_000,
  });
  const calls = figure(stdout, "calls");
  const rate = figure(stdout, "calls/s");
  const p50 = figure(stdout, "p50 ms");
  const p99 = figure(stdout, "p99 ms");
  t.ok(calls > 0, `calls ${calls} > 0`);
  t.ok(rate > 0, `calls/s ${rate} > 0`);
  t.ok(p50 > 0 && p99 >= p50, `0 < p50 ${p50} <= p99 ${p99}`);
  t.equal(figure(stdout, "errors"), 0, "no gRPC errors");
  t.match(stdout, /^errors by code: -$/m);
  t.match(stdout, new RegExp(`^outcomes:\\s+APPROVED=${calls}$`, "m"), "every call approved");
  t.match(stdout, /concurrency 4, 2 s/);
});

t.test("--target outside 127.0.0.1 is refused before any load", async (t) => {
  const err = await run(process.execPath, ["test/bench/bench.ts", "--load", "grpc", "--target", "192.0.2.1:50051", "--token", "x"], { cwd: repo }).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  t.equal(err?.code, 2);
  t.match(err?.stderr, /--target must be 127\.0\.0\.1:PORT/);
});
