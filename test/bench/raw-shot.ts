/**
 * The bench's raw phase: the rows an approved sale writes, by plain SQL on a pg pool, two statements (the order
 * with its first attempt and history row, then its approval), named prepared statements as the engine's hot path
 * uses. What the engine adds to these is what the edge and gRPC phases measure beside it.
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { orderId } from "../support/wire.ts";
import type { Shot } from "./loops.ts";
import { errorLabel } from "./shots.ts";

const ATTEMPT_COLUMNS = `t.trace_id, t.order_ref, t.attempt, t.processor, t.status, t.payout_letter, t.deposit_state,
  t.transaction_id, t.error_code, t.error_details, t.redirect_url, t.created_at, t.updated_at, o.order_id, o.merchant_id,
  o.type, o.amount_minor, o.currency, o.card_masked, o.card_brand, o.card_expiry, o.pin, o.frontend, o.reference_trace_id,
  (o.card_sealed is not null) as card_held`;

/** The order, its first attempt (pending) and the "created" history row: one statement. */
const RAW_CREATE = `
  with o as (
    insert into payment_order (merchant_id, order_id, type, fingerprint, amount_minor, currency, frontend, pin, customer,
      card_masked, card_brand, card_expiry, card_fingerprint, return_url, notification_url, reference_trace_id)
    values ($1, $2, 'sale', $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, null, null)
    on conflict on constraint payment_order_merchant_order_unique do nothing
    returning *),
  t as (insert into transaction (order_ref, attempt, processor, status, payout_letter)
        select o.id, 1, $14, 'pending', null from o returning *),
  e as (insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause)
        select trace_id, null, status, payout_letter, 'created' from t)
  select ${ATTEMPT_COLUMNS} from t join o on o.id = t.order_ref`;

/** pending -> approved plus its history row: one statement. */
const RAW_APPROVE = `
  with t as (
    update transaction set status = 'approved', transaction_id = $2, version = version + 1, updated_at = now()
    where trace_id = $1 and status = 'pending'
    returning *),
  e as (insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause)
        select trace_id, 'pending', status, payout_letter, 'processor:approved' from t)
  select ${ATTEMPT_COLUMNS} from t join payment_order o on o.id = t.order_ref`;

const CUSTOMER_JSON = JSON.stringify({
  email: "jane@example.com",
  first_name: "Jane",
  last_name: "Doe",
  dob: "",
  phone: "",
  address: "",
  city: "",
  country: "GB",
  state: "",
  zip: "SW1A1AA",
  requester_ip: "",
});
const CARD_FINGERPRINT = randomBytes(32).toString("hex");

/** A sale as the raw phase makes it: the two statements, prepared, on `pool`. */
export function rawShot(pool: pg.Pool): Shot {
  return async () => {
    try {
      // Named prepared statements, as the engine's hot path uses them.
      const created = await pool.query({
        name: "raw-create",
        text: RAW_CREATE,
        values: [
          "m-test",
          orderId("raw"),
          randomBytes(32).toString("hex"),
          1050,
          "USD",
          "test-usd",
          "cust-42",
          CUSTOMER_JSON,
          "411111******1111",
          "VISA",
          "12/2030",
          CARD_FINGERPRINT,
          "https://merchant.example/return",
          "sim-a",
        ],
      });
      const traceId = created.rows[0]?.trace_id;
      if (traceId === undefined) return "order not created";
      const txId = `sim-a-a${Math.floor(Date.now() / 1000)}-${randomBytes(6).toString("hex")}`;
      const approved = await pool.query({ name: "raw-approve", text: RAW_APPROVE, values: [traceId, txId] });
      if (approved.rows[0]?.status !== "approved") return "not approved";
      return undefined;
    } catch (err) {
      return errorLabel(err);
    }
  };
}
