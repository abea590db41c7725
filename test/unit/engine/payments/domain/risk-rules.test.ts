/**
 * The risk rules, table-driven: which earlier orders each rule asks the store
 * to count (type, key, window, currency, live only for a deposit limit), when a
 * rule refuses given those counts (the N+1th, an amount over its limit, at and
 * just past each boundary, another currency never), a country mismatch by the
 * rule's own BIN table, the first refusing rule in the merchant's order, the
 * decline (9009, the catalogue's words, the rule only in the cause), and the
 * check of a rule as an admin writes it.
 */
import t from "tap";
import { parseRiskRule, fieldsOfRule, type RiskRuleFields } from "../../../../../engine/payments/domain/risk-rule-input.ts";
import {
  measureOf,
  refusingRule,
  RISK_DECLINED_DETAILS,
  riskDecision,
  riskMeasures,
  riskRuleOfCause,
  ruleRefuses,
  type RiskRule,
  type RiskSubject,
} from "../../../../../engine/payments/domain/risk-rules.ts";

const sale: RiskSubject = {
  type: "sale",
  amountMinor: 5000,
  currency: "EUR",
  pin: "p-1",
  email: " Ann@Example.COM ",
  ip: "203.0.113.7",
  country: "de",
  cardNumber: "4111111111111111",
  cardFingerprint: "fp-4111",
};

const velocity = (over: Partial<Extract<RiskRule, { kind: "velocity" }>> = {}): RiskRule => ({
  id: 1,
  name: "three an hour",
  kind: "velocity",
  type: "sale",
  key: "customer",
  windowSeconds: 3600,
  maxCount: 3,
  maxAmountMinor: null,
  currency: null,
  ...over,
});
const limit = (over: Partial<Extract<RiskRule, { kind: "deposit_limit" }>> = {}): RiskRule => ({
  id: 2,
  name: "100 EUR a day",
  kind: "deposit_limit",
  period: "day",
  currency: "EUR",
  maxAmountMinor: 10000,
  ...over,
});
const mismatch: RiskRule = { id: 3, name: "US cards", kind: "country_mismatch", binCountries: { "411111": "US", "55555555": "DE" } };

t.test("what each rule asks the store to count", async (t) => {
  const cases: [string, RiskRule, RiskSubject, string | undefined][] = [
    ["velocity by customer: the pin within the window", velocity(), sale, "sale customer=p-1 3600s - all"],
    ["velocity by card: the keyed fingerprint", velocity({ key: "card" }), sale, "sale card=fp-4111 3600s - all"],
    ["velocity by e-mail: lower-cased, trimmed", velocity({ key: "email" }), sale, "sale email=ann@example.com 3600s - all"],
    ["velocity by IP", velocity({ key: "ip" }), sale, "sale ip=203.0.113.7 3600s - all"],
    ["velocity with an amount: its currency", velocity({ maxAmountMinor: 100, currency: "EUR" }), sale, "sale customer=p-1 3600s EUR all"],
    ["velocity of payouts: not a sale", velocity({ type: "payout" }), sale, undefined],
    ["velocity of payouts: a payout", velocity({ type: "payout" }), { ...sale, type: "payout" }, "payout customer=p-1 3600s - all"],
    ["velocity by e-mail without an e-mail: nothing to count", velocity({ key: "email" }), { ...sale, email: " " }, undefined],
    ["velocity by IP without one: nothing", velocity({ key: "ip" }), { ...sale, ip: "" }, undefined],
    ["a daily limit: the customer's live sales of a day in its currency", limit(), sale, "sale customer=p-1 86400s EUR live"],
    ["a weekly limit: 7 days", limit({ period: "week" }), sale, "sale customer=p-1 604800s EUR live"],
    ["a monthly limit: 30 days", limit({ period: "month" }), sale, "sale customer=p-1 2592000s EUR live"],
    ["a limit in another currency: nothing", limit({ currency: "USD" }), sale, undefined],
    ["a limit on a payout: nothing", limit(), { ...sale, type: "payout" }, undefined],
    ["a country mismatch: no count", mismatch, sale, undefined],
  ];
  for (const [name, rule, s, want] of cases) {
    const m = measureOf(rule, s);
    t.equal(m && `${m.type} ${m.key}=${m.value} ${m.sinceSeconds}s ${m.currency ?? "-"} ${m.live ? "live" : "all"}`, want, name);
  }
});

