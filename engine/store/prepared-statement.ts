/**
 * Hand-written SQL for the few statements the hot path cannot afford to have
 * built and planned on every call (docs/decisions/0003-raw-sql-on-hot-path.md):
 * each runs as a named prepared statement on the ORM's own pg pool, so Postgres
 * parses and plans it once per connection. `run` sends it with whatever other
 * calls' hot writes are leaving at the same moment, in one transaction
 * (write-batch.ts).
 *
 * Its parameters are one typed object, not a positional list: the SQL text
 * names them (`${p.traceId}`), and this module numbers them ($1, $2, ...) once,
 * in the order of the key list the statement declares. That list must name
 * every parameter of the type (the compiler checks it) and the text must use
 * every one (checked when the module loads). A parameter used twice is one
 * value, sent once.
 *
 * Rows come back typed as the entities type them: bigint as a number and
 * timestamptz as a Date, like the typed queries (typed-db.ts), not as the
 * strings the ORM's pool otherwise hands over.
 */
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { CompiledQuery } from "kysely";
import pg from "pg";
import { recordWriteBatch } from "../runtime/metrics.ts";
import { STATEMENT_TIMEOUT_MS } from "./orm.ts";
import { WriteBatcher } from "./write-batch.ts";

/** What a parameter may be: pg sends each as text Postgres casts to the column's type. */
export type SqlValue = string | number | boolean | Date | null;

type Params = Record<string, SqlValue>;

export interface PreparedStatement<P extends Params, R> {
  readonly name: string;
  readonly text: string;
  /** Runs on the ORM's pool (outside any ORM transaction), committed with the hot writes sent at the same moment. */
  run(orm: MikroORM, params: P): Promise<R[]>;
  /**
   * Runs on the ORM's pool in a transaction of its own, prepared, never with other calls' writes: for a statement
   * whose locks or timing must not depend on a batch (a claim whose lease starts when it runs).
   */
  runAlone(orm: MikroORM, params: P): Promise<R[]>;
  /**
   * Runs inside `em`'s transaction, unprepared, for the cold paths that must
   * write more in the same transaction (an operator's decision and its audit
   * row). Its rows are as the ORM's pool hands them over (bigint and
   * timestamptz as strings): read what you need again with a typed query.
   */
  runIn(em: EntityManager, params: P): Promise<Record<string, unknown>[]>;
}

const INT8 = 20;
const TIMESTAMPTZ = 1184;
const ROW_TYPES = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8) return (s: string) => Number(s);
    if (oid === TIMESTAMPTZ) return (s: string) => new Date(s);
    return pg.types.getTypeParser(oid, format === "binary" ? "binary" : "text");
  },
};

type NativePool = {
  query(q: { name: string; text: string; values: SqlValue[]; types: typeof ROW_TYPES }): Promise<{ rows: unknown[] }>;
  connect(): Promise<pg.PoolClient>;
};
const batchers = new WeakMap<MikroORM, Promise<WriteBatcher>>();

/** The ORM's pool's batcher: a statement run alone (a refused batch's way back) is a plain named query on the pool. */
function batcherOf(orm: MikroORM): Promise<WriteBatcher> {
  let batcher = batchers.get(orm);
  if (!batcher) {
    batcher = (orm.em.getConnection().getNativeClient() as Promise<NativePool>).then(
      (pool) =>
        new WriteBatcher({
          pool,
          types: ROW_TYPES,
          alone: async ({ name, text, values }) => (await pool.query({ name, text, values, types: ROW_TYPES })).rows,
          // Postgres ends a batch before the pool's client gives up on it (orm.ts).
          transactionTimeoutMs: STATEMENT_TIMEOUT_MS,
          observe: recordWriteBatch,
        }),
    );
    batchers.set(orm, batcher);
  }
  return batcher;
}

/**
 * A named statement over the parameter object `P`, returning rows of type `R`.
 * `keys` lists every parameter once (its order is the $n order); `write` gets
 * each parameter's placeholder by name and returns the SQL.
 */
export function preparedStatement<P extends Params, R>(
  name: string,
  keys: { readonly [K in keyof P]-?: true },
  write: (p: { readonly [K in keyof P]-?: string }) => string,
  /** The rows it locks, as a key that sorts calls in a batch (write-batch.ts: lockKey). */
  lockKey: (params: P) => string,
): PreparedStatement<P, R> {
  const order = Object.keys(keys) as (keyof P & string)[];
  const placeholders = Object.fromEntries(order.map((k, i) => [k, `$${i + 1}`])) as { [K in keyof P]-?: string };
  const text = write(placeholders);
  for (const [i, k] of order.entries()) {
    if (!new RegExp(`\\$${i + 1}(?!\\d)`).test(text)) throw new Error(`statement ${name}: parameter ${k} is declared but not used`);
  }
  return {
    name,
    text,
    async run(orm, params) {
      const batcher = await batcherOf(orm);
      return (await batcher.run({ name, text, values: order.map((k) => params[k]), lockKey: lockKey(params) })) as R[];
    },
    async runAlone(orm, params) {
      const pool = (await orm.em.getConnection().getNativeClient()) as NativePool;
      return (await pool.query({ name, text, values: order.map((k) => params[k]), types: ROW_TYPES })).rows as R[];
    },
    async runIn(em, params) {
      const result = await em.getKysely().executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(
          text,
          order.map((k) => params[k]),
        ),
      );
      return result.rows;
    },
  };
}
