/**
 * Holds the run's shared embedded Postgres: started by before.ts as a
 * detached process (tap waits for its before script to exit, and the cluster
 * must outlive it), it starts the cluster, makes the migrated template,
 * writes the description file the test files read (test-database.ts), then
 * waits. It stops the cluster and removes its traces on SIGTERM (after.ts)
 * or as soon as the tap runner that started the run is gone (a run cut by
 * Ctrl-C or a kill leaves no Postgres behind).
 *
 * Usage: node host.ts <description file> <runner pid>
 */
import { chmodSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "../../../engine/store/embedded-postgres.ts";
import { type SharedCluster, withDatabase } from "../test-database.ts";
import { makeTemplate } from "./template.ts";

export const TEMPLATE = "cashier_template";

const [file, runner] = process.argv.slice(2);
const runnerPid = Number(runner);
const dir = mkdtempSync(join(tmpdir(), "cashier-test-cluster-"));
// The embedded cluster runs as the unprivileged "postgres" user when we are root.
chmodSync(dir, 0o755);

const cluster = await startEmbeddedPostgres(join(dir, "pg"), (m) => process.stderr.write(`${m}\n`));
let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await cluster.stop().catch((err: unknown) => process.stderr.write(`stopping the cluster: ${String(err)}\n`));
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));

try {
  const adminUrl = withDatabase(cluster.url, "postgres");
  await makeTemplate(adminUrl, TEMPLATE);
  const described: SharedCluster = { adminUrl, template: TEMPLATE, hostPid: process.pid, dir };
  // Written whole or not at all: a test file never reads half a description.
  writeFileSync(`${file}.tmp`, JSON.stringify(described));
  renameSync(`${file}.tmp`, file);
} catch (err) {
  process.stderr.write(`the shared test cluster did not start: ${err instanceof Error ? err.stack : String(err)}\n`);
  await stop(1);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
setInterval(() => {
  if (!alive(runnerPid)) {
    rmSync(file, { force: true });
    void stop(0);
  }
}, 1000);
