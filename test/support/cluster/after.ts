/**
 * tap's `after` script (.taprc): stops the run's shared cluster (or drops
 * the template on DATABASE_URL) and removes its description file.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { RUN_CLUSTER_FILE, releaseShared } from "./files.ts";
import type { SharedCluster } from "../test-database.ts";

if (existsSync(RUN_CLUSTER_FILE)) {
  await releaseShared(JSON.parse(readFileSync(RUN_CLUSTER_FILE, "utf8")) as SharedCluster);
  rmSync(RUN_CLUSTER_FILE, { force: true });
}
