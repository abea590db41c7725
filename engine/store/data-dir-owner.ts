/**
 * One Cashier at a time on a data dir, and nothing left behind by one that
 * died. The embedded Postgres is a child process: when Cashier is killed
 * alone (kill -9, the OOM killer), its postmaster lives on as an orphan
 * holding the cluster, and a new Cashier could not start Postgres there.
 *
 * `<data dir>/cashier.pid` records the owner (PID and the kernel's start time
 * of that PID, so a reused PID is not mistaken for it). At start:
 * - a live owner that is not this process: refuse, naming its PID;
 * - a postmaster running on our cluster (its postmaster.pid names the
 *   cluster, and the PID is a postgres process) whose parent is not this
 *   process: its Cashier is gone, so it is stopped (fast shutdown, then
 *   immediate) before the new start.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { StartError } from "../shared/runtime/start-error.ts";

interface Owner {
  pid: number;
  started: string;
}

const OWNER_FILE = "cashier.pid";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // A zombie (state Z: exited, not yet reaped by its parent) still answers signal 0. After a kill -9 a slow
  // parent (a container's init) can leave it so for a second or more: it holds nothing and runs nothing.
  return procStat(pid)?.[0] !== "Z";
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** The kernel's start time of a PID ("" where /proc is not there). */
function startTime(pid: number): string {
  return procStat(pid)?.[19] ?? "";
}

function parentOf(pid: number): number | undefined {
  const fromProc = procStat(pid)?.[1];
  if (fromProc) return Number(fromProc);
  try {
    return Number(execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" }).trim());
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    try {
      return execFileSync("ps", ["-o", "command=", "-p", String(pid)], { encoding: "utf8" });
    } catch {
      return "";
    }
  }
}

async function readOwner(dataDir: string): Promise<Owner | undefined> {
  try {
    const o = JSON.parse(await readFile(join(dataDir, OWNER_FILE), "utf8")) as Partial<Owner>;
    return typeof o.pid === "number" ? { pid: o.pid, started: String(o.started ?? "") } : undefined;
  } catch {
    return undefined;
  }
}

const isLive = (o: Owner) => alive(o.pid) && (o.started === "" || startTime(o.pid) === o.started);

/** The postmaster that postmaster.pid names, if it runs on this cluster. */
async function runningPostmaster(clusterDir: string): Promise<number | undefined> {
  let lines: string[];
  try {
    lines = (await readFile(join(clusterDir, "postmaster.pid"), "utf8")).split("\n");
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined;
  if (resolve(lines[1] ?? "") !== resolve(clusterDir)) return undefined;
  return commandOf(pid).includes("postgres") ? pid : undefined;
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) if (!alive(pid)) return true;
  return !alive(pid);
}

async function stopOrphan(pid: number, clusterDir: string): Promise<void> {
  process.kill(pid, "SIGINT"); // fast shutdown: roll back open transactions, checkpoint, exit
  if (await waitForExit(pid, 20_000)) return;
  process.kill(pid, "SIGQUIT"); // immediate shutdown: crash recovery at the next start
  if (await waitForExit(pid, 5_000)) return;
  throw new StartError(
    `the embedded Postgres (PID ${pid}) left running on ${clusterDir} by a Cashier that was killed did not stop`,
    `stop it (kill -9 ${pid}) and start again`,
  );
}

/**
 * Claims `dataDir` for this process before its embedded Postgres starts, first
 * stopping the orphaned postmaster of a dead owner. `release` gives it up.
 */
export async function claimDataDir(dataDir: string, clusterDir: string, log: (msg: string) => void): Promise<{ release(): Promise<void> }> {
  const owner = await readOwner(dataDir);
  if (owner && owner.pid !== process.pid && isLive(owner)) {
    throw new StartError(
      `another Cashier (PID ${owner.pid}) is running on CASHIER_DATA_DIR ${dataDir}`,
      `stop it first (kill ${owner.pid}), or give this one another CASHIER_DATA_DIR`,
    );
  }
  const orphan = await runningPostmaster(clusterDir);
  if (orphan !== undefined && parentOf(orphan) !== process.pid) {
    log(`stopping the embedded Postgres (PID ${orphan}) that a Cashier which ended without stopping it left running on ${clusterDir}`);
    await stopOrphan(orphan, clusterDir);
  }
  const me: Owner = { pid: process.pid, started: startTime(process.pid) };
  await writeFile(join(dataDir, OWNER_FILE), `${JSON.stringify(me)}\n`);
  return {
    async release() {
      const now = await readOwner(dataDir);
      if (now?.pid === process.pid) await rm(join(dataDir, OWNER_FILE), { force: true });
    },
  };
}
