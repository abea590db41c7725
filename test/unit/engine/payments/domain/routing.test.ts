/**
 * Routing rules (CONTRACT 11) as a decision table: each condition alone (absent, held, not held), conditions
 * together, the first rule that holds winning, the merchant's processors when none does, amount bounds inclusive at
 * both ends in currencies of 0, 2 and 3 decimals, BIN prefixes of every length, brands by name in any case, and a
 * split's draw over each weight's share; and, for any rules and attempt, a cascade that is never empty and tries no
 * account twice.
 */
import { CARD_BRANDS } from "../../../../../engine/shared/card.ts";
import fc from "fast-check";
import t from "tap";
import { cardBrand } from "../../../../../engine/shared/card.ts";
import {
  binOf,
  cardFacts,
  compareToWire,
  holds,
  orderPick,
  type RoutingConditions,
  type RoutingFacts,
  type RoutingRule,
  route,
  ruleLabel,
  splitCascade,
} from "../../../../../engine/payments/domain/routing.ts";

const DEFAULT = ["sim-a", "sim-b"];
const facts = (over: Partial<RoutingFacts> = {}): RoutingFacts => ({
  type: "sale",
  currency: "EUR",
  amountMinor: 1000,
  country: "DE",
  cardBrand: "VISA",
  bin: "41111111",
  ...over,
});
const never = () => {
  throw new Error("pick is read only for a split");
};
/** The cascade a single rule with `when` gives `f`: its accounts when it holds, the default when not. */
const routed = (when: RoutingConditions, f: RoutingFacts) => route([{ when, processors: ["adyen-eu"] }], f, DEFAULT, never);

t.test("each condition alone: absent holds for any attempt, a listed value holds, another does not", async (t) => {
  const table: [string, RoutingConditions, Partial<RoutingFacts>, Partial<RoutingFacts>][] = [
    ["transaction_type", { transactionType: ["payout"] }, { type: "payout" }, { type: "sale" }],
    ["transaction_type of two", { transactionType: ["sale", "payout"] }, { type: "sale" }, { type: "refund" }],
    ["currency", { currency: ["EUR", "USD"] }, { currency: "USD" }, { currency: "GBP" }],
    ["country", { country: ["DE", "AT"] }, { country: "AT" }, { country: "FR" }],
    ["country, the attempt naming none", { country: ["DE"] }, { country: "DE" }, { country: "" }],
    ["card_brand", { cardBrand: ["visa", "mastercard"] }, { cardBrand: "MC" }, { cardBrand: "AMEX" }],
    ["card_brand, a card of no known brand", { cardBrand: ["visa"] }, { cardBrand: "VISA" }, { cardBrand: "CARD" }],
    ["card_brand, no card at all", { cardBrand: ["visa"] }, { cardBrand: "VISA" }, { cardBrand: "" }],
    ["bin", { bin: ["4111"] }, { bin: "41111111" }, { bin: "42424242" }],
    ["bin, no card at all", { bin: ["4"] }, { bin: "411111" }, { bin: "" }],
    ["amount_min", { amountMin: 1000 }, { amountMinor: 1000 }, { amountMinor: 999 }],
    ["amount_max", { amountMax: 1000 }, { amountMinor: 1000 }, { amountMinor: 1001 }],
  ];
  for (const [name, when, yes, no] of table) {
    t.equal(holds(when, facts(yes)), true, `${name}: held`);
    t.equal(holds(when, facts(no)), false, `${name}: not held`);
    t.equal(holds({}, facts(no)), true, `${name}: absent, held by the attempt the condition refuses`);
    t.same(routed(when, facts(yes)), { cascade: ["adyen-eu"], rule: { index: 0 } }, `${name}: routed by the rule`);
    t.same(routed(when, facts(no)), { cascade: DEFAULT, rule: null }, `${name}: the merchant's processors`);
  }
});

