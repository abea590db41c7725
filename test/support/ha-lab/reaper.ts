/**
 * The HA lab's guard against its owner dying without a word (a test killed by
 * its runner's timeout, kill -9 of `npm run ha-lab`): a detached process that
 * watches the owner's pid and, once it is gone, kills every process the lab
 * started (their pids in `<dir>/pids.json`, and each node's postmaster) and
 * removes the lab's directory when the lab made it. A lab that stops cleanly
 * ends its reaper first.
 *
 * Usage: node reaper.ts <owner pid> <lab dir> <remove: 1 or 0>
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { signalPids } from "../child-pids.ts";
import { pidsOfNode } from "./node-pids.ts";

const [owner, dir, remove] = process.argv.slice(2);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function reap(): void {
  const file = join(dir, "pids.json");
  const pids: number[] = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
  const nodes = readdirSync(dir).filter((n) => /^node\d+$/.test(n));
  const all = [...pids, ...nodes.flatMap((n) => pidsOfNode(dir, n, undefined))];
  signalPids(all, "SIGCONT");
  signalPids(all, "SIGKILL");
  if (remove === "1") rmSync(dir, { recursive: true, force: true });
}

const timer = setInterval(() => {
  if (!existsSync(dir)) process.exit(0);
  if (alive(Number(owner))) return;
  clearInterval(timer);
  reap();
}, 1000);
