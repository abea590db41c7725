/**
 * Who owns a data dir, with real processes: a live owner keeps it; a dead
 * one, and one that is dead but not yet reaped by its parent (a zombie, as a
 * killed engine stays for a second or more under a slow init), does not, so a
 * supervisor's quick restart after a kill -9 is not refused.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { claimDataDir } from "../../../../engine/store/data-dir-owner.ts";
import { until } from "../../../support/until.ts";

const dir = mkdtempSync(join(tmpdir(), "cashier-owner-"));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** State letter and start time of a PID, from /proc. */
function stat(pid: number): { state: string; started: string } | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
    return { state: rest[0], started: rest[19] };
  } catch {
    return undefined;
  }
}

const ownedBy = (pid: number) => writeFileSync(join(dir, "cashier.pid"), `${JSON.stringify({ pid, started: stat(pid)?.started ?? "" })}\n`);

t.test("a zombie owner holds nothing; a live one keeps the data dir", async (t) => {
  // sh starts a child, then becomes `sleep`, which never reaps it: a zombie for 30 s. The child exits only once its
  // parent is `sleep` (a child that ended before the exec could be reaped by sh, and was, once, on a loaded machine).
  const script = 'p=$$; (until [ "$(cat /proc/$p/comm)" = sleep ]; do sleep 0.01; done) & echo $!; exec sleep 30';
  const parent = spawn("sh", ["-c", script], { stdio: ["ignore", "pipe", "ignore"] });
  t.teardown(() => parent.kill("SIGKILL"));
  const zombie = await new Promise<number>((resolve) => parent.stdout.once("data", (d) => resolve(Number(String(d).trim()))));
  t.ok(await until(async () => stat(zombie)?.state === "Z", 10_000), `PID ${zombie} is a zombie`);

  ownedBy(zombie);
  const claim = await claimDataDir(dir, join(dir, "pg"), () => {});
  t.pass("the data dir of a zombie owner is claimed");
  await claim.release();

  ownedBy(parent.pid!);
  await t.rejects(
    claimDataDir(dir, join(dir, "pg"), () => {}),
    /another Cashier \(PID \d+\) is running on CASHIER_DATA_DIR/,
    "a live owner keeps it",
  );
});
