/**
 * The hot path's writes, gathered: the order inserts and status changes that
 * concurrent calls send at the same moment travel to Postgres together and
 * commit as ONE transaction, in one round trip (Bind/Execute for each, one
 * Sync). A sale's two commits are what its Postgres time is mostly made of
 * (docs/decisions/0013-less-work-per-sale.md); shared by the calls in flight,
 * they cost each call a fraction of one.
 *
 * Nothing about a call's outcome changes:
 * - each call gets its own statement's rows, and only once the shared commit
 *   is done (an attempt is durable before its acquirer is called);
 * - the batch is atomic: when Postgres refuses a statement and the session
 *   lives on (a CHECK, the transition trigger, a withdrawal session's order_id,
 *   a deadlock, a lock waited for too long), nothing of the batch was written,
 *   and each call runs again on its own, so that only the faulty call sees its
 *   error;
 * - a lost connection, a backend ended or the client's own timeout fails every
 *   call of the batch, as it would have failed each call on its own: whether
 *   the commit happened is unknown to all of them alike, and none is run again;
 * - the server ends a batch before the client gives up on it: Postgres's
 *   statement_timeout restarts at each statement of a batch, so the batch sets
 *   its own transaction_timeout (which ends the session, never after a commit)
 *   under the client's query timeout. A call is never told "failed" for a
 *   write that commits afterwards;
 * - one call's lock wait does not hold the others: inside a batch a lock is
 *   waited for at most LOCK_WAIT_MS, then the batch's calls run alone, where
 *   only the waiting call waits.
 *
 * No timer gathers calls: a batch leaves as soon as a connection is free, and
 * takes whatever arrived while the previous ones were on their way. A call
 * alone waits for nothing; under load, batches grow with the load. On a
 * PostgreSQL before 17 (no transaction_timeout) every call runs alone.
 */
import pg from "pg";

/** What a parameter may be: pg sends each as text Postgres casts to the column's type. */
export type SqlValue = string | number | boolean | Date | null;

/** One call's statement: its name and text (prepared once per connection) and values. */
export interface BatchedCall {
  name: string;
  text: string;
  values: SqlValue[];
  /**
   * Where the statement takes its locks (an order's merchant and order_id, an attempt's trace_id): a batch runs its
   * calls by statement and then by this key, so two batches take their locks in the same order. What is left (two
   * attempts of one order, a hash collision of two advisory locks) is a deadlock Postgres breaks: a refused batch.
   */
  lockKey: string;
}

/** A pooled client as pg hands it over; `connection` is pg's, for the statements a connection has prepared. */
type PooledClient = pg.PoolClient;
type Pool = { connect(): Promise<PooledClient> };
type Parser = (text: string) => unknown;
type TypeSource = { getTypeParser(oid: number, format?: string): Parser };

interface Pending extends BatchedCall {
  /** The values as the text sent (encoded when the call is made, so that a bad value fails its own call only). */
  encoded: (string | null)[];
  resolve(rows: unknown[]): void;
  reject(err: unknown): void;
}

/**
 * Batches in flight at once, each on a connection of the engine's pool (of 20). On the 2-core VM, 1, 2, 4 and 8 gave
 * the same throughput within noise (decision 0013); two keep one slow batch from holding every write.
 */
export const WRITE_BATCH_CONNECTIONS = 2;
/** Calls in one batch at most: the bench's 64 in flight fit in one. */
export const WRITE_BATCH_MAX = 64;

/** Longest wait for a lock inside a batch: then the batch's calls run alone (SQLSTATE 55P03, lock_not_available). */
export const LOCK_WAIT_MS = 2000;

/** The batch's first statement: its limits, for its own transaction. */
const LIMITS = {
  name: "cashier-batch-limits",
  text: "select set_config('lock_timeout', $1, true), set_config('transaction_timeout', $2, true)",
};

/** SQLSTATE 26000: a prepared statement the connection no longer has (DISCARD ALL, a pooler between). */
const NO_SUCH_STATEMENT = "26000";

/** Statements prepared by a batch on each connection (under their own names: pg's own bookkeeping is per Query). */
const preparedOn = new WeakMap<PooledClient, Set<string>>();

/**
 * The messages of one batch: for each call, Parse (first use on this connection),
 * Bind, Describe and Execute; then one Sync, which commits them together.
 * A pg "Submittable": the client hands it the backend's replies in order.
 */
