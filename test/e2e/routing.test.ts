/**
 * Routing rules (CONTRACT 11, docs/routing.md) as a platform and an operator meet them, over real sockets: a
 * merchants file with a rule, signed Process sales through the edge, and gRPC GetTransaction naming the rule that
 * routed each one; a merchants file with a bad rule stops the start naming the rule's setting by its path. The
 * cascade's later attempts and refunds: test/db/engine/payments/app/routing.test.ts.
 */
import t from "tap";
import { SECRET } from "../support/merchants.ts";
import { startService, useService } from "../support/service.ts";
import { processSale, replySigned } from "../support/wire.ts";

/** EUR sales to sim-b first, the reverse of the merchant's processors. */
const EURO_RULE = "euro to sim-b";

/** A merchant whose processors start with sim-a and whose one rule sends EUR to sim-b; `rules` replaces the rule. */
function merchantsFile(rules: unknown[] = [{ name: EURO_RULE, when: { currency: ["EUR"] }, processors: ["sim-b", "sim-a"] }]) {
  return {
    merchants: [
      {
        merchant_id: "m-route",
        secret: SECRET,
        processors: ["sim-a", "sim-b"],
        frontends: [{ name: "route-web", base_currency: "USD", currencies: ["USD", "EUR"] }],
        routing_rules: rules,
      },
    ],
  };
}

const service = useService(t, {}, { merchants: merchantsFile() });

const sale = (currency: string) => processSale(service().edgeUrl, { merchant_id: "m-route", frontend: "route-web", currency });

t.test("a sale a rule holds for goes to the rule's account, and GetTransaction names the rule", async (t) => {
  const r = await sale("EUR");
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "approved");
  t.equal(r.body.payment_processor, "sim-b", "the rule's first account, not the processors' first");
  t.ok(replySigned(r.body));
  const got = await service().client.getTransaction({ traceId: r.body.trace_id });
  t.equal(got.transaction?.routingRule, EURO_RULE);
  t.equal(got.transaction?.paymentProcessor, "sim-b");
});

t.test("a sale no rule holds for follows the processors, and its routing_rule is empty", async (t) => {
  const r = await sale("USD");
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "approved");
  t.equal(r.body.payment_processor, "sim-a");
  const got = await service().client.getTransaction({ traceId: r.body.trace_id });
  t.equal(got.transaction?.routingRule, "", "no rule routed it");
  t.equal(got.transaction?.paymentProcessor, "sim-a");
});

t.test("a merchants file with a bad rule stops the start, naming the rule's setting", async (t) => {
  const cases: [string, unknown, RegExp][] = [
    [
      "an account the merchant does not have",
      { when: { currency: ["EUR"] }, processors: ["sim-b", "cko-eu"] },
      /merchants\[0\]\.routing_rules\[0\]\.processors\[1\] must name one of the merchant's accounts \(sim-a, sim-b\)/,
    ],
    [
      "a currency that is not ISO 4217",
      { when: { currency: ["eur"] }, processors: ["sim-b"] },
      /merchants\[0\]\.routing_rules\[0\]\.when\.currency\[0\] must be an ISO 4217 code/,
    ],
  ];
  for (const [what, rule, message] of cases) {
    await t.rejects(startService({}, { merchants: merchantsFile([rule]) }), message, what);
  }
});
