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
 * - the batch is atomic: when Postgres refuses one statement with an ERROR (a
 *   CHECK, the transition trigger, a withdrawal session's order_id, a deadlock
 *   between two batches, the statement timeout), nothing of the batch was
 *   written, and each call runs again on its own, so that only the faulty call
 *   sees its error;
 * - a lost connection, a backend ended (FATAL) or the client's own timeout
 *   fails every call of the batch, as it would have failed each call on its
 *   own: whether the commit happened is unknown to all of them alike, and none
 *   is run again.
 *
 * No timer gathers calls: a batch leaves as soon as a connection is free, and
 * takes whatever arrived while the previous ones were on their way. A call
 * alone waits for nothing; under load, batches grow with the load.
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
   * calls by statement and then by this key, so two batches take their locks in the same order and cannot deadlock.
   */
  lockKey: string;
}

/** A pooled client as pg hands it over; `connection` is pg's, for the statements a connection has prepared. */
type PooledClient = pg.PoolClient;
type Pool = { connect(): Promise<PooledClient> };
type Parser = (text: string) => unknown;
type TypeSource = { getTypeParser(oid: number, format?: string): Parser };

interface Pending extends BatchedCall {
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
  #error: unknown;
  callback: ((err: unknown, rows?: unknown[][]) => void) | undefined;

  constructor(calls: Pending[], types: TypeSource, parse: Set<string>) {
    this.#calls = calls;
    this.#types = types;
    this.#parse = parse;
    this.#rows = calls.map(() => []);
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
      const parsed = new Set<string>();
      for (const c of this.#calls) {
        const name = batchName(c.name);
        if (this.#parse.has(name) && !parsed.has(name)) {
          connection.parse({ name, text: c.text });
          parsed.add(name);
        }
      }
      for (const c of this.#calls) {
        connection.bind({ statement: batchName(c.name), values: c.values, valueMapper: toText });
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

  handleDataRow(msg: { fields: (string | null)[] }): void {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < this.#fields.length; i++) {
      const v = msg.fields[i];
      row[this.#fields[i].name] = v === null ? null : this.#fields[i].parse(v);
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
    this.#error = err;
    this.callback?.(err);
    this.callback = undefined;
  }

  handleReadyForQuery(): void {
    this.callback?.(this.#error, this.#rows);
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
 */
export class WriteBatcher {
  readonly #pool: Pool;
  readonly #types: TypeSource;
  readonly #alone: (call: BatchedCall) => Promise<unknown[]>;
  readonly #concurrency: number;
  readonly #maxBatch: number;
  readonly #observe: (calls: number, refused: boolean) => void;
  readonly #queue: Pending[] = [];
  #inFlight = 0;
  #scheduled = false;

  constructor(opts: {
    pool: Pool;
    types: TypeSource;
    alone: (call: BatchedCall) => Promise<unknown[]>;
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
    this.#observe = opts.observe ?? (() => {});
  }

  run(call: BatchedCall): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ ...call, resolve, reject });
      this.#schedule();
    });
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
    try {
      await this.#sendBatch(calls);
    } finally {
      this.#inFlight--;
      this.#schedule();
    }
  }

  async #sendBatch(calls: Pending[]): Promise<void> {
    let client: PooledClient;
    try {
      client = await this.#pool.connect();
    } catch (err) {
      for (const c of calls) c.reject(err);
      return;
    }
    let prepared = preparedOn.get(client);
    if (!prepared) {
      prepared = new Set();
      preparedOn.set(client, prepared);
    }
    const parse = new Set(calls.map((c) => batchName(c.name)).filter((n) => !prepared.has(n)));
    let outcome: { err: unknown; rows?: unknown[][] };
    try {
      outcome = await new Promise((resolve) => {
        const submit = new BatchSubmit(calls, this.#types, parse);
        submit.callback = (err, rows) => resolve({ err, rows });
        client.query(submit as unknown as pg.QueryConfig);
      });
    } catch (err) {
      outcome = { err };
    }
    if (outcome.err === undefined && outcome.rows) {
      this.#observe(calls.length, false);
      for (const n of parse) prepared.add(n);
      client.release();
      for (const [i, c] of calls.entries()) c.resolve(outcome.rows[i]);
      return;
    }
    const err = outcome.err;
    // An ERROR aborts the transaction and leaves the session: nothing was written. FATAL (the backend ended) or no answer
    // at all may come after the commit: the outcome is unknown, as it would be for one call.
    const refused = err instanceof pg.DatabaseError && err.severity === "ERROR";
    // A refused batch leaves the connection usable, unless it was to prepare a statement this batch: whether it did is
    // not known, so the connection goes (a timeout or a lost connection always takes it).
    client.release(refused && parse.size === 0 ? undefined : (err as Error));
    this.#observe(calls.length, refused);
    if (!refused) {
      for (const c of calls) c.reject(err);
      return;
    }
    if (calls.length === 1) {
      calls[0].reject(err);
      return;
    }
    // Nothing of the batch was written: each call runs again by itself.
    await Promise.all(calls.map((c) => this.#alone(c).then(c.resolve, c.reject)));
  }
}
