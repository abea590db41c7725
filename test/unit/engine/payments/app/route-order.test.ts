/**
 * Routing wired into an order: the facts a rule reads come from the Process request (type, amount, currency, the
 * customer's country, the card's brand and BIN), the cascade of an order is its rule's or else the merchant's, and a
 * challenge at a real acquirer keeps Cashier's page as the redirect_url with the acquirer's page beside it.
 */
import t from "tap";
import { cascadeOf, routeOrder, routingFacts } from "../../../../../engine/payments/app/route-order.ts";
import { challengeRedirects, isLastInCascade, paymentParty } from "../../../../../engine/payments/app/run-attempt.ts";
import type { Merchant } from "../../../../../engine/payments/ports/merchants.ts";
import { aProcessInput } from "../../../../support/builders.ts";

const merchant = (over: Partial<Merchant> = {}) => ({ id: "m1", processors: ["sim-a", "sim-b"], routingRules: [], ...over }) as unknown as Merchant;

t.test("the routing facts of an order come from its request", async (t) => {
  const input = aProcessInput({ amountMinor: 1234, currency: "EUR", card: { number: "4111111111111111", cvv: "123", expiry: "12/30" } });
  const facts = routingFacts({ ...input, customer: { ...input.customer, country: "DE" } }, "sale");
  t.same(facts, { type: "sale", currency: "EUR", amountMinor: 1234, country: "DE", cardBrand: "VISA", bin: "41111111" });
});

t.test("the first rule that holds picks the cascade and is named; none holding: the merchant's processors", async (t) => {
  const input = aProcessInput({ currency: "EUR" });
  const m = merchant({
    routingRules: [
      { name: "dollars", when: { currency: ["USD"] }, processors: ["sim-a"] },
      { when: { currency: ["EUR"] }, processors: ["sim-b", "sim-a"] },
    ],
  });
  t.same(routeOrder(m, input, "sale"), { cascade: ["sim-b", "sim-a"], rule: { index: 1 } });
  t.same(routeOrder(merchant(), input, "sale"), { cascade: ["sim-a", "sim-b"], rule: null });
});

t.test("an order's cascade is its rule's when one routed it, and the last attempt is the cascade's last", async (t) => {
  const m = merchant();
  t.same(cascadeOf({ cascade: ["sim-b"] }, m), ["sim-b"]);
  t.same(cascadeOf({ cascade: null }, m), ["sim-a", "sim-b"]);
  t.equal(isLastInCascade({ type: "sale", attempt: 1, cascade: ["sim-b"] }, m), true);
  t.equal(isLastInCascade({ type: "sale", attempt: 1, cascade: null }, m), false);
});

t.test("a challenge: Cashier's page as redirect_url, the acquirer's page beside it; the simulators' has none", async (t) => {
  const page = "https://cashier.example/3ds/7/mac";
  t.same(challengeRedirects({ kind: "challenge", transactionId: "p1", redirectUrl: "https://acq.example/3ds/p1" }, page), {
    redirectUrl: page,
    acquirerRedirectUrl: "https://acq.example/3ds/p1",
  });
  t.same(challengeRedirects({ kind: "challenge", transactionId: "p1" }, page), { redirectUrl: page, acquirerRedirectUrl: null });
  t.same(challengeRedirects({ kind: "approved", transactionId: "p1" }, page), { redirectUrl: null, acquirerRedirectUrl: null });
});

t.test("the customer to the acquirer: free text with card numbers masked, as the order keeps it", async (t) => {
  const c = aProcessInput().customer;
  const party = paymentParty({ ...c, firstName: "4111111111111111", requesterIp: "203.0.113.9" });
  t.not(party.firstName, "4111111111111111");
  t.equal(party.ip, "203.0.113.9");
  t.equal(party.email, c.email);
});
