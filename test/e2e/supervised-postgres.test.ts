/**
 * The embedded Postgres under `npm start` is supervised (issue 31, point 6):
 * a kill -9 of its postmaster takes health to NOT_SERVING and answers sales
 * with a retryable 503 while it is down; it is started again by itself, health
 * is SERVING again, sales are approved again with no restart of Cashier, and
 * every sale acknowledged before, during or after is still there. A Postgres
 * that cannot come back (its data directory gone) makes Cashier exit 1 with
 * one line saying so, so that its own supervisor restarts it.
 */
import { spawn } from "node:child_process";
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { until } from "../support/until.ts";
import { alive, healthy, postmasterPid, type SaleReply, sale, simPid, startCashier } from "../support/supervised.ts";

/**
 * Holds the cluster's restart back until `release()`: a process of the cluster's own user that postmaster.pid now
 * names, which a starting Postgres takes for another postmaster on its data directory ("lock file already exists").
 */
function holdRestart(dir: string): { release(): void } {
  const { uid, gid } = statSync(join(dir, "pg"));
  const own = process.getuid?.() === uid ? {} : { uid, gid };
  const sleeper = spawn("sleep", ["600"], { stdio: "ignore", ...own });
  const file = join(dir, "pg", "postmaster.pid");
  const lines = readFileSync(file, "utf8").split("\n");
  lines[0] = String(sleeper.pid);
  writeFileSync(file, lines.join("\n"));
  return { release: () => sleeper.kill("SIGKILL") };
}

t.test("kill -9 of the embedded Postgres: NOT_SERVING and 503 while down, then back with no restart, nothing acknowledged lost", async (t) => {
  const s = await startCashier(t);
  const engine = s.launched.child.pid!;
  const answered: SaleReply[] = [];
  const others: SaleReply[] = [];
  let loading = true;
  // Four platforms selling all along: before, during and after the outage.
  const worker = async () => {
    while (loading) {
      const r = await sale(s);
      (r.http === 200 ? answered : others).push(r);
    }
  };
  const load = Array.from({ length: 4 }, worker);
  t.ok(await until(async () => answered.length >= 20, 120_000, 20), "20 sales answered before the kill");

  const first = postmasterPid(s.dir);
  const held = holdRestart(s.dir);
  t.teardown(() => held.release());
  process.kill(first, "SIGKILL");
  t.ok(await until(async () => !(await healthy(s.engineHost)), 60_000), "health says NOT_SERVING while Postgres is down");
  const down = await sale(s);
  t.same([down.http, down.body.status, down.retryAfter], [503, -2, "5"], "a sale meanwhile: 503, status -2, Retry-After");
  t.match(s.launched.out(), /the embedded Postgres ended \(killed by SIGKILL\); restarting it in 500 ms/, "one line says it ended");

  held.release();
  t.ok(await until(async () => await healthy(s.engineHost), 120_000), "health is SERVING again");
  t.not(postmasterPid(s.dir), first, "a new postmaster holds the cluster");
  t.ok(alive(engine), "with the same Cashier process");
  t.match(s.launched.out(), /the embedded Postgres is running again/, "one line says it is back");
  const before = answered.length;
  t.ok(await until(async () => answered.length >= before + 20, 120_000, 20), "20 more sales approved");
  loading = false;
  await Promise.all(load);

  t.same(
    others.filter((r) => r.http !== 503),
    [],
    "every other reply was a retryable 503: never a 500",
  );
  t.ok(
    others.every((r) => r.body.status === -2 && r.retryAfter === "5"),
    "each with status -2 and Retry-After",
  );
  for (const r of answered) {
    const again = await sale(s, r.sent);
    t.same(
      [again.http, again.body.trace_id, again.body.transaction_status],
      [200, r.body.trace_id, r.body.transaction_status],
      `order ${String(r.sent.order_id)} answered ${String(r.body.transaction_status)} is still there`,
    );
  }
});

t.test("a Postgres that cannot come back: Cashier exits 1 with one line saying what and why", async (t) => {
  const s = await startCashier(t);
  const child = s.launched.child;
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const sim = await simPid(child.pid!);
  // Its data directory gone: every start of the cluster fails at once.
  renameSync(join(s.dir, "pg"), join(s.dir, "pg-gone"));
  process.kill(Number(readFileSync(join(s.dir, "pg-gone", "postmaster.pid"), "utf8").split("\n")[0]), "SIGKILL");
  t.equal(await exited, 1, "exits 1");
  const fatal = s.launched
    .out()
    .split("\n")
    .filter((l) => l.includes('"level":"fatal"'));
  t.equal(fatal.length, 1, "one fatal line");
  t.match(
    JSON.parse(fatal[0]).msg,
    /^the embedded Postgres could not be restarted: 6 failures within 120 s \(last: the embedded Postgres in \S+ did not start again: .*\); exiting so that a supervisor restarts Cashier$/,
    "it names the process, the failures and the last reason",
  );
  t.notMatch(fatal[0], /postgres:\/\/|password/i, "and no secret");
  t.ok(sim !== undefined && (await until(async () => !alive(sim), 30_000)), "the acquirer simulator's child is gone with it");
});
