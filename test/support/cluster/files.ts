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
export const TEMPLATE = "cashier_template";
/** Where host.ts says why the cluster did not start. */
export const errorFileOf = (file: string) => `${file}.error`;
/** The host's pid, written by before.ts before the cluster is ready. */
export const hostFileOf = (file: string) => `${file}.host`;

/** True while a process with this pid exists (signal 0 only asks). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stopHost(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, "SIGTERM");
  const end = Date.now() + 30_000;
  while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  if (alive(pid)) process.kill(pid, "SIGKILL");
}

/** Stops the host (it stops Postgres and removes its dir), or drops the template on DATABASE_URL. */
async function releaseShared(c: SharedCluster): Promise<void> {
  if (c.hostPid === null) {
    await dropTemplate(c.adminUrl, c.template).catch((err: unknown) => process.stderr.write(`dropping ${c.template}: ${String(err)}\n`));
    return;
  }
  await stopHost(c.hostPid);
  // A host killed outright leaves its postmaster: an immediate shutdown (SIGQUIT) ends it.
  const pidFile = c.dir && resolve(c.dir, "pg", "postmaster.pid");
  if (pidFile && existsSync(pidFile)) {
    const postmaster = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    if (postmaster > 0 && alive(postmaster)) process.kill(postmaster, "SIGQUIT");
  }
  if (c.dir) rmSync(c.dir, { recursive: true, force: true });
}

/** Whatever this run (or a run killed before its after script) left: the cluster, its host, the files. */
export async function releaseLeftovers(file = RUN_CLUSTER_FILE): Promise<void> {
  if (existsSync(file)) await releaseShared(JSON.parse(readFileSync(file, "utf8")) as SharedCluster);
  if (existsSync(hostFileOf(file))) await stopHost(Number(readFileSync(hostFileOf(file), "utf8")));
  for (const f of [file, hostFileOf(file), errorFileOf(file), `${file}.tmp`]) rmSync(f, { force: true });
}
