/**
 * `npm run bench` itself, bounded (4 workers, 1 s per phase, two rounds): its
 * warm-up round (the real connectors' phases among them), the table with each phase's share of the floor (the
 * batched bound), the line of each round's ratios, the phases read by latency (one caller, an open loop), the
 * callbacks' drain and the goals. Only that the figures are there and sane is asserted, never a speed: the machine
 * running the tests may be busy.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import t from "tap";

const run = promisify(execFile);
const repo = new URL("../../..", import.meta.url).pathname;

t.test("the phases, their ratios to the floor and the rounds line", async (t) => {
  const env = {
    ...process.env,
    BENCH_PHASES: "edge,checkout,adyen,grpc,grpc-js,floor,floor-single,edge-c1,floor-c1,edge-open,floor-open,callbacks",
    BENCH_CALLBACKS: "200",
    BENCH_CALLBACKS_SLOW: "3",
    // A fixed rate: half of a 1-second peak measured by 4 workers on a busy machine could be under one a second.
    BENCH_OPEN_RATE: "5",
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
    "floor (batched, http on a worker)",
    "floor-single (http + 1 round trip per sale)",
  ]) {
    t.match(stderr, `[bench] ${phase}, warm-up round: `, `${phase}: a warm-up round, not counted`);
    const row = stdout.split("\n").find((l) => l.startsWith(phase));
    t.ok(row, `${phase}: a row in the table`);
    const cells = (row ?? "").slice(phase.length).trim().split(/\s+/);
    const [requests, errors, rate] = cells.map(Number);
    t.ok(requests > 0, `${phase}: ${requests} requests`);
    t.equal(errors, 0, `${phase}: no errors`);
    t.ok(rate > 0, `${phase}: ${rate} req/s`);
    // requests, errors, req/s, p50, p99, p99.9, vs raw (not run: -), vs floor
    t.match(cells[7], /^\d+\.\d%$/, `${phase}: its share of the floor`);
  }
  t.match(stdout, /^floor \(batched, http on a worker\)(\s+\S+){7}\s+100\.0%/m, "the floor is 100 % of itself");
  for (const phase of ["edge-c1 (http)", "floor-c1 (batched, http on a worker)"])
    t.match(stderr, `[bench] ${phase}, round 1: warm-up 0 s, then 1 s at concurrency 1`, `${phase}: one caller`);
  for (const phase of ["edge-open (http)", "floor-open (batched, http on a worker)"])
    t.match(
      stderr,
      new RegExp(`\\[bench\\] ${phase.replace(/[()]/g, "\\$&")}, round 1: warm-up 0 s, then 1 s at an open loop at \\d+ req/s`),
      `${phase}: an open loop`,
    );
  t.match(stdout, /^callbacks \(200 notifications to one platform answering at once/m, "the callbacks' drain");
  t.match(stdout, /^ {2}alone +\d+\/s {2}first after +\d+ ms {2}all after +\d+ ms {2}cpu [\d.]+ ms\/delivery$/m);
  t.match(stdout, /^goals \(median of rounds\):$/m, "the goals are printed");
  t.match(stdout, /^ {2}edge >= 60% of the batched bound by req\/s +[\d.]+% +(met|NOT met)$/m);
  t.match(stdout, /^ {2}a sale alone: edge p50 within 2 ms of the bound's +[+-][\d.]+ ms +(met|NOT met)$/m);
  t.match(stdout, /^ {2}callbacks >= 2,000 deliveries\/s to one fast platform +\d+\/s +(met|NOT met)$/m);
  t.match(stdout, /^grpc \(http2\) vs floor, each round: /m);
  t.notMatch(stdout, /^edge-c1 \(http\) vs floor/m, "a phase read by latency is left out of the rounds line");
  t.match(stdout, /^edge \(http\) vs floor, each round: [\d.]+%, [\d.]+% by req\/s; [\d.]+%, [\d.]+% by cpu ms\/req; median [\d.]+% and [\d.]+%$/m);
  t.match(stdout, /^run: +a warm-up round of 1 s per phase, then 1 s per phase/m);
});
