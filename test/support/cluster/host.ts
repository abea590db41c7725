/**
 * Holds the run's shared embedded Postgres: started by before.ts as a
 * detached process (tap waits for its before script to exit, and the cluster
 * must outlive it), it starts the cluster and makes the migrated template
 * while the first test files already run (pure ones need no database), then
 * writes the description file that test-database.ts waits for, or an error
 * file saying why it could not. It stops the cluster and removes its traces
 * on SIGTERM (after.ts), or as soon as the tap runner that started the run is
 * gone (a run cut by Ctrl-C leaves no Postgres behind).
 *
 * Usage: node host.ts <description file> <runner pid>
 */
import { chmodSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres, type EmbeddedDb } from "../../../engine/store/embedded-postgres.ts";
import { type SharedCluster, withDatabase } from "../test-database.ts";
import { TEMPLATE, alive, errorFileOf } from "./files.ts";
import { makeTemplate } from "./template.ts";
import { throwawaySettings } from "./throwaway-settings.ts";

const [file, runner] = process.argv.slice(2);
const runnerPid = Number(runner);
const dir = mkdtempSync(join(tmpdir(), "cashier-test-cluster-"));
// The embedded cluster runs as the unprivileged "postgres" user when we are root.
chmodSync(dir, 0o755);

let cluster: EmbeddedDb | undefined;
let stopWanted = false;
let stopped = false;
/** Stops the cluster (now, or as soon as it has started) and exits. */
async function stop(code: number): Promise<void> {
  stopWanted = true;
  if (!cluster || stopped) return;
  stopped = true;
  rmSync(file, { force: true });
  await cluster.stop().catch((err: unknown) => process.stderr.write(`stopping the cluster: ${String(err)}\n`));
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));

setInterval(() => {
  if (!alive(runnerPid)) void stop(0);
}, 1000);

try {
  cluster = await startEmbeddedPostgres(join(dir, "pg"), (m) => process.stderr.write(`${m}\n`));
  if (stopWanted) await stop(0);
  const adminUrl = withDatabase(cluster.url, "postgres");
  await throwawaySettings(adminUrl);
  await makeTemplate(adminUrl, TEMPLATE);
  const described: SharedCluster = { adminUrl, template: TEMPLATE, hostPid: process.pid, dir };
  // Written whole or not at all: a test file never reads half a description.
  writeFileSync(`${file}.tmp`, JSON.stringify(described));
  renameSync(`${file}.tmp`, file);
  if (stopWanted) await stop(0);
} catch (err) {
  const why = `the run's shared test cluster did not start: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`${why}\n${err instanceof Error ? err.stack : ""}\n`);
  writeFileSync(errorFileOf(file), why);
  if (cluster) await stop(1);
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}
