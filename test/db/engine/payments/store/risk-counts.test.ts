/**
 * The Process call's risk counts on Postgres (store/risk-rules-store.ts):
 * one query answers every measure of a request at once: this merchant's
 * orders of the measure's type whose key holds the value, within its window,
 * the amounts of its currency only, and for a deposit limit only orders that
 * hold or may hold money; the rules saved by the console's store are read
 * back by the engine's cache as written. The console's dry-run orders come
 * back oldest first with the BIN of the masked number.
 */
import { createSecretKey, randomBytes } from "node:crypto";
import t from "tap";
import { riskMeasures, type RiskRule, type RiskSubject } from "../../../../../engine/payments/domain/risk-rules.ts";
import { PgRiskRules } from "../../../../../engine/payments/store/risk-rules-store.ts";
import { PgMerchantStore } from "../../../../../engine/payments/store/merchant-store.ts";
import { PgRiskRuleStore } from "../../../../../engine/console/store/risk-rule-store.ts";
import { inTransaction } from "../../../../../engine/console/store/console-db.ts";
import { migratedDatabase } from "../../../../support/store-database.ts";

t.test("one query counts every rule's earlier orders", async (t) => {
  const { orm } = await migratedDatabase(t);
  const merchants = new PgMerchantStore(orm, createSecretKey(randomBytes(32)));
  for (const id of ["m-a", "m-b"]) await merchants.upsert({ merchantId: id, secret: "s3cret", frontends: [{ name: "web", baseCurrency: "EUR" }] });
  const conn = orm.em.getConnection();
  let n = 0;
  /** An order made `ago` seconds before now with one attempt in `status`. */
  const order = async (o: {
    merchant?: string;
    type?: string;
    amount: number;
    currency?: string;
    pin?: string;
    email?: string;
    ip?: string;
    fp?: string;
    ago: number;
    status?: string;
  }) => {
    n++;
    const customer = JSON.stringify({ email: o.email ?? "ann@example.com", requester_ip: o.ip ?? "203.0.113.7", country: "DE" });
    const [row] = (await conn.execute(
      `insert into payment_order (merchant_id, order_id, type, fingerprint, amount_minor, currency, frontend, pin, customer, card_masked, card_brand, card_expiry, card_fingerprint, return_url, created_at)
       values (?, ?, ?, 'f', ?, ?, 'web', ?, ?::jsonb, '411111******1111', 'visa', '12/30', ?, '', now() - make_interval(secs => ?)) returning id`,
      [o.merchant ?? "m-a", `o-${n}`, o.type ?? "sale", o.amount, o.currency ?? "EUR", o.pin ?? "p-1", customer, o.fp ?? "fp-1", o.ago],
    )) as { id: string }[];
    // Made in its initial state (a trigger allows no other), then moved as the engine would.
    const initial = o.type === "payout" ? "requested" : "pending";
    const [tx] = (await conn.execute(`insert into transaction (order_ref, attempt, processor, status) values (?, 1, 'sim', ?) returning trace_id`, [
      row?.id,
      initial,
    ])) as { trace_id: number }[];
    const status = o.status ?? (o.type === "payout" ? initial : "approved");
    if (status !== initial) await conn.execute("update transaction set status = ? where trace_id = ?", [status, tx?.trace_id]);
  };
  await order({ amount: 1000, ago: 60 });
  await order({ amount: 2000, ago: 120, status: "declined" });
  await order({ amount: 4000, ago: 4000 }); // outside an hour, inside a day
  await order({ amount: 500, ago: 30, currency: "USD" });
  await order({ amount: 700, ago: 30, type: "payout" });
  await order({ amount: 900, ago: 30, pin: "p-2", fp: "fp-2", email: "bob@example.com", ip: "198.51.100.1" });
  await order({ amount: 9999, ago: 30, merchant: "m-b" });
  await order({ amount: 300, ago: 90_000 }); // outside a day

  const rules: RiskRule[] = [
    {
      id: 1,
      name: "customer an hour",
      kind: "velocity",
      type: "sale",
      key: "customer",
      windowSeconds: 3600,
      maxCount: 5,
      maxAmountMinor: 100_000,
      currency: "EUR",
    },
    { id: 2, name: "card a day", kind: "velocity", type: "sale", key: "card", windowSeconds: 86_400, maxCount: 5, maxAmountMinor: null, currency: null },
    { id: 3, name: "e-mail payouts", kind: "velocity", type: "payout", key: "email", windowSeconds: 3600, maxCount: 5, maxAmountMinor: null, currency: null },
    { id: 4, name: "ip", kind: "velocity", type: "sale", key: "ip", windowSeconds: 3600, maxCount: 5, maxAmountMinor: null, currency: null },
    { id: 5, name: "daily", kind: "deposit_limit", period: "day", currency: "EUR", maxAmountMinor: 100_000 },
    { id: 6, name: "country", kind: "country_mismatch", binCountries: { "411111": "US" } },
  ];
  const subject: RiskSubject = {
    type: "sale",
    amountMinor: 100,
    currency: "EUR",
    pin: "p-1",
    email: "ANN@example.com",
    ip: "203.0.113.7",
    country: "DE",
    cardNumber: "4111111111111111",
    cardFingerprint: "fp-1",
  };
  const risk = new PgRiskRules(orm, 1);
  const counts = await risk.counts("m-a", riskMeasures(rules, subject), new Date());
  t.same(
    counts,
    [
      { count: 3, amountMinor: 3000 }, // 60 s, 120 s (declined: a velocity counts it), 30 s in USD (counted, not summed)
      { count: 4, amountMinor: 0 }, // the card within a day: all but the older and the other card's
      undefined, // a payout rule: not this sale's
      { count: 3, amountMinor: 0 }, // the IP within an hour, any currency
      { count: 3, amountMinor: 5000 }, // live sales of the day: 60 s, 4000 s and the USD one; the EUR summed (the declined one holds no money)
      undefined, // needs no count
    ],
    "each measure as the rule asks",
  );
  const payout = await risk.counts("m-a", riskMeasures(rules, { ...subject, type: "payout" }), new Date());
  t.same(payout[2], { count: 1, amountMinor: 0 }, "the payout rule by e-mail, without case");
  t.same(await risk.counts("m-a", [undefined, undefined], new Date()), [undefined, undefined], "no measure: no query");

  // The console saves, the engine reads the rules back as written; a delete is gone.
  const store = new PgRiskRuleStore(orm);
  const r0 = rules[0];
  const r5 = rules[5];
  if (!r0 || !r5) throw new Error("rules");
  const added = await inTransaction(orm, (tx) => store.add("m-a", r0, "backoffice:ann", 50, tx));
  const country = await inTransaction(orm, (tx) => store.add("m-a", r5, "backoffice:ann", 2, tx));
  t.equal(await inTransaction(orm, (tx) => store.add("m-a", r5, "backoffice:ann", 2, tx)), undefined, "no more than the most rules");
  if (!added || !country) throw new Error("not added");
  t.same(
    (await risk.rules("m-a")).map((r) => ({ ...r, id: 0 })),
    [
      { ...r0, id: 0 },
      { ...r5, id: 0 },
    ],
    "the engine reads the rules as saved",
  );
  t.ok(await inTransaction(orm, (tx) => store.delete("m-a", country.rule.id, tx)));
  t.notOk(await inTransaction(orm, (tx) => store.delete("m-b", added.rule.id, tx)), "another merchant's rule is not deleted");
  risk.invalidate("m-a");
  t.same(
    (await risk.rules("m-a")).map((r) => r.id),
    [added.rule.id],
  );

  const orders = await store.ordersSince("m-a", new Date(Date.now() - 86_400_000), 1000);
  t.equal(orders.length, 6, "the merchant's orders of the day (not the older one, not another merchant's)");
  t.ok(
    orders.every((o, i) => i === 0 || (orders[i - 1]?.createdAt ?? o.createdAt) <= o.createdAt),
    "oldest first",
  );
  t.same([orders[0]?.cardNumber, orders[0]?.live, orders[0]?.amountMinor], ["411111", true, 4000]);
  t.same((await store.ordersSince("m-a", new Date(Date.now() - 86_400_000), 2)).length, 2, "at most the limit");
});
