/**
 * The read pool: a second, small MikroORM on DATABASE_READ_URL (a streaming
 * replica), for the Backoffice's reads that may be a few seconds old
 * (engine/store/replica-reads.ts says which). Every session it opens is
 * read-only (`default_transaction_read_only`, sent at the connection's
 * start), so that a write that strayed onto this path is refused by Postgres
 * even where the URL reaches a primary (a pooler's routing after a failover,
 * or a mistaken URL), never carried out beside the primary's bookkeeping.
 *
 * It connects lazily: a replica that is down at start delays nothing; its reads
 * fall back to the primary until it answers.
 */
import { MikroORM } from "@mikro-orm/postgresql";
import { ENTITIES } from "./entities/all-entities.ts";
import { QUERY_TIMEOUT_MS, STATEMENT_TIMEOUT_MS } from "./orm.ts";
import { serviceRoleUrl } from "./service-role.ts";

/** Connections at most: the console's reads are few and sequential (an export reads page after page). */
export const READ_POOL_SIZE = 4;

/**
 * Longest wait for a connection to the replica: shorter than the primary's, as a replica that does not answer only
 * delays a page that then reads the primary.
 */
export const READ_CONNECT_WAIT_MS = 2000;

/** The start-up options of every read session: read-only, and the server's own bound on a statement. */
export const READ_SESSION_OPTIONS = `-c default_transaction_read_only=on -c statement_timeout=${STATEMENT_TIMEOUT_MS}`;

/** The name the read sessions show in pg_stat_activity, on the replica or wherever the URL leads. */
export const READ_APPLICATION_NAME = "cashier-replica-reads";

/** Opens the read pool (no connection is made until the first read). */
export async function openReadOrm(url: string, log: (msg: string) => void): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: url,
    entities: [...ENTITIES],
    pool: { min: 0, max: READ_POOL_SIZE },
    driverOptions: {
      connectionTimeoutMillis: READ_CONNECT_WAIT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      options: READ_SESSION_OPTIONS,
      application_name: READ_APPLICATION_NAME,
    },
    // The ORM's check at the first connection, which would CREATE DATABASE where it is missing: never on this path.
    ensureDatabase: false,
    logger: log,
    discovery: { warnWhenNoEntities: false },
    debug: false,
    allowGlobalContext: false,
  });
}

/** User, password and database of a URL: what says two URLs sign in alike. */
const who = (url: string) => {
  const u = new URL(url);
  return [decodeURIComponent(u.username), decodeURIComponent(u.password), decodeURIComponent(u.pathname.slice(1))].join("\u0000");
};

/**
 * The URL the read pool signs in with. When the engine serves as the database's service role (the primary's URL
 * names its owner: engine/store/service-role.ts) and the replica's URL names the same owner, password and
 * database, the reads sign in as that service role too (roles and their passwords are replicated with the rest):
 * no more right on the replica than on the primary. Otherwise the replica's URL as given.
 */
export function readServingUrl(readUrl: string, databaseUrl: string, servingUrl: string): string {
  if (servingUrl === databaseUrl || who(readUrl) !== who(databaseUrl)) return readUrl;
  return serviceRoleUrl(readUrl);
}
