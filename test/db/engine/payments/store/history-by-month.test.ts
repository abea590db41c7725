/**
 * A transaction's history read from the monthly partitions of
 * transaction_event (022): the read is bounded below by the attempt's
 * creation, less a day for clocks, so that it plans and probes the months
 * since rather than every month kept. What a reader sees must not change: a
 * change written by an engine whose clock runs behind the database's (its
 * time before the attempt's own creation), and one months later (a refund's
 * settlement, a chargeback's), are both in the history, in id order.
 */
import { createSecretKey, randomBytes } from "node:crypto";
import t from "tap";
import { PgMerchantStore } from "../../../../../engine/payments/store/merchant-store.ts";
import { PgOrderStore } from "../../../../../engine/payments/store/order-store.ts";
import { orderDraft } from "../../../../support/order-draft.ts";
import { migratedDatabase } from "../../../../support/store-database.ts";

t.test("the history keeps a change from a slow clock and one months later, and reads them in order", async (t) => {
  const { orm } = await migratedDatabase(t);
  await new PgMerchantStore(orm, createSecretKey(randomBytes(32))).upsert({
    merchantId: "m-months",
    secret: "s3cret",
    frontends: [{ name: "web", baseCurrency: "EUR" }],
  });
  const orders = new PgOrderStore(orm, "origin-a");
  const made = await orders.createOrder(orderDraft("m-months", "o-months"));
  if (!("attempt" in made)) throw new Error("no attempt");
  const traceId = made.attempt.traceId;
  const before = await orders.history(traceId);
  t.ok(before.length >= 1, "the attempt's first change is there");

  const sql = orm.em.getConnection();
  // An engine whose clock is an hour behind the database's, then a change four months on (another partition).
  await sql.execute(
    `insert into transaction_event (trace_id, from_status, to_status, cause, at)
     select trace_id, 'pending', 'pending', 'test:slow-clock', created_at - interval '1 hour' from "transaction" where trace_id = ?`,
    [traceId],
  );
  await sql.execute(
    `insert into transaction_event (trace_id, from_status, to_status, cause, at)
     select trace_id, 'pending', 'pending', 'test:months-later', created_at + interval '4 months' from "transaction" where trace_id = ?`,
    [traceId],
  );
  const [{ months }] = await sql.execute<{ months: string }[]>(`select count(distinct tableoid)::text as months from transaction_event where trace_id = ?`, [
    traceId,
  ]);
  t.ok(Number(months) >= 2, `the changes lie in ${months} partitions`);

  const after = await orders.history(traceId);
  t.same(
    after.map((c) => c.cause),
    [...before.map((c) => c.cause), "test:slow-clock", "test:months-later"],
    "every change, in the order written",
  );
  t.same(await orders.history(2 ** 31 - 1), [], "no attempt: no history");
});