t.test("conditions together: the rule holds only when every one does", async (t) => {
  const when: RoutingConditions = {
    transactionType: ["sale"],
    currency: ["EUR"],
    country: ["DE", "AT"],
    cardBrand: ["visa", "mastercard"],
    bin: ["4111", "5555"],
    amountMin: 500,
    amountMax: 5000,
  };
  t.equal(holds(when, facts()), true, "every condition held");
  const misses: [string, Partial<RoutingFacts>][] = [
    ["type", { type: "payout" }],
    ["currency", { currency: "USD" }],
    ["country", { country: "FR" }],
    ["brand", { cardBrand: "AMEX" }],
    ["bin", { bin: "42424242" }],
    ["below amount_min", { amountMinor: 499 }],
    ["above amount_max", { amountMinor: 5001 }],
  ];
  for (const [name, miss] of misses) t.equal(holds(when, facts(miss)), false, `all but ${name}: not held`);
  t.equal(holds({ currency: ["EUR"], cardBrand: ["mastercard"] }, facts()), false, "the contract's example: EUR but a Visa");
  t.equal(holds({ currency: ["EUR"], cardBrand: ["visa", "mastercard"] }, facts({ cardBrand: "MC", bin: "55555555" })), true);
});

t.test("the first rule that holds picks the cascade; the ones after it are not read", async (t) => {
  const rules: RoutingRule[] = [
    { name: "usd", when: { currency: ["USD"] }, processors: ["cko-us"] },
    { when: { country: ["DE"] }, processors: ["adyen-eu", "cko-main"] },
    { name: "everything", when: {}, processors: ["cko-main"] },
  ];
  t.same(route(rules, facts(), DEFAULT, never), { cascade: ["adyen-eu", "cko-main"], rule: { index: 1 } }, "rule 2 (no name) before the catch-all");
  t.same(route(rules, facts({ currency: "USD" }), DEFAULT, never), { cascade: ["cko-us"], rule: { index: 0, name: "usd" } }, "rule 1 wins over rule 2");
  t.same(route(rules, facts({ country: "FR" }), DEFAULT, never), { cascade: ["cko-main"], rule: { index: 2, name: "everything" } });
  t.same(route(rules.slice(0, 2), facts({ country: "FR" }), DEFAULT, never), { cascade: DEFAULT, rule: null }, "none holds");
  t.same(route([], facts(), DEFAULT, never), { cascade: DEFAULT, rule: null }, "no rules");
});

t.test("the cascade is a fresh list, each account once, and a rule naming no account is passed over", async (t) => {
  const merchant = ["sim-a", "sim-b", "sim-a"];
  const none = route([], facts(), merchant, never);
  t.same(none.cascade, ["sim-a", "sim-b"]);
  none.cascade.push("x");
  t.same(merchant, ["sim-a", "sim-b", "sim-a"], "the merchant's list is not the one returned");
  t.same(route([{ when: {}, processors: ["b", "a", "b"] }], facts(), DEFAULT, never).cascade, ["b", "a"]);
  const empty: RoutingRule[] = [{ name: "empty", when: {}, processors: [] }, { when: {}, split: {} }, { when: {} }, { when: {}, processors: ["c"] }];
  t.same(route(empty, facts(), DEFAULT, never), { cascade: ["c"], rule: { index: 3 } });
});

t.test("a rule is labelled by its name, else by its place counted from 1", async (t) => {
  t.equal(ruleLabel({ index: 0 }), "rule 1");
  t.equal(ruleLabel({ index: 2 }), "rule 3");
  t.equal(ruleLabel({ index: 2, name: "eu cards" }), "eu cards");
});

