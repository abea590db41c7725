/**
 * tap's `before` script (.taprc): one Postgres for the whole run. On
 * DATABASE_URL it makes the migrated template there; otherwise it starts
 * host.ts, detached, which starts an embedded cluster and holds it until
 * after.ts (or the end of the tap runner), and returns at once: the test files
 * start while the cluster starts, and the first one that needs a database
 * waits for it (test-database.ts). The unit tier (CASHIER_TEST_TIER=unit,
 * `npm run test:unit`) starts none.
 */
import { spawn } from "node:child_process";
import { mkdirSync, openSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { SharedCluster } from "../test-database.ts";
import { RUN_CLUSTER_FILE, hostFileOf, releaseLeftovers } from "./files.ts";
import { makeTemplate } from "./template.ts";

const file = RUN_CLUSTER_FILE;
mkdirSync(dirname(file), { recursive: true });
// A run killed outright (SIGKILL) may have left its cluster: stop it first.
await releaseLeftovers();

if (process.env.CASHIER_TEST_TIER === "unit") {
  // `npm run test:unit`: pure files only, no Postgres (test-database.ts refuses a unit file that asks for one).
} else if (process.env.DATABASE_URL) {
  const template = `cashier_template_${process.pid}`;
  await makeTemplate(process.env.DATABASE_URL, template);
  const described: SharedCluster = { adminUrl: process.env.DATABASE_URL, template, hostPid: null, dir: null };
  writeFileSync(file, JSON.stringify(described));
} else {
  const log = `${file}.log`;
  const out = openSync(log, "w");
  // The host must not hold tap's stdio nor be instrumented as a test: a clean environment, a log file.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_OPTIONS" && !k.startsWith("_TAPJS")));
  const host = spawn(process.execPath, [new URL("./host.ts", import.meta.url).pathname, file, String(process.ppid)], {
    detached: true,
    stdio: ["ignore", out, out],
    env,
  });
  writeFileSync(hostFileOf(file), String(host.pid));
  host.unref();
}
