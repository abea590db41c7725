/**
 * The batched bound's server (floor-batched.ts), on a worker thread as the
 * edge is: a bare node:http server that answers each POST once its sale is
 * written, the sales in flight written together as the engine's write batch
 * writes them (engine/store/write-batch.ts):
 *
 *   1. one statement inserts every waiting request's order, its attempt
 *      (pending) and the "created" history row, and commits: the attempt is
 *      durable before an acquirer would be called, as the engine's crash
 *      guarantee needs;
 *   2. one statement moves every attempt of that batch to approved with its
 *      history row, and commits.
 *
 * Batches leave as soon as one of the engine's number of batch connections
 * is free (WRITE_BATCH_CONNECTIONS), with at most the engine's number of
 * calls (WRITE_BATCH_MAX): no timer gathers calls, as in the engine. Same
 * rows, triggers, keys and CHECKs as the engine's sale; no signature,
 * validation, processor call or gRPC hop.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { WRITE_BATCH_CONNECTIONS, WRITE_BATCH_MAX } from "../../engine/store/write-batch.ts";

const CUSTOMER_JSON = JSON.stringify({ email: "jane@example.com", first_name: "Jane", last_name: "Doe", country: "GB", zip: "SW1A1AA" });

/** Every waiting request's order, attempt and "created" row: one statement, one commit. */
const CREATE = {
  name: "floor-batched-create",
  text: `with i as (select * from unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) as i(order_id, fingerprint, amount_minor, card_fingerprint)),
  o as (
    insert into payment_order (merchant_id, order_id, type, fingerprint, amount_minor, currency, frontend, pin, customer,
      card_masked, card_brand, card_expiry, card_fingerprint, return_url, notification_url, reference_trace_id)
    select 'm-test', i.order_id, 'sale', i.fingerprint, i.amount_minor, 'USD', 'test-usd', 'cust-42', $5::jsonb,
      '411111******1111', 'VISA', '12/2030', i.card_fingerprint, 'https://merchant.example/return', null, null from i
    on conflict on constraint payment_order_merchant_order_unique do nothing
    returning id, order_id),
  t as (insert into transaction (order_ref, attempt, processor, status, payout_letter)
        select o.id, 1, 'sim-a', 'pending', null from o returning trace_id, order_ref, status, payout_letter),
  e as (insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause)
        select trace_id, null, status, payout_letter, 'created' from t)
  select t.trace_id, o.order_id from t join o on o.id = t.order_ref`,
};

/** Every attempt of the batch, pending -> approved, with its history row: one statement, one commit. */
const APPROVE = {
  name: "floor-batched-approve",
  text: `with t as (
    update transaction set status = 'approved', transaction_id = x.tx, version = version + 1, updated_at = now()
    from unnest($1::integer[], $2::text[]) as x(trace_id, tx)
    where transaction.trace_id = x.trace_id and transaction.status = 'pending'
    returning transaction.trace_id, transaction.status, transaction.payout_letter),
  e as (insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause)
        select trace_id, 'pending', status, payout_letter, 'processor:approved' from t)
  select trace_id, status from t`,
};

interface Waiting {
  orderId: string;
  amountMinor: number;
  reply(status: number, body: unknown): void;
}

const { databaseUrl } = workerData as { databaseUrl: string };
const pool = new pg.Pool({ connectionString: databaseUrl, max: WRITE_BATCH_CONNECTIONS });
pool.on("error", () => {});
const queue: Waiting[] = [];
let busy = 0;

async function runBatch(batch: Waiting[]): Promise<void> {
  const client = await pool.connect();
  try {
    const created = await client.query({
      ...CREATE,
      values: [
        batch.map((w) => w.orderId),
        batch.map(() => randomBytes(32).toString("hex")),
        batch.map((w) => w.amountMinor),
        batch.map(() => randomBytes(32).toString("hex")),
        CUSTOMER_JSON,
      ],
    });
    const traceOf = new Map<string, number>(created.rows.map((r: { trace_id: number; order_id: string }) => [r.order_id, r.trace_id]));
    const traces = batch.map((w) => traceOf.get(w.orderId)).filter((t): t is number => t !== undefined);
    const approved = await client.query({ ...APPROVE, values: [traces, traces.map(() => `floor-${randomBytes(6).toString("hex")}`)] });
    const done = new Set<number>(approved.rows.map((r: { trace_id: number }) => r.trace_id));
    for (const w of batch) {
      const trace = traceOf.get(w.orderId);
      if (trace !== undefined && done.has(trace)) w.reply(200, { status: 0, transaction_status: "approved", trace_id: trace });
      else w.reply(500, { status: 1, description: "not approved" });
    }
  } catch (err) {
    for (const w of batch) w.reply(500, { status: 1, description: (err as Error).message });
  } finally {
    client.release();
  }
}

function kick(): void {
  while (busy < WRITE_BATCH_CONNECTIONS && queue.length > 0) {
    const batch = queue.splice(0, WRITE_BATCH_MAX);
    busy += 1;
    void runBatch(batch).finally(() => {
      busy -= 1;
      kick();
    });
  }
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const reply = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    };
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { order_id?: unknown; amount?: unknown };
      queue.push({ orderId: String(body.order_id), amountMinor: Number(body.amount) || 1050, reply });
      kick();
    } catch (err) {
      reply(400, { status: 1, description: (err as Error).message });
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => parentPort?.postMessage({ port: (server.address() as AddressInfo).port }));
parentPort?.on("message", (m: unknown) => {
  if (m !== "close") return;
  server.closeAllConnections();
  server.close(() => void pool.end().then(() => parentPort?.close()));
});
