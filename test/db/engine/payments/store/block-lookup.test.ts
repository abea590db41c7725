/**
 * The Process call's block lookup on Postgres (store/block-lookup.ts) against
 * the console's blocks (console/store/customer-store.ts): one query finds the
 * merchant's held blocks among a request's keys, not another merchant's, not a
 * lifted one; a second held block of the same value is refused by the partial
 * unique index and answered with the first; and the query walks that index.
 */
import { createSecretKey, randomBytes } from "node:crypto";
import t from "tap";
import { blockKeys } from "../../../../../engine/payments/domain/blocks.ts";
import { PgBlockList } from "../../../../../engine/payments/store/block-lookup.ts";
import { PgMerchantStore } from "../../../../../engine/payments/store/merchant-store.ts";
import { PgCustomerStore } from "../../../../../engine/console/store/customer-store.ts";
import { inTransaction } from "../../../../../engine/console/store/console-db.ts";
import { migratedDatabase } from "../../../../support/store-database.ts";

t.test("held blocks of the merchant among the request's keys, one index walk", async (t) => {
  const { orm } = await migratedDatabase(t);
  const merchants = new PgMerchantStore(orm, createSecretKey(randomBytes(32)));
  for (const id of ["m-a", "m-b"]) await merchants.upsert({ merchantId: id, secret: "s3cret", frontends: [{ name: "web", baseCurrency: "EUR" }] });
  const store = new PgCustomerStore(orm);
  const lookup = new PgBlockList(orm);
  const block = (merchantId: string, kind: "customer" | "card" | "email" | "bin", value: string) =>
    inTransaction(orm, (tx) => store.createBlock({ merchantId, kind, value, label: value, reason: "test", pin: "p-1", createdBy: "backoffice:tester" }, tx));

  const keys = blockKeys("sale", { pin: "p-1", email: "Ann@Example.com", cardNumber: "4111111111111111", cardFingerprint: "fp-1" });
  t.same(await lookup.held("m-a", keys), [], "nothing held");

  const pin = await block("m-a", "customer", "p-1");
  const bin = await block("m-a", "bin", "41111111");
  await block("m-b", "email", "ann@example.com");
  await block("m-a", "email", "bob@example.com");
  if (!("created" in pin) || !("created" in bin)) throw new Error("not made");
  const found = await lookup.held("m-a", keys);
  t.same(found.map((b) => `${b.kind}:${b.value}`).sort(), ["bin:41111111", "customer:p-1"], "this merchant's blocks of these keys only");

  const twice = await block("m-a", "customer", "p-1");
  t.same("heldBy" in twice && twice.heldBy.id, pin.created.id, "a second block of a held value: the first is answered");

  const lifted = await inTransaction(orm, (tx) => store.liftBlock(pin.created.id, "backoffice:lifter", "cleared", tx));
  t.equal(lifted?.liftedBy, "backoffice:lifter");
  t.equal(await inTransaction(orm, (tx) => store.liftBlock(pin.created.id, "backoffice:lifter", "again", tx)), undefined, "lifted once only");
  t.same(
    (await lookup.held("m-a", keys)).map((b) => b.kind),
    ["bin"],
    "a lifted block holds nothing",
  );
  const again = await block("m-a", "customer", "p-1");
  t.ok("created" in again, "a lifted value may be blocked again");

  // The plan: the partial unique index, not a scan of every block (planner told not to scan, as on a large table).
  const conn = orm.em.getConnection();
  await conn.execute("set enable_seqscan = off");
  const plan = (await conn.execute(
    `explain select id, kind, value from customer_block where merchant_id = 'm-a' and lifted_at is null
       and ((kind = 'customer' and value = 'p-1') or (kind = 'bin' and value = '411111'))`,
  )) as { "QUERY PLAN": string }[];
  t.match(plan.map((r) => r["QUERY PLAN"]).join("\n"), /customer_block_held_unique/, "the lookup walks customer_block_held_unique");
});
