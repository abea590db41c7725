/**
 * The run's shared cluster is thrown away at the end of the run, and no test
 * stops, freezes or kills it (the files that do own their cluster): so it
 * need not survive a power cut. Without the flushes to disk a commit costs a
 * round trip instead of a wait for the disk, and dropping a test database
 * (every file's teardown) well under a second instead of several under load
 * (docs/decisions/0008-fast-test-tier.md). Applied by host.ts only: a server
 * named by DATABASE_URL is the user's, and the clusters that files own test
 * the embedded default as a user runs it.
 */
import { adminQuery } from "../test-database.ts";

const SETTINGS = ["fsync = off", "synchronous_commit = off", "full_page_writes = off"];

export async function throwawaySettings(adminUrl: string): Promise<void> {
  for (const s of SETTINGS) await adminQuery(adminUrl, `alter system set ${s}`);
  await adminQuery(adminUrl, "select pg_reload_conf()");
}