t.test("amount bounds are inclusive at both ends, in the wire unit of each currency", async (t) => {
  // [currency, min and max in the wire unit, minor units just below min, at min, at max, just above max]
  const table: [string, number, number, number, number, number, number][] = [
    ["JPY", 1000, 5000, 999, 1000, 5000, 5001], // 0 decimals, wire in yen
    ["EUR", 1000, 2000, 999, 1000, 2000, 2001], // 2 decimals, wire in cents: 10.00 to 20.00
    ["KWD", 1000, 2000, 9999, 10_000, 20_000, 20_001], // 3 decimals, wire in hundredths: 10.00 to 20.00 KWD
    ["BHD", 5, 10, 4999, 5000, 10_000, 10_001], // 3 decimals, wire in whole dinars
    ["ISK", 1050, 2000, 10, 11, 20, 21], // 0 decimals, wire in hundredths: 10.50 (a minimum between two krónur) to 20.00
  ];
  for (const [currency, amountMin, amountMax, below, atMin, atMax, above] of table) {
    const when = { currency: [currency], amountMin, amountMax };
    t.equal(holds(when, facts({ currency, amountMinor: below })), false, `${currency} ${below}: below amount_min ${amountMin}`);
    t.equal(holds(when, facts({ currency, amountMinor: atMin })), true, `${currency} ${atMin}: at amount_min`);
    t.equal(holds(when, facts({ currency, amountMinor: atMax })), true, `${currency} ${atMax}: at amount_max ${amountMax}`);
    t.equal(holds(when, facts({ currency, amountMinor: above })), false, `${currency} ${above}: above amount_max`);
  }
  t.equal(holds({ amountMin: 1000, amountMax: 1000 }, facts({ amountMinor: 1000 })), true, "one amount exactly");
  t.equal(holds({ amountMin: 1000 }, facts({ currency: "JPY", amountMinor: 1000 })), true, "the same bound, JPY 1000");
  t.equal(holds({ amountMin: 1000 }, facts({ currency: "EUR", amountMinor: 999 })), false, "and EUR 9.99");
  // KWD 900 719 925 474 099 in the wire's hundredths is 9 007 199 254 740 990 minor units: one either side differs,
  // though the cross-multiplied products (near 9e17, where floats are 128 apart) would not as floats.
  t.equal(compareToWire(9_007_199_254_740_989, 900_719_925_474_099, "KWD"), -1, "exact beyond a float's integers");
  t.equal(compareToWire(9_007_199_254_740_990, 900_719_925_474_099, "KWD"), 0);
  t.equal(compareToWire(9_007_199_254_740_991, 900_719_925_474_099, "KWD"), 1);
});

t.test("BIN prefixes of any length from 1 to 8 digits match as strings", async (t) => {
  const bin = "45717360";
  for (let n = 1; n <= 8; n++) {
    t.equal(holds({ bin: [bin.slice(0, n)] }, facts({ bin })), true, `${bin.slice(0, n)} holds`);
    const other = bin.slice(0, n - 1) + String((Number(bin[n - 1]) + 1) % 10);
    t.equal(holds({ bin: [other] }, facts({ bin })), false, `${other} does not`);
  }
  t.equal(holds({ bin: ["5", "4571"] }, facts({ bin })), true, "any one of the prefixes");
  t.equal(holds({ bin: ["37828224"] }, facts({ bin: binOf("378282246310005") })), false, "8 digits against a 15-digit card's 6");
  t.equal(holds({ bin: ["378282"] }, facts({ bin: binOf("378282246310005") })), true);
  t.equal(holds({ bin: ["0411"] }, facts({ bin: "41111111" })), false, "a leading zero is a digit, not a number's padding");
});

t.test("binOf: the first 8 digits from 16 digits up, else the first 6; cardFacts: brand and BIN, none without a card", async (t) => {
  t.equal(binOf("4111111111111111"), "41111111");
  t.equal(binOf("4111111111111111111"), "41111111");
  t.equal(binOf("378282246310005"), "378282");
  t.equal(binOf("36227206271667"), "362272");
  t.same(cardFacts("5555555555554444"), { cardBrand: "MC", bin: "55555555" });
  t.same(cardFacts(""), { cardBrand: "", bin: "" });
});

