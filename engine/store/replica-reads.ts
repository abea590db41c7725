/**
 * Reads that may be served by the read replica, with the primary as the
 * fallback: each read measures the replica's lag first (replica-lag.ts) and
 * returns it with the answer, so that a page can say its figures may be
 * behind.
 *
 * A replica that cannot be used for a read (it refuses or drops the
 * connection, does not answer in time, is not admitted, or cancels the query
 * for a conflict with its recovery) does not fail the page: that read runs on
 * the primary, is counted (cashier_db_replica_fallbacks_total), and the first
 * such read logs a warning; for the next RETRY_AFTER_MS the reads go straight
 * to the primary, so that a replica that hangs costs one wait, not one per
 * page; the first read that works on it again logs that it is back. A
 * replica whose lag cannot be told is not read either. Any other error
 * (a write refused by the read-only session, a bug) is thrown as it is: never
 * retried on the primary, where a write would pass.
 */
import { causes } from "../shared/runtime/error-causes.ts";
import { primaryPosition, type Query, replicaLagMs, replicaState, sampleLag } from "./replica-lag.ts";

/** How long reads skip a replica that failed before trying it again. */
export const RETRY_AFTER_MS = 10_000;

/** Where a read ran, and at most how far behind the primary its answer may be (ms; 0 on the primary). */
export interface ReadSource {
  replica: boolean;
  lagMs: number;
}

/** Why a read went to the primary though a replica is configured. */
export type FallbackReason = "unavailable" | "lag_unknown";

/** Runs reads on the replica's stores or the primary's (`P`: the stores a read may use). */
export interface ReplicaReads<P> {
  read<T>(fn: (ports: P) => Promise<T>): Promise<{ value: T; source: ReadSource }>;
  /** The replica's lag now (ms), undefined when it cannot be told; throws when the replica or the primary fails. */
  lag(): Promise<number | undefined>;
}

export interface ReplicaReadsOptions<P> {
  primary: P;
  /** The primary's statements (its WAL position); failures there are the call's own. */
  primaryQuery: Query;
  /** The replica's stores and statements; undefined: no DATABASE_READ_URL, everything reads the primary. */
  replica: { ports: P; query: Query } | undefined;
  log: { warn(fields: object, msg: string): void; info(fields: object, msg: string): void };
  /** Counts a read sent to the primary instead (the metrics). */
  onFallback(reason: FallbackReason): void;
  now?: () => number;
}

// SQLSTATE classes and codes that say the replica cannot serve now, not that the read is wrong: 08 connection
// exceptions, 28 sign-in refused, 53 out of resources (too many connections), 57P01-57P03 shut down or starting,
// 3D000 no such database there, 40001 a query cancelled for a conflict with recovery (max_standby_streaming_delay).
const UNAVAILABLE_CLASSES = ["08", "28", "53"];
const UNAVAILABLE_CODES = new Set(["57P01", "57P02", "57P03", "3D000", "40001"]);
const UNAVAILABLE_NET = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error/i;

/** Why `err` says the replica cannot serve this read (a code or message for the log), or undefined when it is another error. */
export function replicaUnavailable(err: unknown): string | undefined {
  for (const { code, message } of causes(err)) {
    if (
      typeof code === "string" &&
      code !== "08P01" &&
      (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CLASSES.includes(code.slice(0, 2)) || UNAVAILABLE_NET.has(code))
    )
      return code;
    if (UNAVAILABLE_MESSAGE.test(String(message ?? ""))) return String(message);
  }
  return undefined;
}

const ON_PRIMARY: ReadSource = { replica: false, lagMs: 0 };

/** The reads' router: the replica when configured and usable, else the primary. */
export function replicaReads<P>(o: ReplicaReadsOptions<P>): ReplicaReads<P> {
  const now = o.now ?? Date.now;
  const replica = o.replica;
  let down = false;
  let retryAt = 0;

  const fallBack = async <T>(fn: (ports: P) => Promise<T>, reason: FallbackReason) => {
    o.onFallback(reason);
    return { value: await fn(o.primary), source: ON_PRIMARY };
  };

  return {
    async lag() {
      if (!replica) return 0;
      return replicaLagMs(await sampleLag(o.primaryQuery, replica.query));
    },

    async read<T>(fn: (ports: P) => Promise<T>) {
      if (!replica) return { value: await fn(o.primary), source: ON_PRIMARY };
      if (down && now() < retryAt) return fallBack(fn, "unavailable");
      // The primary's position first, outside the fallback: a primary that fails fails the call, as every call.
      const primaryLsn = await primaryPosition(o.primaryQuery);
      let read: { lag: number | undefined; value?: T };
      try {
        const lag = replicaLagMs({ primaryLsn, ...(await replicaState(replica.query)) });
        read = lag === undefined ? { lag } : { lag, value: await fn(replica.ports) };
      } catch (err) {
        const why = replicaUnavailable(err);
        if (why === undefined) throw err;
        if (!down) o.log.warn({ reason: why }, "the read replica cannot serve the Backoffice's reads: they read the primary until it answers");
        down = true;
        retryAt = now() + RETRY_AFTER_MS;
        return fallBack(fn, "unavailable");
      }
      if (read.lag === undefined) return fallBack(fn, "lag_unknown");
      if (down) o.log.info({ lagMs: read.lag }, "the read replica answers again: the Backoffice's searches, exports and dashboard read it");
      down = false;
      return { value: read.value as T, source: { replica: true, lagMs: read.lag } };
    },
  };
}