class BatchSubmit {
  readonly #calls: Pending[];
  readonly #types: TypeSource;
  readonly #parse: Set<string>;
  /** The rows of each call, filled in order; `#at` is the call whose replies are arriving. */
  readonly #rows: unknown[][];
  #at = 0;
  #fields: { name: string; parse: Parser }[] = [];
  /** A row that could not be parsed: the batch committed, but its calls are not answered with rows they cannot trust. */
  #error: unknown;
  /** The values of LIMITS, the batch's first statement. */
  readonly #limits: (string | null)[];
  callback: ((err: unknown, rows?: unknown[][]) => void) | undefined;

  /** `limits`: the values of LIMITS, run first; its row is not a call's. */
  constructor(calls: Pending[], types: TypeSource, parse: Set<string>, limits: (string | null)[]) {
    this.#calls = calls;
    this.#types = types;
    this.#parse = parse;
    this.#limits = limits;
    this.#rows = [[], ...calls.map(() => [])];
  }

  submit(connection: {
    stream: { cork?(): void; uncork?(): void };
    parse(m: { name: string; text: string }): void;
    bind(m: { statement: string; values: unknown[]; valueMapper: (v: unknown) => unknown }): void;
    describe(m: { type: "P"; name: string }): void;
    execute(m: { portal: string }): void;
    sync(): void;
  }): null {
    connection.stream.cork?.();
    try {
      const statements = [{ name: LIMITS.name, text: LIMITS.text, encoded: this.#limits }, ...this.#calls];
      const parsed = new Set<string>();
      for (const c of statements) {
        const name = batchName(c.name);
        if (this.#parse.has(name) && !parsed.has(name)) {
          connection.parse({ name, text: c.text });
          parsed.add(name);
        }
      }
      for (const c of statements) {
        connection.bind({ statement: batchName(c.name), values: c.encoded, valueMapper: (v) => v });
        connection.describe({ type: "P", name: "" });
        connection.execute({ portal: "" });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: { fields: { name: string; dataTypeID: number }[] }): void {
    this.#fields = msg.fields.map((f) => ({ name: f.name, parse: this.#types.getTypeParser(f.dataTypeID, "text") }));
  }

  /** A row parsed by its column's parser; one that throws is kept for the end of the batch (as pg's own Query does), not thrown into the socket's handler. */
  handleDataRow(msg: { fields: (string | null)[] }): void {
    const row: Record<string, unknown> = {};
    try {
      for (let i = 0; i < this.#fields.length; i++) {
        const v = msg.fields[i];
        row[this.#fields[i].name] = v === null ? null : this.#fields[i].parse(v);
      }
    } catch (err) {
      this.#error ??= err;
      return;
    }
    this.#rows[this.#at].push(row);
  }

  handleCommandComplete(): void {
    this.#at++;
  }

  handleEmptyQuery(): void {
    this.#at++;
  }

  /** An ErrorResponse (the backend then skips to the Sync and rolls back), or the connection's own failure. */
  handleError(err: unknown): void {
    this.callback?.(err);
    this.callback = undefined;
  }

  handleReadyForQuery(): void {
    this.callback?.(this.#error, this.#rows.slice(1));
    this.callback = undefined;
  }

  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/** A value as the text Postgres reads: a Date as ISO 8601 with its zone (pg itself writes local time with an offset). */
function toText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v.toISOString() : String(v);
}

function byLocks(a: BatchedCall, b: BatchedCall): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.lockKey < b.lockKey ? -1 : a.lockKey > b.lockKey ? 1 : 0;
}

function batchName(name: string): string {
  return `${name}/batch`;
}

/**
 * Gathers calls into batches on `pool`, at most `concurrency` batches at once
 * (each on its own connection), at most `maxBatch` calls each. `alone` runs one
 * call by itself: the way back for each call of a batch Postgres refused.
 * `transactionTimeoutMs` must be under the pool's client-side query timeout.
 */
export class WriteBatcher {
  readonly #pool: Pool;
  readonly #types: TypeSource;
  readonly #alone: (call: BatchedCall) => Promise<unknown[]>;
  readonly #concurrency: number;
  readonly #maxBatch: number;
  readonly #limits: (string | null)[];
  readonly #observe: (calls: number, refused: boolean) => void;
  readonly #queue: Pending[] = [];
  #inFlight = 0;
  #scheduled = false;
  /** Whether the server has transaction_timeout (PostgreSQL 17 and later), asked once. */
  #batching: Promise<boolean> | undefined;

  constructor(opts: {
    pool: Pool;
    types: TypeSource;
    alone: (call: BatchedCall) => Promise<unknown[]>;
    transactionTimeoutMs: number;
    lockWaitMs?: number;
    concurrency?: number;
    maxBatch?: number;
    /** Told of each batch sent: its calls, and whether Postgres refused it (its calls then ran again alone). */
    observe?: (calls: number, refused: boolean) => void;
  }) {
    this.#pool = opts.pool;
    this.#types = opts.types;
    this.#alone = opts.alone;
    this.#concurrency = opts.concurrency ?? WRITE_BATCH_CONNECTIONS;
    this.#maxBatch = opts.maxBatch ?? WRITE_BATCH_MAX;
    this.#limits = [String(opts.lockWaitMs ?? LOCK_WAIT_MS), String(opts.transactionTimeoutMs)];
    this.#observe = opts.observe ?? (() => {});
  }

  async run(call: BatchedCall): Promise<unknown[]> {
    if (!(await this.#canBatch())) return this.#alone(call);
    const encoded = call.values.map(toText);
    return new Promise((resolve, reject) => {
      this.#queue.push({ ...call, encoded, resolve, reject });
      this.#schedule();
    });
  }

  #canBatch(): Promise<boolean> {
    this.#batching ??= (async () => {
      const client = await this.#pool.connect();
      try {
        const { rows } = await client.query<{ v: number }>("select current_setting('server_version_num')::int as v");
        return rows[0].v >= 170000;
      } finally {
        client.release();
      }
    })().catch((err: unknown) => {
      this.#batching = undefined;
      throw err;
    });
    return this.#batching;
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.#concurrency || this.#queue.length === 0) return;
    this.#scheduled = true;
    // The calls that arrive in this turn of the event loop leave together.
    setImmediate(() => {
      this.#scheduled = false;
      while (this.#inFlight < this.#concurrency && this.#queue.length > 0) {
        void this.#send(this.#queue.splice(0, this.#maxBatch).sort(byLocks));
      }
    });
  }

  async #send(calls: Pending[]): Promise<void> {
    this.#inFlight++;
    let again: Pending[] = [];
    try {
      again = await this.#sendBatch(calls);
    } finally {
      this.#inFlight--;
      this.#schedule();
    }
    // Outside the batch's slot: the calls of a refused batch run on the pool, one by one, and hold no batch back.
    for (const c of again) this.#alone(c).then(c.resolve, c.reject);
  }

  /** Sends one batch and settles its calls; returns the calls to run again alone (a batch Postgres refused). */
  async #sendBatch(calls: Pending[]): Promise<Pending[]> {
    let client: PooledClient;
    try {
      client = await this.#pool.connect();
    } catch (err) {
      for (const c of calls) c.reject(err);
      return [];
    }
    let prepared = preparedOn.get(client);
    if (!prepared) {
      prepared = new Set();
      preparedOn.set(client, prepared);
    }
    const parse = new Set([LIMITS, ...calls].map((c) => batchName(c.name)).filter((n) => !prepared.has(n)));
    const outcome = await new Promise<{ err: unknown; rows?: unknown[][] }>((resolve) => {
      const submit = new BatchSubmit(calls, this.#types, parse, this.#limits);
      submit.callback = (err, rows) => resolve({ err, rows });
      try {
        client.query(submit as unknown as pg.QueryConfig);
      } catch (err) {
        resolve({ err });
      }
    });
    if (outcome.err === undefined && outcome.rows) {
      this.#observe(calls.length, false);
      for (const n of parse) prepared.add(n);
      client.release();
      for (const [i, c] of calls.entries()) c.resolve(outcome.rows[i]);
      return [];
    }
    const err = outcome.err;
    // Postgres refused a statement: whether the session lives on tells an ERROR (the transaction rolled back, nothing
    // written) from its end (FATAL: transaction_timeout, a terminated backend), whatever language its messages speak.
    // Without an answer at all (a lost socket, the client's timeout), the commit may have happened.
    const refused = err instanceof pg.DatabaseError && (await alive(client));
    if (refused && err.code === NO_SUCH_STATEMENT) prepared.clear();
    // A refused batch leaves the connection usable, unless it was to prepare a statement this batch: whether it did is
    // not known, so the connection goes (a timeout or a lost connection always takes it).
    client.release(refused && parse.size === 0 ? undefined : (err as Error));
    this.#observe(calls.length, refused);
    if (!refused) {
      for (const c of calls) c.reject(err);
      return [];
    }
    // Nothing of the batch was written: each call runs again by itself, a batch of one too (the refusal may be the
    // batch's own lock limit, not the call's; a call's own fault is met again and answered).
    return calls;
  }
}

/** Whether the session answers after an error: queued by pg behind the batch's own end (its ReadyForQuery). */
async function alive(client: PooledClient): Promise<boolean> {
  try {
    await client.query("select 1");
    return true;
  } catch {
    return false;
  }
}
