/**
 * The bench's lower bound ("floor"): the least a service could do for an
 * approved sale over HTTP. A bare node:http server answers each POST after
 * ONE Postgres round trip that writes what an approved sale writes (the order,
 * its attempt created pending, the "created" history row, the move to approved
 * and its history row), through the same triggers, foreign keys and CHECKs, in
 * one commit. No signature, no validation, no processor call, no gRPC hop: the
 * phases are read as a fraction of this.
 *
 * One round trip: both statements travel in one simple-protocol message
 * (`EXECUTE a(...); EXECUTE b(...)`), which Postgres runs as one implicit
 * transaction, and each EXECUTE runs a plan prepared once per connection.
 * The values are our own (escaped with the driver's escapeLiteral).
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";

const COLUMNS = `t.trace_id, t.order_ref, t.attempt, t.processor, t.status, t.payout_letter, t.deposit_state,
  t.transaction_id, t.error_code, t.error_details, t.redirect_url, t.created_at, t.updated_at, o.order_id, o.merchant_id,
  o.type, o.amount_minor, o.currency, o.card_masked, o.card_brand, o.card_expiry, o.pin, o.frontend, o.reference_trace_id,
  (o.card_sealed is not null) as card_held`;

const PREPARE_CREATE = `prepare floor_create(text, text, text, bigint, text, text, text, jsonb, text, text, text, text, text, text) as
  with o as (
    insert into payment_order (merchant_id, order_id, type, fingerprint, amount_minor, currency, frontend, pin, customer,
      card_masked, card_brand, card_expiry, card_fingerprint, return_url, notification_url, reference_trace_id)
    values ($1, $2, 'sale', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, null, null)
    on conflict on constraint payment_order_merchant_order_unique do nothing
    returning *),
  t as (insert into transaction (order_ref, attempt, processor, status, payout_letter)
        select o.id, 1, $14, 'pending', null from o returning *),
  e as (insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause)
        select trace_id, null, status, payout_letter, 'created' from t)
  select ${COLUMNS} from t join o on o.id = t.order_ref`;

const PREPARE_APPROVE = `prepare floor_approve(integer, text) as
  with t as (
    update transaction set status = 'approved', transaction_id = $2, version = version + 1, updated_at = now()
    where trace_id = $1 and status = 'pending'
    returning *),
  e as (insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause)
        select trace_id, 'pending', status, payout_letter, 'processor:approved' from t)
  select ${COLUMNS} from t join payment_order o on o.id = t.order_ref`;

const CUSTOMER_JSON = JSON.stringify({ email: "jane@example.com", first_name: "Jane", last_name: "Doe", country: "GB", zip: "SW1A1AA" });

export interface FloorServer {
  url: string;
  close(): Promise<void>;
}

/** Prepares, on this connection, the two plans `saleSql` executes. */
export const PREPARE_SALE = `${PREPARE_CREATE}; ${PREPARE_APPROVE}`;

/** One sale as one message: both EXECUTEs, one implicit transaction, one round trip. */
export function saleSql(client: pg.ClientBase, orderId: string, amountMinor: number): string {
  const q = (v: string) => client.escapeLiteral(v);
  const txId = `floor-${randomBytes(6).toString("hex")}`;
  return `execute floor_create(${q("m-test")}, ${q(orderId)}, ${q(randomBytes(32).toString("hex"))}, ${amountMinor}, 'USD', 'test-usd', 'cust-42',
    ${q(CUSTOMER_JSON)}, '411111******1111', 'VISA', '12/2030', ${q(randomBytes(32).toString("hex"))}, 'https://merchant.example/return', 'sim-a');
  execute floor_approve(currval('transaction_trace_id_seq')::integer, ${q(txId)})`;
}

/**
 * Starts the floor server on 127.0.0.1 (a free port) with a pool of `poolSize`
 * connections to `databaseUrl`. It answers `{"status":0,"transaction_status":"approved",...}`
 * to a JSON body naming `order_id` and `amount` (minor units), as the edge answers an approved sale.
 */
export async function startFloorServer(databaseUrl: string, poolSize: number): Promise<FloorServer> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // The plans every request executes, prepared once on each connection at its first use.
  const prepared = new WeakSet<pg.PoolClient>();
  pool.on("error", () => {});
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const reply = (status: number, body: unknown) => {
        const text = JSON.stringify(body);
        res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.end(text);
      };
      let client: pg.PoolClient | undefined;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { order_id?: unknown; amount?: unknown };
        client = await pool.connect();
        if (!prepared.has(client)) {
          await client.query(PREPARE_SALE);
          prepared.add(client);
        }
        const results = (await client.query(saleSql(client, String(body.order_id), Number(body.amount) || 1050))) as unknown as pg.QueryResult[];
        const row = results[1]?.rows[0] as { trace_id: number; status: string } | undefined;
        if (row?.status !== "approved") return reply(500, { status: 1, description: "not approved" });
        reply(200, { status: 0, transaction_status: "approved", trace_id: row.trace_id });
      } catch (err) {
        reply(500, { status: 1, description: (err as Error).message });
      } finally {
        client?.release();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
