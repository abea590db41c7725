/**
 * One writer per ledger: the ledger writes at the end it knows, so a second
 * simulator on the same data dir (an engine restarted while its old child is
 * still closing) must wait for the first to let go. The lock is a file made
 * with O_EXCL holding the owner's pid; a lock whose pid is gone (a simulator
 * killed with -9) is taken over.
 */
import { closeSync, constants, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock at `file`, waiting up to `waitMs` for a living owner to release it; returns its release. */
export async function lockLedger(file: string, waitMs = 10_000): Promise<() => void> {
  const end = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let owner = Number.NaN;
    try {
      owner = Number(readFileSync(file, "utf8"));
    } catch {}
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
      try {
        unlinkSync(file);
      } catch {}
      continue;
    }
    if (Date.now() > end) throw new Error(`another acquirer simulator (pid ${owner}) holds the ledger's lock ${file}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
