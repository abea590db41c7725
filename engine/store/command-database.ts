/**
 * The database for a command run beside (or without) the engine: DATABASE_URL
 * when set; otherwise the embedded Postgres of CASHIER_DATA_DIR, reached on
 * the port its postmaster.pid names while an engine runs it, or started for
 * the command's own use (and stopped after) when none does. Migrations are
 * applied under the engines' start-up lock, so a command on a fresh data dir
 * finds the tables it needs.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { MikroORM } from "@mikro-orm/postgresql";
import { type Config, embeddedDbDir } from "../shared/config/config.ts";
import { deriveKeys, loadMasterKey, type Keys } from "../security/keys.ts";
import { passwordOf, startEmbeddedPostgres, type EmbeddedDb } from "./embedded-postgres.ts";
import { migrate, openOrm, withStartupLock } from "./orm.ts";

export interface CommandDatabase {
  orm: MikroORM;
  keys: Keys;
  close(): Promise<void>;
}

/** The port of a running embedded cluster (line 4 of postmaster.pid), if its process is alive. */
function runningPort(clusterDir: string): number | undefined {
  const file = join(clusterDir, "postmaster.pid");
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

export async function openCommandDatabase(config: Config, log: (msg: string) => void): Promise<CommandDatabase> {
  let embedded: EmbeddedDb | undefined;
  let url = config.databaseUrl;
  if (!url) {
    const dir = embeddedDbDir(config);
    const port = runningPort(dir);
    if (port) url = `postgres://postgres:${await passwordOf(config.dataDir, port)}@127.0.0.1:${port}/cashier`;
    else {
      embedded = await startEmbeddedPostgres(dir, log);
      url = embedded.url;
    }
  }
  const orm = await openOrm(url, () => {}, { poolSize: 2, bounded: false });
  try {
    await withStartupLock(orm, () => migrate(orm, log));
    const master = await loadMasterKey(config.masterKey, config.dataDir);
    return {
      orm,
      keys: deriveKeys(master.key),
      async close() {
        await orm.close();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await orm.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw err;
  }
}
