/**
 * How far a read replica may be behind the primary, as an upper bound an
 * operator can trust: "everything committed on the primary more than N ms ago
 * is on the replica".
 *
 * `now() - pg_last_xact_replay_timestamp()` alone is wrong both ways: on an
 * idle primary the last replayed commit is old though nothing is missing (an
 * hour's "lag" on a quiet night), and a replica cut off from its primary has
 * replayed all it received (receive = replay) though it misses everything
 * since. So the primary's write position is read first: a replica that has
 * replayed up to it misses nothing that was committed before the read began
 * (0). Otherwise what it misses was committed after the last commit it
 * replayed, so the time since that commit bounds the lag.
 */

/** What one measurement read: the primary's position, then the replica's state. */
export interface LagSample {
  /**
   * The primary's pg_current_wal_insert_lsn(), read before the replica's state: where its WAL ends, commits made
   * with synchronous_commit off (visible before they are written) included.
   */
  primaryLsn: bigint;
  /** pg_is_in_recovery() on the replica: false when the URL reaches a primary (a failover, or a pooler's routing). */
  inRecovery: boolean;
  /** pg_last_wal_replay_lsn() on the replica; null before it replayed anything. */
  replayLsn: bigint | null;
  /** Milliseconds from the replica's last replayed commit to the replica's now(); null before it replayed one. */
  sinceLastReplayMs: number | null;
}

/**
 * The replica's lag in milliseconds (0: caught up), or undefined when it cannot be told (behind, and no commit
 * replayed yet to measure from): such a replica is not read from.
 */
export function replicaLagMs(s: LagSample): number | undefined {
  if (!s.inRecovery) return 0;
  if (s.replayLsn !== null && s.replayLsn >= s.primaryLsn) return 0;
  if (s.sinceLastReplayMs === null) return undefined;
  // Clocks of two machines: a replica's clock a little behind the primary's must not make a negative lag.
  return Math.max(0, Math.round(s.sinceLastReplayMs));
}

/** An LSN as Postgres prints it (`16/B374D848`: the high and low 32 bits in hex) as a number that compares. */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (!m) throw new Error(`not an LSN: ${JSON.stringify(text)}`);
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

/** Something that runs one statement and gives its rows (a pool, a forked entity manager). */
export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/** The primary's write position (read on the primary, before the replica's state). */
export const PRIMARY_POSITION_SQL = "select pg_current_wal_insert_lsn()::text as lsn";

/** The replica's recovery state; the elapsed time is computed by the replica's clock, in ms. */
export const REPLICA_STATE_SQL = `select pg_is_in_recovery() as in_recovery, pg_last_wal_replay_lsn()::text as replay_lsn,
  (extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000)::float8 as since_ms`;

/** The primary's WAL position: read first, on the primary. */
export async function primaryPosition(primary: Query): Promise<bigint> {
  const [p] = await primary(PRIMARY_POSITION_SQL);
  return parseLsn(String(p.lsn));
}

/** The replica's side of a measurement. */
export async function replicaState(replica: Query): Promise<Omit<LagSample, "primaryLsn">> {
  const [r] = await replica(REPLICA_STATE_SQL);
  return {
    inRecovery: r.in_recovery === true,
    replayLsn: r.replay_lsn === null || r.replay_lsn === undefined ? null : parseLsn(String(r.replay_lsn)),
    sinceLastReplayMs: r.since_ms === null || r.since_ms === undefined ? null : Number(r.since_ms),
  };
}

/** One measurement: the primary's position, then the replica's state. */
export async function sampleLag(primary: Query, replica: Query): Promise<LagSample> {
  const primaryLsn = await primaryPosition(primary);
  return { primaryLsn, ...(await replicaState(replica)) };
}
