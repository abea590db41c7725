/**
 * A newcomer's restarts: `npm start` comes up again by itself on the same
 * data dir after the Node process alone was killed (what the OOM killer does),
 * which leaves the embedded postmaster running as an orphan; a second Cashier
 * on a data dir in use, a data dir the postgres user cannot reach (as root)
 * and a taken port each stop the start with one line naming the cause and
 * the fix.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { until } from "../support/until.ts";
import t from "tap";
import { launch, stopProcess } from "../support/processes.ts";
import { post, saleBody, sign, type Reply } from "../support/wire.ts";

const repo = new URL("../..", import.meta.url).pathname;
const BASE_ENV = { EDGE_PORT: "0", ENGINE_PORT: "0", METRICS_PORT: "0", CASHIER_MERCHANTS_FILE: "", DATABASE_URL: "" };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freshDataDir(t: { teardown(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), "cashier-restart-"));
  chmodSync(dir, 0o755);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const postmasterPid = (dir: string) => Number(readFileSync(join(dir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);

/** Runs a start that must fail; resolves with its exit code and everything it printed. */
function failedStart(env: Record<string, string>): Promise<{ code: number | null; out: string; stderr: string }> {
  const child = spawn(process.execPath, ["engine/main.ts", "--with-edge"], {
    cwd: repo,
    env: { ...process.env, ...BASE_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let stderr = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => {
    out += d;
    stderr += d;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, stderr });
    }),
  );
}

t.test("kill -9 of the Node process alone under load: the next start stops the orphaned Postgres and loses nothing", async (t) => {
  const dir = freshDataDir(t);
  const env = { ...BASE_ENV, CASHIER_DATA_DIR: dir };
  const first = await launch("engine/main.ts", env, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(first.child, "SIGKILL"));
  const demo = JSON.parse(readFileSync(join(dir, "demo-merchant.json"), "utf8")) as { merchant_id: string; secret: string; frontend: string };
  const orphan = postmasterPid(dir);
  t.teardown(() => {
    if (alive(orphan)) process.kill(orphan, "SIGKILL");
  });

  // Eight platforms' worth of sales in flight when the Node process dies.
  const edge = `http://127.0.0.1:${first.line.edgePort}`;
  const answered: { body: Record<string, unknown>; reply: Reply }[] = [];
  let killed = false;
  const worker = async () => {
    while (!killed) {
      const body = saleBody({ merchant_id: demo.merchant_id, frontend: demo.frontend });
      try {
        const reply = await post(edge, sign(body, demo.secret));
        if (reply.http === 200) answered.push({ body, reply });
      } catch {
        return; // the connection died with the process
      }
    }
  };
  const load = Array.from({ length: 8 }, worker);
  t.ok(await until(async () => answered.length >= 40, 60_000, 20), "40 sales answered before the kill");
  killed = true;
  process.kill(first.child.pid!, "SIGKILL");
  await Promise.all(load);
  await stopProcess(first.child, "SIGKILL");
  t.ok(alive(orphan), "the embedded postmaster outlived its Node process");

  const second = await launch("engine/main.ts", env, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(second.child));
  t.notOk(alive(orphan), "the orphaned postmaster was stopped");
  t.match(second.out(), `stopping the embedded Postgres (PID ${orphan})`, "the start says what it stopped");
  t.not(postmasterPid(dir), orphan, "a new postmaster holds the cluster");

  const edge2 = `http://127.0.0.1:${second.line.edgePort}`;
  for (const { body, reply } of answered) {
    const again = await post(edge2, sign({ ...body, timestamp: Math.floor(Date.now() / 1000) }, demo.secret));
    t.same(
      [again.http, again.body.trace_id, again.body.transaction_status],
      [200, reply.body.trace_id, reply.body.transaction_status],
      `order ${body.order_id as string} answered before the kill is still there`,
    );
  }
  const fresh = await post(edge2, sign(saleBody({ merchant_id: demo.merchant_id, frontend: demo.frontend }), demo.secret));
  t.equal(fresh.body.transaction_status, "approved", "and a new sale is approved");

  const pm = postmasterPid(dir);
  await stopProcess(second.child);
  t.notOk(alive(pm), "a clean stop stops its Postgres");
  t.notOk(existsSync(join(dir, "cashier.pid")), "and gives the data dir up");
});

