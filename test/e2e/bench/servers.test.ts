/**
 * `npm run bench -- --servers` runs end to end, briefly (2 workers, 0.3 s a
 * row): both servers answer both RPCs and the table has its four rows with
 * calls and no errors. Only their presence is asserted, never a speed: the
 * machine running the tests may be busy.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import t from "tap";

const run = promisify(execFile);
const repo = new URL("../../..", import.meta.url).pathname;

t.test("--servers prints grpc-js and connect-node side by side for echo and process", async (t) => {
  const { stdout } = await run(process.execPath, ["test/bench/bench.ts", "--servers", "--seconds", "0.3", "--warmup", "0", "--concurrency", "2"], {
    cwd: repo,
    timeout: 170_000,
  });
  t.match(stdout, /^servers: closed loop, concurrency 2, 0 s warm-up \+ 0\.3 s per row, 127\.0\.0\.1$/m);
  t.match(stdout, /^rpc\s+server\s+calls\s+req\/s\s+server cpu ms\/call\s+p50 ms\s+p99 ms\s+errors$/m);
  for (const rpc of ["echo", "process"]) {
    for (const server of ["grpc-js", "connect-node"]) {
      const row = new RegExp(`^${rpc}\\s+${server}\\s+(\\d+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+(\\d+)$`, "m").exec(stdout);
      t.ok(row, `a ${rpc} row for ${server}`);
      if (!row) continue;
      t.ok(Number(row[1]) > 0, `${rpc} ${server}: calls answered`);
      t.equal(Number(row[6]), 0, `${rpc} ${server}: no errors`);
    }
  }
  t.notMatch(stdout, /first error/);
});

t.test("--servers refuses an unknown option before starting anything", async (t) => {
  const err = await run(process.execPath, ["test/bench/bench.ts", "--servers", "--target", "192.0.2.1:1"], { cwd: repo }).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  t.equal(err?.code, 1);
  t.match(err?.stderr, /unknown option --target/);
});
