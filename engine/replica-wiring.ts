/**
 * The Backoffice's replica reads, wired: with DATABASE_READ_URL, the search,
 * export and dashboard stores on the read pool (engine/store/read-orm.ts)
 * beside the primary's, and the router that picks one per read
 * (engine/store/replica-reads.ts); without it, the primary's alone. engine.ts
 * is the caller.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Config } from "./shared/config/config.ts";
import type { Logger } from "./shared/runtime/log.ts";
import type { ConsoleReadPorts } from "./console/ports/read-replica.ts";
import { PgBackofficeStore } from "./console/store/backoffice-store.ts";
import { PgOrderStore } from "./payments/store/order-store.ts";
import { recordReplicaFallback } from "./runtime/metrics.ts";
import { openReadOrm, readServingUrl } from "./store/read-orm.ts";
import type { Query } from "./store/replica-lag.ts";
import { type ReplicaReads, replicaReads } from "./store/replica-reads.ts";

/** One statement on an ORM's pool, outside any transaction. */
const queryOn =
  (orm: MikroORM): Query =>
  (sql) =>
    orm.em.fork().execute(sql);

/**
 * The console's reads, and what closes the read pool. The pool connects lazily: opening it here makes no connection,
 * so a start that fails after it leaves nothing open, and a replica that is down delays no start.
 */
export async function openReplicaReads(
  config: Config,
  log: Logger,
  db: { databaseUrl: string; servingUrl: string; orm: MikroORM },
): Promise<{ reads: ReplicaReads<ConsoleReadPorts>; close(): Promise<void> }> {
  const primary: ConsoleReadPorts = { orders: new PgOrderStore(db.orm), backoffice: new PgBackofficeStore(db.orm) };
  const readLog = log.child({ component: "replica-reads" });
  let readOrm: MikroORM | undefined;
  if (config.databaseReadUrl) {
    const url = readServingUrl(config.databaseReadUrl, db.databaseUrl, db.servingUrl);
    readOrm = await openReadOrm(url, (m) => readLog.info(m));
    const u = new URL(url);
    readLog.info(
      { host: decodeURIComponent(u.hostname), port: u.port, user: decodeURIComponent(u.username) },
      "the Backoffice's searches, exports and dashboard read the read replica (DATABASE_READ_URL)",
    );
  }
  const reads = replicaReads<ConsoleReadPorts>({
    primary,
    primaryQuery: queryOn(db.orm),
    replica: readOrm ? { ports: { orders: new PgOrderStore(readOrm), backoffice: new PgBackofficeStore(readOrm) }, query: queryOn(readOrm) } : undefined,
    log: readLog,
    onFallback: recordReplicaFallback,
  });
  return { reads, close: async () => readOrm?.close() };
}
