/**
 * Fills a database with `n` realistic orders in a few statements of SQL
 * (generate_series), for the search plan test and `npm run bench -- --grow`:
 * 20 merchants (one holding half the orders, and m-grow-tiny with 20 old
 * ones), about eight orders per customer (pin and e-mail address, the
 * address in mixed case), card endings spread over 0000-9999, one order in
 * twenty a payout, sales mostly approved or declined with 5 % cascaded to a
 * second attempt, a few left pending (stuck), the status history of each
 * attempt, a callback per final attempt (a few failed, refused or still
 * being retried, with their attempts, next due in 30 days so that no
 * worker sends them). Orders are two seconds apart, the
 * newest an hour old; the monthly tables get the months that history spans
 * first (migration 022), as a database that grew so would have them, so
 * that old rows do not all fall to the default partition. The rows are written as they are after the fact, so
 * the transition triggers, which check each change as it happens, are off
 * for this session (session_replication_role = replica, also skipping the
 * foreign-key checks the written rows satisfy). Ends with VACUUM ANALYZE.
 */
import pg from "pg";

export const GROW_MERCHANTS = 20;
/** The merchant holding half of the orders. */
export const BIG_MERCHANT = "m-grow-00";
/** A merchant with only 20 orders, a month old. */
export const TINY_MERCHANT = "m-grow-tiny";

/** Rows written per table, for the caller's report. */
export interface FillCounts {
  orders: number;
  transactions: number;
  events: number;
  callbacks: number;
  attempts: number;
}