t.test("when a rule refuses, given the earlier orders", async (t) => {
  const cases: [string, RiskRule, RiskSubject, { count: number; amountMinor: number } | undefined, boolean][] = [
    ["3 a window, 2 before: the 3rd passes", velocity(), sale, { count: 2, amountMinor: 0 }, false],
    ["3 a window, 3 before: the 4th is refused", velocity(), sale, { count: 3, amountMinor: 0 }, true],
    ["1 a window, none before: passes", velocity({ maxCount: 1 }), sale, { count: 0, amountMinor: 0 }, false],
    [
      "amount 100.00: 50.00 before + 50.00 is exactly the limit",
      velocity({ maxCount: null, maxAmountMinor: 10000, currency: "EUR" }),
      sale,
      { count: 9, amountMinor: 5000 },
      false,
    ],
    [
      "amount 100.00: 50.01 before + 50.00 is over",
      velocity({ maxCount: null, maxAmountMinor: 10000, currency: "EUR" }),
      sale,
      { count: 9, amountMinor: 5001 },
      true,
    ],
    ["amount in USD: a EUR sale is not summed", velocity({ maxCount: null, maxAmountMinor: 1, currency: "USD" }), sale, { count: 9, amountMinor: 0 }, false],
    ["count and amount: the count alone refuses", velocity({ maxCount: 2, maxAmountMinor: 99999, currency: "EUR" }), sale, { count: 2, amountMinor: 0 }, true],
    ["a daily limit at exactly its amount: passes", limit(), sale, { count: 1, amountMinor: 5000 }, false],
    ["a daily limit one cent over: refused", limit(), sale, { count: 1, amountMinor: 5001 }, true],
    ["a single sale above the limit: refused", limit({ maxAmountMinor: 4999 }), sale, { count: 0, amountMinor: 0 }, true],
    ["no count (another type): never", velocity(), sale, undefined, false],
    ["BIN listed under US, customer DE: refused", mismatch, sale, undefined, true],
    ["BIN listed under US, customer us: passes (case)", mismatch, { ...sale, country: "us" }, undefined, false],
    ["BIN not listed: passes (its country unknown)", mismatch, { ...sale, cardNumber: "5105105105105100" }, undefined, false],
    ["8-digit BIN listed under DE, customer DE: passes", mismatch, { ...sale, cardNumber: "5555555555554444" }, undefined, false],
    ["8-digit BIN under DE, customer FR: refused", mismatch, { ...sale, cardNumber: "5555555555554444", country: "FR" }, undefined, true],
    ["no customer country: passes", mismatch, { ...sale, country: "" }, undefined, false],
  ];
  for (const [name, rule, s, earlier, want] of cases) t.equal(ruleRefuses(rule, s, earlier), want, name);
});

t.test("the first refusing rule in the merchant's order; refunds never", async (t) => {
  const rules = [velocity({ id: 5, maxCount: 10 }), limit({ id: 6 }), velocity({ id: 7, name: "second", maxCount: 1 })];
  const m = riskMeasures(rules, sale);
  t.equal(m.length, 3);
  t.equal(
    refusingRule(rules, sale, [
      { count: 1, amountMinor: 0 },
      { count: 0, amountMinor: 0 },
      { count: 1, amountMinor: 0 },
    ])?.id,
    7,
  );
  t.equal(
    refusingRule(rules, sale, [
      { count: 10, amountMinor: 0 },
      { count: 0, amountMinor: 0 },
      { count: 1, amountMinor: 0 },
    ])?.id,
    5,
  );
  t.equal(
    refusingRule(rules, sale, [
      { count: 0, amountMinor: 0 },
      { count: 0, amountMinor: 0 },
      { count: 0, amountMinor: 0 },
    ]),
    undefined,
  );
  t.equal(refusingRule([mismatch], { ...sale, type: "refund" }, [undefined]), undefined, "a refund goes back where it came from");
});

