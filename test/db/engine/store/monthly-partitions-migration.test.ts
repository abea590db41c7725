/**
 * Migration 022 on a database that already has history (an upgrade): the
 * status history, the callbacks' attempts and the webhook inbox move into
 * their monthly partitions with every row, id and value as they were; the
 * months run from each table's oldest row to three ahead; ids go on from the
 * same sequences; the foreign keys still hold; an event kept before the
 * upgrade is still a replay after it. Run for real: the migrations up to 021
 * on an empty schema, the rows an older engine wrote, then the rest.
 */
import t from "tap";
import { migrate, openOrm } from "../../../../engine/store/orm.ts";
import { PgWebhookInbox } from "../../../../engine/payments/store/webhook-inbox-store.ts";
import { testDatabase } from "../../../support/processes.ts";

t.test("an upgrade moves every row into its month and keeps keys, sequences and dedup", async (t) => {
  const db = await testDatabase();
  t.teardown(() => db.stop());
  const orm = await openOrm(db.url, () => {}, { bounded: false });
  t.teardown(() => orm.close());
  const sql = <T>(text: string, params: unknown[] = []) => orm.em.fork().getConnection().execute<T[]>(text, params);
  // The run's databases come migrated: start this one over, as a database of the version before.
  await sql("drop schema public cascade; create schema public;");
  await orm.migrator.up({ to: "021-audit-checkpoints" });

  await sql(`insert into merchant (id, secret_sealed) values ('m-up', 'not-a-secret')`);
  await sql(`insert into payment_order (merchant_id, order_id, type, fingerprint, amount_minor, currency, frontend, pin, customer,
      card_masked, card_brand, card_expiry, card_fingerprint, return_url)
    values ('m-up', 'o-1', 'sale', 'f', 1000, 'USD', 'fe', 'pin', '{}', '411111******1111', 'VISA', '12/2030', 'cf', 'https://m.example/r')`);
  await sql(`insert into transaction (order_ref, attempt, processor, status) select id, 1, 'sim-a', 'pending' from payment_order`);
  await sql("update transaction set status = 'approved'");
  const [{ trace }] = await sql<{ trace: number }>("select trace_id as trace from transaction");
  // History 14 months, 2 months and 0 months old; a callback with attempts 14 months and today; two webhook events.
  for (const age of ["14 months", "2 months", "0 days"])
    await sql(
      `insert into transaction_event (trace_id, from_status, to_status, cause, at) values (?, 'pending', 'approved', 'old-engine', now() - interval '${age}')`,
      [trace],
    );
  await sql(
    `insert into callback (event_id, kind, merchant_id, trace_id, url, body, state) values (gen_random_uuid(), 'notification', 'm-up', ?, 'https://p.example/n', '{}', 'delivered')`,
    [trace],
  );
  for (const age of ["14 months", "0 days"])
    await sql(`insert into callback_attempt (callback_id, at, duration_ms, outcome) select id, now() - interval '${age}', 5, 'delivered' from callback`);
  for (const [id, age] of [
    ["evt-1", "3 months"],
    ["evt-2", "0 days"],
  ])
    await sql(
      `insert into acquirer_webhook_event (merchant_id, account, event_id, event_type, body, received_at, outcome)
       values ('m-up', 'adyen-eu', ?, 'AUTHORISATION', convert_to('{}', 'UTF8'), now() - interval '${age}', 'kept')`,
      [id],
    );
  const snapshot = () =>
    Promise.all([
      sql("select id::int, trace_id, from_status, to_status, cause, at from transaction_event order by id"),
      sql("select id::int, callback_id::int, at, duration_ms, outcome from callback_attempt order by id"),
      sql("select id::int, merchant_id, account, event_id, body, received_at, outcome from acquirer_webhook_event order by id"),
    ]);
  const before = await snapshot();

  await migrate(orm, () => {});

  t.same(await snapshot(), before, "every row of the three tables is there, as it was");
  const monthsOf = async (table: string) =>
    (
      await sql<{ name: string }>(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ?::regclass order by 1`,
        [table],
      )
    ).map((r) => r.name);
  const month = async (expr: string) => (await sql<{ m: string }>(`select to_char((${expr}) at time zone 'UTC', 'YYYY_MM') as m`))[0].m;
  const history = await monthsOf("transaction_event");
  t.ok(history.includes(`transaction_event_${await month("now() - interval '14 months'")}`), "the history's oldest month was made");
  t.ok(history.includes(`transaction_event_${await month("now() + interval '3 months'")}`), "and three ahead");
  t.ok(history.includes("transaction_event_default"), "and the default partition");
  const webhooks = await monthsOf("acquirer_webhook_event");
  t.ok(webhooks.includes(`acquirer_webhook_event_${await month("now() - interval '3 months'")}`), "the inbox's months start at its oldest event");
  t.notOk(webhooks.includes(`acquirer_webhook_event_${await month("now() - interval '14 months'")}`), "not at another table's");
  for (const table of ["transaction_event", "callback_attempt", "acquirer_webhook_event"]) {
    const [{ n }] = await sql<{ n: number }>(`select count(*)::int as n from ${table}_default`);
    t.equal(n, 0, `${table}: no row fell to the default partition`);
  }

  const [next] = await sql<{ id: number }>(
    "insert into transaction_event (trace_id, to_status, cause) values (?, 'approved', 'new-engine') returning id::int as id",
    [trace],
  );
  t.ok(next.id > Math.max(...(before[0] as { id: number }[]).map((r) => r.id)), "ids go on from the same sequence");
  const refused = await sql("insert into transaction_event (trace_id, to_status, cause) values (999999, 'approved', 'x')").catch(
    (err: { code?: string }) => err.code,
  );
  t.equal(refused, "23503", "the history still references its transaction");

  const inbox = new PgWebhookInbox(orm);
  const entry = {
    merchantId: "m-up",
    account: "adyen-eu",
    eventType: "AUTHORISATION",
    body: Buffer.from("{}"),
    traceId: null,
    outcome: "kept",
    appliedAt: null,
  };
  t.equal(await inbox.record({ ...entry, eventId: "evt-1" }), false, "an event kept before the upgrade is a replay after it");
  t.equal(await inbox.record({ ...entry, eventId: "evt-3" }), true, "a new one is kept");

  const marks = await sql<{ name: string }>("select name from retention_watermark order by name");
  t.same(
    marks.map((m) => m.name),
    ["callback", "hosted_session"],
    "the monthly tables have no watermark any more",
  );
});
