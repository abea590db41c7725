/**
 * The processes of one HA lab node: its Patroni, its postmaster (read from
 * the data dir's postmaster.pid, since Patroni starts it) and the
 * postmaster's children (backends, WAL sender and receiver...), for the
 * faults that kill or freeze a whole node at once.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { childPids } from "../child-pids.ts";

/**
 * The postmaster's pid from `<dir>/<node>/data/postmaster.pid`, when there is one and that process is a postgres
 * (a pid file a killed postmaster left behind may name a pid since given to another process).
 */
export function postmasterPid(dir: string, node: string): number | undefined {
  const file = join(dir, node, "data", "postmaster.pid");
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres") ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Patroni (when its pid is known), the postmaster and their children: every process of the node. */
export function pidsOfNode(dir: string, node: string, patroniPid: number | undefined): number[] {
  const roots = [patroniPid, postmasterPid(dir, node)].filter((p): p is number => p !== undefined);
  return [...new Set([...roots, ...roots.flatMap(childPids)])];
}
