/**
 * tap's `before` script (.taprc): one Postgres for the whole run. On
 * DATABASE_URL it makes the migrated template there; otherwise it starts
 * host.ts, detached, which holds an embedded cluster until after.ts (or the
 * end of the tap runner). Then it exits, and tap starts the test files, which
 * clone their databases from the template (test-database.ts).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { RUN_CLUSTER_FILE, releaseShared } from "./files.ts";
import { makeTemplate } from "./template.ts";
import type { SharedCluster } from "../test-database.ts";

const file = RUN_CLUSTER_FILE;
mkdirSync(dirname(file), { recursive: true });
// A run killed outright (SIGKILL) may have left its cluster: stop it first.
if (existsSync(file)) await releaseShared(JSON.parse(readFileSync(file, "utf8")) as SharedCluster);
rmSync(file, { force: true });

const started = Date.now();
if (process.env.DATABASE_URL) {
  const template = `cashier_template_${process.pid}`;
  await makeTemplate(process.env.DATABASE_URL, template);
  const { writeFileSync } = await import("node:fs");
  const described: SharedCluster = { adminUrl: process.env.DATABASE_URL, template, hostPid: null, dir: null };
  writeFileSync(file, JSON.stringify(described));
} else {
  const log = `${file}.log`;
  const out = openSync(log, "w");
  // The host must not be measured by tap's coverage nor hold its stdio: a clean environment, a log file.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_OPTIONS" && !k.startsWith("_TAPJS")));
  const host = spawn(process.execPath, [new URL("./host.ts", import.meta.url).pathname, file, String(process.ppid)], {
    detached: true,
    stdio: ["ignore", out, out],
    env,
  });
  let exited: number | null = null;
  host.on("exit", (code) => {
    exited = code ?? 1;
  });
  host.unref();
  while (!existsSync(file)) {
    if (exited !== null || Date.now() - started > 120_000) {
      process.stderr.write(`the shared test cluster did not start (see ${log}):\n${readFileSync(log, "utf8")}\n`);
      if (exited === null) host.kill("SIGTERM");
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
process.stdout.write(`# shared test cluster ready in ${Date.now() - started} ms (${process.env.DATABASE_URL ? "DATABASE_URL" : "embedded"})\n`);