t.test("card brands: card-validator's names, in any case, against cardBrand's codes", async (t) => {
  // One number of each brand (card-validator's and the brands' published test numbers).
  const samples: Record<keyof typeof CARD_BRANDS, string> = {
    visa: "4111111111111111",
    mastercard: "5555555555554444",
    "american-express": "378282246310005",
    discover: "6011111111111117",
    "diners-club": "36227206271667",
    jcb: "3530111333300000",
    unionpay: "6200000000000005",
    maestro: "6759649826438453",
    mir: "2200000000000004",
    elo: "5066991111111118",
    hiper: "6370950000000005",
    hipercard: "6062826786276634",
  };
  for (const [name, number] of Object.entries(samples)) {
    t.equal(cardBrand(number), CARD_BRANDS[name as keyof typeof CARD_BRANDS], `${name}: the code cardBrand gives its numbers`);
    t.equal(holds({ cardBrand: [name] }, facts(cardFacts(number))), true, `${name} routes its own card`);
  }
  t.same(Object.keys(samples).sort(), Object.keys(CARD_BRANDS).sort(), "every brand tried");
  for (const written of ["VISA", "Visa", "visa"]) t.equal(holds({ cardBrand: [written] }, facts({ cardBrand: "VISA" })), true, `${written}`);
  t.equal(holds({ cardBrand: ["American-Express"] }, facts({ cardBrand: "AMEX" })), true);
  t.equal(holds({ cardBrand: ["mc"] }, facts({ cardBrand: "MC" })), false, "the code is not a name a rule may use");
  t.equal(holds({ cardBrand: ["card"] }, facts({ cardBrand: "CARD" })), false, "no name for 'no known brand'");
  t.equal(holds({ cardBrand: ["constructor", "__proto__"] }, facts()), false, "Object.prototype's names are no brands");
});

t.test("currency and country compare in upper case", async (t) => {
  t.equal(holds({ currency: ["eur"], country: ["de"] }, facts()), true);
  t.equal(holds({ currency: ["EUR"], country: ["DE"] }, facts({ currency: "eur", country: "de" })), true);
});

t.test("split: the first account drawn by weight, each over its share of [0, 1); the others follow as listed", async (t) => {
  const split = { a: 1, b: 2, c: 1 }; // shares [0, .25), [.25, .75), [.75, 1)
  const table: [number, string[]][] = [
    [0, ["a", "b", "c"]],
    [0.2499, ["a", "b", "c"]],
    [0.25, ["b", "a", "c"]],
    [0.5, ["b", "a", "c"]],
    [0.7499, ["b", "a", "c"]],
    [0.75, ["c", "a", "b"]],
    [0.9999999, ["c", "a", "b"]],
  ];
  for (const [p, cascade] of table)
    t.same(
      splitCascade(split, () => p),
      cascade,
      `pick ${p}`,
    );
  const rule: RoutingRule = { name: "ab", when: { currency: ["EUR"] }, split: { "adyen-eu": 3, "cko-main": 1 } };
  t.same(
    route([rule], facts(), DEFAULT, () => 0.74),
    { cascade: ["adyen-eu", "cko-main"], rule: { index: 0, name: "ab" } },
  );
  t.same(
    route([rule], facts(), DEFAULT, () => 0.75),
    { cascade: ["cko-main", "adyen-eu"], rule: { index: 0, name: "ab" } },
  );
  t.same(
    splitCascade({ only: 5 }, () => 0.9),
    ["only"],
    "one account",
  );
});

t.test("split: a faulty draw or weight still gives every account once", async (t) => {
  for (const p of [-0.5, 1, 7, Number.NaN, Number.POSITIVE_INFINITY]) {
    const got = splitCascade({ a: 1, b: 1 }, () => p);
    t.same([...got].sort(), ["a", "b"], `pick ${p}`);
  }
  t.same(
    splitCascade({ a: 1, b: 1 }, () => 1),
    ["b", "a"],
    "1 is the last share's",
  );
  t.same(
    splitCascade({ a: 1, b: 1 }, () => -1),
    ["a", "b"],
    "below 0 is the first share's",
  );
  t.same(
    splitCascade({ a: 0, b: 2, c: -1, d: 1.5 }, () => 0),
    ["b", "a", "c", "d"],
    "only positive integer weights are drawn",
  );
  t.same(
    splitCascade({ a: 0, b: 0 }, () => 0.9),
    ["a", "b"],
    "no weight at all: as listed",
  );
  t.same(
    splitCascade({}, () => 0),
    [],
  );
});

