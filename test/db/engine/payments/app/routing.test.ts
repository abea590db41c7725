/**
 * Routing rules (CONTRACT 11, docs/routing.md) in the Process use case, over a real Postgres and the acquirer
 * simulator (test/support/engine-deps.ts): the order a rule routes keeps the rule and its cascade, and its first
 * attempt goes to the rule's first account; an order no rule holds for follows the merchant's `processors` and keeps
 * no rule; a soft decline moves on along the stored cascade (not `processors`, nor the rules as they read later);
 * a refund goes back through its sale's account, unrouted. The same seen over sockets: test/e2e/routing.test.ts.
 */
import t from "tap";
import type { Attempt, ProcessInput } from "../../../../../engine/shared/transaction.ts";
import type { MerchantSpec } from "../../../../../engine/payments/ports/merchants.ts";
import { followUp } from "../../../../../engine/payments/app/follow-up.ts";
import { processTransaction } from "../../../../../engine/payments/app/process-transaction.ts";
import { aProcessInput, type ProcessInputOverrides } from "../../../../support/builders.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const engine = useEngineDeps(t);

/** Approved by both simulated acquirers. */
const APPROVED_CARD = "4111111111111111";
/** declined_retry (code 91) at every simulated acquirer (docs/integration.md's test cards). */
const RETRY_EVERYWHERE_CARD = "4000000000000341";

/** EUR sales to sim-b first, sim-a behind it: the reverse of the merchant's processors. */
const EURO_RULE = "euro to sim-b";

const merchant: MerchantSpec = {
  merchantId: "m-route",
  secret: "route-secret-0123456789",
  processors: ["sim-a", "sim-b"],
  frontends: [{ name: "route-web", baseCurrency: "USD", currencies: ["USD", "EUR"] }],
  routingRules: [{ name: EURO_RULE, when: { currency: ["EUR"] }, processors: ["sim-b", "sim-a"] }],
};

t.before(async () => {
  await engine().merchants.upsert(merchant);
});

let n = 0;
/** A new sale of 10.50 for m-route on route-web (USD unless told), with a card both simulators approve. */
function input(over: ProcessInputOverrides = {}): ProcessInput {
  n += 1;
  return aProcessInput({
    merchantId: "m-route",
    orderId: `route-${process.pid}-${n}`,
    frontend: "route-web",
    type: "sale",
    amountMinor: 1050,
    currency: "USD",
    card: { number: APPROVED_CARD },
    ...over,
  });
}

interface OrderRouting {
  routing_cascade: string[] | null;
  routing_rule_index: number | null;
  routing_rule: string | null;
}

/** What the order of `traceId` keeps of its routing. */
async function routingOf(traceId: number): Promise<OrderRouting> {
  const [row] = await engine().sql<OrderRouting>(
    `select o.routing_cascade, o.routing_rule_index, o.routing_rule
       from transaction t join payment_order o on o.id = t.order_ref where t.trace_id = ?`,
    [traceId],
  );
  return row;
}

/** The attempts of the order of `traceId`, first first. */
async function attemptsOf(traceId: number): Promise<{ trace_id: number; attempt: number; processor: string; status: string }[]> {
  return engine().sql(
    `select n.trace_id, n.attempt, n.processor, n.status
       from transaction t join transaction n on n.order_ref = t.order_ref where t.trace_id = ? order by n.attempt`,
    [traceId],
  );
}

async function run(i: ProcessInput): Promise<Attempt> {
  const r = await processTransaction(engine().deps, i, undefined);
  if (!r.ok) throw new Error(`refused: ${r.error.message}`);
  return r.attempt;
}

t.test("a sale a rule holds for keeps the rule and its cascade, and goes to the rule's first account", async (t) => {
  const a = await run(input({ currency: "EUR" }));
  t.equal(a.status, "approved");
  t.equal(a.processor, "sim-b", "the rule's first account, not the processors' first");
  t.match(a.transactionId, /^sim-b-/, "sim-b took it");
  t.equal(a.routingRule, EURO_RULE, "the attempt names its rule");
  t.same(a.cascade, ["sim-b", "sim-a"]);
  t.same(await routingOf(a.traceId), { routing_cascade: ["sim-b", "sim-a"], routing_rule_index: 0, routing_rule: EURO_RULE }, "the order keeps them");
  const read = await engine().deps.orders.get(a.traceId);
  t.equal(read?.routingRule, EURO_RULE, "read back from the store");
});

