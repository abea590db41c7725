/**
 * A process's children, read from /proc (no procps needed), and freezing a
 * process with its children so that none escapes: the parent is stopped
 * first, then its children are listed, so that a child forked meanwhile (a
 * postmaster starting a backend) is stopped too.
 */
import { readdirSync, readFileSync } from "node:fs";

/** The pids whose parent is `pid`, as /proc says now. */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // it ended while we read
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === pid) children.push(Number(entry));
  }
  return children;
}

/** Sends the signal to each pid that still exists. */
export function signalPids(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {}
  }
}

/** Stops each root, then its children as they are once it can fork no more; returns every pid stopped. */
export function freeze(roots: readonly number[]): number[] {
  signalPids(roots, "SIGSTOP");
  const pids = [...new Set([...roots, ...roots.flatMap(childPids)])];
  signalPids(pids, "SIGSTOP");
  return pids;
}