t.test("the decline: 9009, the catalogue's words, the rule in the cause only", async (t) => {
  const d = riskDecision("sale", velocity({ id: 12, name: "Three: an hour" }));
  t.equal(d.errorCode, 9009);
  t.equal(d.errorDetails, RISK_DECLINED_DETAILS);
  t.notMatch(d.errorDetails ?? "", /Three/);
  t.same(d.to, { status: "declined" });
  t.same(riskRuleOfCause(d.cause), { id: 12, name: "Three: an hour" });
  t.same(riskDecision("payout", limit()).to, { status: "declined", letter: "J" });
  t.equal(riskRuleOfCause("block:3"), undefined);
});

const blank: RiskRuleFields = {
  name: "r",
  kind: "",
  transactionType: "",
  key: "",
  windowSeconds: 0,
  maxCount: 0,
  maxAmountMinor: 0,
  currency: "",
  period: "",
  binCountries: "",
};

t.test("a rule as an admin writes it: each fault named", async (t) => {
  const cases: [string, Partial<RiskRuleFields>, string[]][] = [
    ["an unknown kind", { kind: "geo" }, ["kind"]],
    ["velocity with nothing to limit", { kind: "velocity", transactionType: "sale", key: "card", windowSeconds: 60 }, ["max_count"]],
    [
      "velocity with a bad type, key and window",
      { kind: "velocity", transactionType: "refund", key: "phone", windowSeconds: 0, maxCount: 1 },
      ["transaction_type", "key", "window_seconds"],
    ],
    ["velocity window over 31 days", { kind: "velocity", transactionType: "sale", key: "card", windowSeconds: 2_678_401, maxCount: 1 }, ["window_seconds"]],
    ["velocity amount without currency", { kind: "velocity", transactionType: "sale", key: "card", windowSeconds: 60, maxAmountMinor: 5 }, ["currency"]],
    [
      "velocity amount in minor units only",
      { kind: "velocity", transactionType: "sale", key: "card", windowSeconds: 60, maxAmountMinor: 5.5, currency: "EUR" },
      ["max_amount_minor"],
    ],
    ["a limit with a bad period and currency", { kind: "deposit_limit", period: "year", currency: "eur", maxAmountMinor: 1 }, ["period", "currency"]],
    ["a limit of nothing", { kind: "deposit_limit", period: "day", currency: "EUR" }, ["max_amount_minor"]],
    ["a BIN table with a 5-digit BIN", { kind: "country_mismatch", binCountries: "41111=US" }, ["bin_countries"]],
    ["an empty BIN table", { kind: "country_mismatch", binCountries: " " }, ["bin_countries"]],
    ["an empty name", { name: " ", kind: "deposit_limit", period: "day", currency: "EUR", maxAmountMinor: 1 }, ["name"]],
  ];
  for (const [name, f, fields] of cases) {
    const r = parseRiskRule(1, { ...blank, ...f });
    t.same(r.ok ? [] : r.violations.map((v) => v.field), fields, name);
  }
  const good: Partial<RiskRuleFields>[] = [
    { kind: "velocity", transactionType: "payout", key: "ip", windowSeconds: 600, maxCount: 2, maxAmountMinor: 100000, currency: "EUR" },
    { kind: "deposit_limit", period: "month", currency: "GBP", maxAmountMinor: 50000 },
    { kind: "country_mismatch", binCountries: "411111=us, 55555555=DE" },
  ];
  for (const f of good) {
    const r = parseRiskRule(4, { ...blank, ...f });
    t.ok(r.ok, String(f.kind));
    if (r.ok) t.same(parseRiskRule(4, fieldsOfRule(r.rule)), r, `${String(f.kind)} reads back as written`);
  }
});