t.test("a sale no rule holds for follows the merchant's processors and keeps no rule", async (t) => {
  const a = await run(input({ currency: "USD" }));
  t.equal(a.status, "approved");
  t.equal(a.processor, "sim-a", "processors' first");
  t.match(a.transactionId, /^sim-a-/);
  t.equal(a.routingRule, null);
  t.equal(a.cascade, null);
  t.same(await routingOf(a.traceId), { routing_cascade: null, routing_rule_index: null, routing_rule: null });
});

t.test("a soft decline moves on along the stored cascade, whatever the rules and processors say later", async (t) => {
  const first = await run(input({ currency: "EUR", card: { number: RETRY_EVERYWHERE_CARD } }));
  t.equal(first.processor, "sim-b", "the rule's first account");
  t.equal(first.status, "declined_retry", "sim-b says try another route");
  const [, next] = await attemptsOf(first.traceId);
  t.ok(next, "the cascade's next attempt is made");
  // processors' second is sim-b: only the order's cascade (sim-b, sim-a) puts sim-a second.
  t.match(next, { attempt: 2, processor: "sim-a", status: "pending" }, "on the rule's next account");

  // The rules and processors change before the next attempt is sent: it keeps to its order's cascade.
  await engine().merchants.upsert({ ...merchant, processors: ["sim-b", "sim-a"], routingRules: [] });
  t.teardown(() => engine().merchants.upsert(merchant));
  await followUp(engine().deps, next.trace_id);
  const after = await engine().deps.orders.get(next.trace_id);
  t.equal(after?.processor, "sim-a");
  t.equal(after?.status, "declined", "sim-a retries too, and the cascade's last attempt ends declined");
  t.equal(after?.routingRule, EURO_RULE, "routed by the same rule as the first");
  t.same(after?.cascade, ["sim-b", "sim-a"]);
  t.equal((await attemptsOf(first.traceId)).length, 2, "two accounts in the cascade: two attempts, no third");
});

t.test("a refund goes back through its sale's account and is not routed", async (t) => {
  const sale = await run(input({ currency: "EUR" }));
  t.equal(sale.processor, "sim-b");
  const refund = await run(input({ currency: "EUR", type: "refund", referenceId: String(sale.traceId), amountMinor: 500 }));
  t.equal(refund.status, "approved");
  t.equal(refund.processor, "sim-b", "the sale's account");
  t.equal(refund.routingRule, null, "no rule is read for a refund");
  t.same(await routingOf(refund.traceId), { routing_cascade: null, routing_rule_index: null, routing_rule: null });
});

t.test("a refund of an unrouted sale stays at its account under a catch-all rule", async (t) => {
  const sale = await run(input({ currency: "USD" }));
  t.equal(sale.processor, "sim-a");
  // Every attempt to sim-b from now on: a refund read against the rules would go there.
  await engine().merchants.upsert({ ...merchant, routingRules: [{ name: "all to sim-b", when: {}, processors: ["sim-b"] }] });
  t.teardown(() => engine().merchants.upsert(merchant));
  const refund = await run(input({ currency: "USD", type: "refund", referenceId: String(sale.traceId), amountMinor: 1050 }));
  t.equal(refund.status, "approved");
  t.equal(refund.processor, "sim-a", "the sale's account, not the catch-all's");
  t.match(refund.transactionId, /^sim-a-/);
  t.equal(refund.routingRule, null);
  t.same(await routingOf(refund.traceId), { routing_cascade: null, routing_rule_index: null, routing_rule: null });
});

t.test("a rule without a name is labelled by its place", async (t) => {
  await engine().merchants.upsert({
    ...merchant,
    routingRules: [
      { name: "never", when: { currency: ["JPY"] }, processors: ["sim-a"] },
      { when: { currency: ["EUR"], amountMin: 100000 }, processors: ["sim-b"] },
    ],
  });
  t.teardown(() => engine().merchants.upsert(merchant));
  const big = await run(input({ currency: "EUR", amountMinor: 100000 }));
  t.equal(big.processor, "sim-b");
  t.same(await routingOf(big.traceId), { routing_cascade: ["sim-b"], routing_rule_index: 1, routing_rule: "rule 2" });
  const small = await run(input({ currency: "EUR", amountMinor: 99999 }));
  t.equal(small.processor, "sim-a", "below amount_min: no rule, processors' first");
  t.equal(small.routingRule, null);
});