/**
 * The data dir the data-dir-in-use test leaves initialised and cleanly stopped: the taken-port test starts on
 * it, as a user's next start would, instead of paying for another initdb. Removed at the end of the file.
 */
let initialisedDir: string | undefined;
t.teardown(() => {
  if (initialisedDir) rmSync(initialisedDir, { recursive: true, force: true });
});

t.test("a second Cashier on a data dir in use stops with one line naming the running one", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cashier-restart-"));
  chmodSync(dir, 0o755);
  t.teardown(() => {
    if (initialisedDir !== dir) rmSync(dir, { recursive: true, force: true });
  });
  const first = await launch("engine/main.ts", { ...BASE_ENV, CASHIER_DATA_DIR: dir }, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(first.child));
  const pm = postmasterPid(dir);
  const second = await failedStart({ CASHIER_DATA_DIR: dir });
  t.equal(second.code, 1, "exits 1");
  t.match(
    second.stderr.trim(),
    new RegExp(`^cashier failed to start: another Cashier \\(PID ${first.child.pid}\\) is running on CASHIER_DATA_DIR ${dir}\\. Fix: `),
    "one line: the cause, the PID and the fix",
  );
  t.equal(second.stderr.trim().split("\n").length, 1, "one line on stderr");
  t.ok(alive(pm), "the running Cashier's Postgres is untouched");
  await stopProcess(first.child);
  if (first.child.exitCode === 0 && !alive(pm)) initialisedDir = dir;
});

t.test(
  "as root, a data dir under a directory the postgres user cannot enter stops with one line naming it",
  { skip: process.getuid?.() !== 0 && "only root runs Postgres as another user" },
  async (t) => {
    const locked = mkdtempSync(join(tmpdir(), "cashier-locked-")); // mode 0700, like mktemp -d
    t.teardown(() => rmSync(locked, { recursive: true, force: true }));
    const r = await failedStart({ CASHIER_DATA_DIR: join(locked, "data") });
    t.equal(r.code, 1, "exits 1");
    t.match(
      r.stderr.trim(),
      new RegExp(`^cashier failed to start: .*cannot enter ${locked} \\(mode 700\\).*Fix: chmod o\\+x ${locked}, or set CASHIER_DATA_DIR`),
      "names the directory and the fix",
    );
    t.equal(r.stderr.trim().split("\n").length, 1, "one line on stderr");

    chmodSync(locked, 0o711);
    const ok = await launch("engine/main.ts", { ...BASE_ENV, CASHIER_DATA_DIR: join(locked, "deeper", "data") }, "cashier ready", ["--with-edge"]);
    t.teardown(() => stopProcess(ok.child));
    t.pass("with the fix applied, the directories Cashier creates below it are made enterable and it starts");
  },
);

t.test("a taken edge port stops the start with the port and the fix", async (t) => {
  const dir = initialisedDir ?? freshDataDir(t);
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, "0.0.0.0", () => r()));
  t.teardown(() => blocker.close());
  const port = (blocker.address() as { port: number }).port;
  const r = await failedStart({ CASHIER_DATA_DIR: dir, EDGE_PORT: String(port) });
  t.equal(r.code, 1, "exits 1");
  t.match(r.stderr, new RegExp(`cashier failed to start: port ${port} .*already in use\\. Fix: .*EDGE_PORT`), "names the port and the setting");
  t.notOk(existsSync(join(dir, "cashier.pid")), "the failed start gave the data dir up");
});

t.test("an unreachable DATABASE_URL stops the start naming the database and the fix", async (t) => {
  const dir = freshDataDir(t);
  const r = await failedStart({ CASHIER_DATA_DIR: dir, DATABASE_URL: "postgres://cashier:x@127.0.0.1:1/cashier" });
  t.equal(r.code, 1, "exits 1");
  t.match(r.stderr, /cashier failed to start: the database refused the connection.*Fix: .*DATABASE_URL/, "names the database and the setting");
});