t.test("orderPick: the same order draws the same number, in [0, 1), and orders share out by weight", async (t) => {
  t.equal(orderPick("m-1", "o-1")(), orderPick("m-1", "o-1")());
  t.not(orderPick("m-1", "o-1")(), orderPick("m-2", "o-1")(), "another merchant's order of the same id");
  t.not(orderPick("m:1", "o")(), orderPick("m", "1:o")(), "the key's parts cannot run into each other");
  const counts = { a: 0, b: 0 };
  const n = 20_000;
  for (let i = 0; i < n; i++) {
    const p = orderPick("m-1", `order-${i}`)();
    if (!(p >= 0 && p < 1)) t.fail(`order-${i} drew ${p}`);
    counts[splitCascade({ a: 1, b: 3 }, () => p)[0] as "a" | "b"]++;
  }
  // 1 in 4 of 20 000: 5000, standard deviation about 61; 5 of them either way.
  t.ok(Math.abs(counts.a - n / 4) < 310, `a drawn first ${counts.a} times of ${n}`);
});

t.test("for any rules and attempt: a cascade of the chosen rule's accounts (or the default), never empty, none twice", async (t) => {
  const account = fc.constantFrom("sim-a", "sim-b", "cko-main", "adyen-eu", "cko-us");
  const when = fc.record(
    {
      transactionType: fc.uniqueArray(fc.constantFrom("sale", "payout", "refund" as const), { minLength: 1 }),
      currency: fc.uniqueArray(fc.constantFrom("EUR", "USD", "JPY", "KWD"), { minLength: 1 }),
      country: fc.uniqueArray(fc.constantFrom("DE", "US", "FR"), { minLength: 1 }),
      cardBrand: fc.uniqueArray(fc.constantFrom(...(Object.keys(CARD_BRANDS) as (keyof typeof CARD_BRANDS)[])), { minLength: 1 }),
      bin: fc.uniqueArray(fc.stringMatching(/^\d{1,8}$/), { minLength: 1, maxLength: 3 }),
      amountMin: fc.integer({ min: 1, max: 10_000 }),
      amountMax: fc.integer({ min: 1, max: 10_000 }),
    },
    { requiredKeys: [] },
  );
  const rule: fc.Arbitrary<RoutingRule> = fc.oneof(
    fc.record(
      { name: fc.option(fc.string(), { nil: undefined }), when, processors: fc.array(account, { minLength: 1, maxLength: 4 }) },
      { requiredKeys: ["when", "processors"] },
    ),
    fc.record({ when, split: fc.dictionary(account, fc.integer({ min: 1, max: 100 }), { minKeys: 1 }) }),
  );
  const attempt = fc.record({
    type: fc.constantFrom("sale", "payout", "refund" as const),
    currency: fc.constantFrom("EUR", "USD", "JPY", "KWD"),
    amountMinor: fc.integer({ min: 1, max: 100_000 }),
    country: fc.constantFrom("DE", "US", "FR", ""),
    cardBrand: fc.constantFrom(...Object.values(CARD_BRANDS), "CARD", ""),
    bin: fc.stringMatching(/^(\d{6}|\d{8})?$/),
  });
  fc.assert(
    fc.property(
      fc.array(rule, { maxLength: 6 }),
      attempt,
      fc.array(account, { minLength: 1, maxLength: 4 }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (rules, f, merchant, p) => {
        const { cascade, rule: by } = route(rules, f, merchant, () => p);
        if (cascade.length === 0 || new Set(cascade).size !== cascade.length) return false;
        const first = rules.findIndex((r) => holds(r.when, f));
        if (first < 0) return by === null && sameSet(cascade, merchant);
        const chosen = rules[first];
        return by?.index === first && by.name === chosen.name && sameSet(cascade, chosen.split ? Object.keys(chosen.split) : chosen.processors!);
      },
    ),
  );
  t.pass("held for every case fast-check tried");
});

/** Whether `cascade` holds exactly the accounts of `accounts`, each once. */
function sameSet(cascade: string[], accounts: readonly string[]): boolean {
  const want = new Set(accounts);
  return cascade.length === want.size && cascade.every((a) => want.has(a));
}
