/**
 * Where the run's shared cluster is described (the path .taprc's test-env
 * gives the test files as CASHIER_TEST_CLUSTER), and how it is taken down.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import type { SharedCluster } from "../test-database.ts";
import { dropTemplate } from "./template.ts";

const repo = new URL("../../..", import.meta.url).pathname;

/** Keep in step with .taprc's `test-env: CASHIER_TEST_CLUSTER=...`. */
export const RUN_CLUSTER_FILE = resolve(repo, ".tap/cashier-cluster.json");

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the host (it stops Postgres and removes its dir), or drops the template on DATABASE_URL. */
export async function releaseShared(c: SharedCluster): Promise<void> {
  if (c.hostPid === null) {
    await dropTemplate(c.adminUrl, c.template).catch((err: unknown) => process.stderr.write(`dropping ${c.template}: ${String(err)}\n`));
    return;
  }
  if (alive(c.hostPid)) {
    process.kill(c.hostPid, "SIGTERM");
    const end = Date.now() + 30_000;
    while (alive(c.hostPid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    if (alive(c.hostPid)) process.kill(c.hostPid, "SIGKILL");
  }
  // A host killed outright leaves its postmaster: an immediate shutdown (SIGQUIT) ends it.
  const pidFile = c.dir && resolve(c.dir, "pg", "postmaster.pid");
  if (pidFile && existsSync(pidFile)) {
    const postmaster = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    if (postmaster > 0 && alive(postmaster)) process.kill(postmaster, "SIGQUIT");
  }
  if (c.dir) rmSync(c.dir, { recursive: true, force: true });
}
