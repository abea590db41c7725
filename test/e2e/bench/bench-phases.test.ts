/**
 * `npm run bench` itself, bounded (4 workers, 1 s per phase, two rounds): its
 * warm-up round (the real connectors' phases among them), the table with each phase's share of the floor, and the line
 * of each round's ratios. Only that the figures are there and sane is
 * asserted, never a speed: the machine running the tests may be busy.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import t from "tap";

const run = promisify(execFile);
const repo = new URL("../../..", import.meta.url).pathname;

t.test("the phases, their ratios to the floor and the rounds line", async (t) => {
  const env = {
    ...process.env,
    BENCH_PHASES: "edge,checkout,adyen,grpc,grpc-js,floor",
    BENCH_ROUNDS: "2",
    BENCH_SECONDS: "1",
    BENCH_WARMUP_SECONDS: "0",
    BENCH_WARMUP_ROUND_SECONDS: "1",
    BENCH_CONCURRENCY: "4",
    BENCH_AFTER_SECONDS: "0",
  };
  const { stdout, stderr } = await run(process.execPath, ["test/bench/bench.ts"], { cwd: repo, env, timeout: 240_000 });
  // The gRPC path twice: by a bare HTTP/2 client, as the floor is called by a bare HTTP/1 one, and by grpc-js's client.
  // Checkout.com's and Adyen's connectors against the acquirer simulator's dialects, beside the simulator's own.
  for (const phase of [
    "edge (http)",
    "checkout (cko-bench, http)",
    "adyen (adyen-bench, http)",
    "grpc (http2)",
    "grpc (grpc-js)",
    "floor (http + 1 round trip)",
  ]) {
    t.match(stderr, `[bench] ${phase}, warm-up round: `, `${phase}: a warm-up round, not counted`);
    const row = stdout.split("\n").find((l) => l.startsWith(phase));
    t.ok(row, `${phase}: a row in the table`);
    const cells = (row ?? "").slice(phase.length).trim().split(/\s+/);
    const [requests, errors, rate] = cells.map(Number);
    t.ok(requests > 0, `${phase}: ${requests} requests`);
    t.equal(errors, 0, `${phase}: no errors`);
    t.ok(rate > 0, `${phase}: ${rate} req/s`);
    t.match(cells[6], /^\d+\.\d%$/, `${phase}: its share of the floor`);
  }
  t.match(stdout, /^floor \(http \+ 1 round trip\)(\s+\S+){6}\s+100\.0%/m, "the floor is 100 % of itself");
  t.match(stdout, /^grpc \(http2\) vs floor, each round: /m);
  t.match(stdout, /^edge \(http\) vs floor, each round: [\d.]+%, [\d.]+% by req\/s; [\d.]+%, [\d.]+% by cpu ms\/req; median [\d.]+% and [\d.]+%$/m);
  t.match(stdout, /^run: +a warm-up round of 1 s per phase, then 1 s per phase/m);
});