export async function growFill(url: string, n: number, log: (line: string) => void = () => {}): Promise<FillCounts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set session_replication_role = replica");
    await client.query("set maintenance_work_mem = '256MB'");
    const step = async (what: string, text: string, values: unknown[] = []) => {
      const began = Date.now();
      const r = await client.query(text, values);
      log(`  ${what}: ${r.rowCount ?? 0} rows in ${((Date.now() - began) / 1000).toFixed(1)} s`);
      return r.rowCount ?? 0;
    };
    await client.query(
      `insert into merchant (id, secret_sealed)
       select 'm-grow-' || lpad(i::text, 2, '0'), 'not-a-secret' from generate_series(0, $1 - 1) i
       union all select $2, 'not-a-secret'
       on conflict (id) do nothing`,
      [GROW_MERCHANTS, TINY_MERCHANT],
    );
    for (const table of ["transaction_event", "callback_attempt", "acquirer_webhook_event"])
      await client.query(`select cashier_partitions_create($1, now() - interval '1 hour' - $2::int * interval '2 seconds' - interval '31 days', now())`, [
        table,
        n,
      ]);
    const first = Number((await client.query("select coalesce(max(id), 0) + 1 as id from payment_order")).rows[0].id);
    const orders = await step(
      "orders",
      `insert into payment_order (merchant_id, order_id, type, fingerprint, amount_minor, currency, frontend, pin, customer,
         card_masked, card_brand, card_expiry, card_fingerprint, return_url, created_at)
       select s.m, 'g-' || s.g, s.typ, md5(s.g::text), 100 + (s.g * 37) % 100000, 'USD', s.m || '-fe' || (s.g % 2), s.pin,
         jsonb_build_object('pin', s.pin, 'email', 'Customer' || s.c || '@Example.com', 'firstName', 'Grow', 'lastName', 'Fill',
           'country', 'GB', 'requesterIp', '192.0.2.1'),
         '411111******' || lpad(((s.g * 7919) % 10000)::text, 4, '0'), 'VISA', '12/2030', md5('card' || s.g), 'https://merchant.example/return',
         now() - interval '1 hour' - ($1::int - s.g) * interval '2 seconds'
       from (select g, g % greatest($1::int / 8, 1) as c, 'cust-' || (g % greatest($1::int / 8, 1)) as pin,
               case when g % 100 < 50 then $2 else 'm-grow-' || lpad((1 + g % ($3::int - 1))::text, 2, '0') end as m,
               case when g % 20 = 0 then 'payout' else 'sale' end as typ
             from generate_series(1::bigint, $1::bigint) g
             union all
             select $1::bigint + i, 1000000000 + i, 'tiny-' || i, $4, 'sale' from generate_series(1, 20) i) s`,
      [n, BIG_MERCHANT, GROW_MERCHANTS, TINY_MERCHANT],
    );
    await client.query(
      `update payment_order set created_at = now() - interval '30 days' - (id % 20) * interval '1 minute'
       where merchant_id = $1 and id >= $2`,
      [TINY_MERCHANT, first],
    );
    // Statuses by the order's id: sales 70 % approved, 20 % declined, 5 % declined_retry (then a second
    // attempt), 1 % cancelled, 0.3 % left pending or pending_async; payouts mostly Y, some J, C, requested.
    let transactions = await step(
      "attempts",
      `insert into transaction (order_ref, attempt, processor, status, payout_letter, deposit_state, transaction_id, submitted, created_at, updated_at)
       select o.id, 1, case when o.id % 2 = 0 then 'sim-a' else 'sim-b' end, x.status, x.letter,
         case when x.status = 'declined' and o.type = 'sale' then 'N' end,
         case when x.status in ('approved', 'declined', 'declined_retry') then 'px-' || o.id || '-1' end,
         true, o.created_at, o.created_at + interval '1 second'
       from payment_order o
       cross join lateral (select o.id % 1000 as r) r
       cross join lateral (select
         case when o.type = 'payout' then (case when r.r < 800 then 'approved' when r.r < 900 then 'declined' when r.r < 990 then 'cancelled' else 'requested' end)
              else (case when r.r < 700 then 'approved' when r.r < 900 then 'declined' when r.r < 950 then 'declined_retry'
                         when r.r < 960 then 'cancelled' when r.r < 962 then 'pending_async' when r.r < 963 then 'pending' else 'approved' end) end as status,
         case when o.type = 'payout' then (case when r.r < 800 then 'Y' when r.r < 900 then 'J' when r.r < 990 then 'C' end) end as letter) x
       where o.id >= $1`,
      [first],
    );
    transactions += await step(
      "cascade attempts",
      `insert into transaction (order_ref, attempt, processor, status, transaction_id, submitted, created_at, updated_at)
       select t.order_ref, 2, 'sim-a', 'approved', 'px-' || t.order_ref || '-2', true, t.created_at + interval '2 seconds', t.created_at + interval '3 seconds'
       from transaction t join payment_order o on o.id = t.order_ref
       where o.id >= $1 and t.status = 'declined_retry'`,
      [first],
    );
    const events = await step(
      "status history",
      `insert into transaction_event (trace_id, from_status, to_status, payout_letter, cause, at)
       select t.trace_id, null, case when o.type = 'payout' then 'requested' else 'pending' end, null, 'api', t.created_at
       from transaction t join payment_order o on o.id = t.order_ref where o.id >= $1
       union all
       select t.trace_id, case when o.type = 'payout' then 'requested' else 'pending' end, t.status, t.payout_letter, 'processor', t.updated_at
       from transaction t join payment_order o on o.id = t.order_ref where o.id >= $1 and t.status not in ('pending', 'requested')`,
      [first],
    );
    // One callback per final attempt: 1 in 500 failed, 1 in 500 refused, 2 in 500 still being retried.
    const callbacks = await step(
      "callbacks",
      `insert into callback (event_id, kind, merchant_id, trace_id, url, body, state, attempts, next_attempt_at, created_at, updated_at)
       select gen_random_uuid(),
         case when o.type = 'payout' then 'update_payout' when t.status = 'declined' then 'record_failed_deposit' else 'notification' end,
         o.merchant_id, t.trace_id, 'https://platform.example/callback', '{}',
         case t.trace_id % 500 when 0 then 'failed' when 1 then 'refused' when 2 then 'pending' when 3 then 'pending' else 'delivered' end,
         case t.trace_id % 500 when 0 then 12 when 1 then 1 when 2 then 1 + t.trace_id % 7 when 3 then 1 + t.trace_id % 7 else 1 end,
         now() + interval '30 days', t.updated_at, t.updated_at + interval '1 second'
       from transaction t join payment_order o on o.id = t.order_ref
       where o.id >= $1 and t.status not in ('pending', 'pending_async', 'requested', 'declined_retry')`,
      [first],
    );
    const attempts = await step(
      "callback attempts",
      `insert into callback_attempt (callback_id, at, duration_ms, http_status, response_body, outcome, error)
       select c.id, c.created_at + i * interval '1 minute', 20, case when c.state = 'delivered' then 200 else 503 end, '',
         case when c.state = 'delivered' then 'delivered' when c.state = 'refused' then 'refused' else 'retry' end, ''
       from callback c cross join lateral generate_series(1, c.attempts) i
       where c.state <> 'delivered' and c.trace_id >= (select min(trace_id) from transaction where order_ref >= $1)`,
      [first],
    );
    // VACUUM as autovacuum does for tables only inserted into: the visibility map lets the
    // searches' index walks skip the table's pages.
    await step("vacuum analyze", "vacuum analyze");
    return { orders, transactions, events, callbacks, attempts };
  } finally {
    await client.end();
  }
}
