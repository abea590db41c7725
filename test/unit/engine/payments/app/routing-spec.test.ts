/**
 * A merchant's routing_rules as the merchants file and AdminService give them (CONTRACT 11): what a full set reads
 * as, and every bad value refused by its exact path with MerchantsFileError, as the rest of a merchant's settings.
 */
import { CARD_BRANDS } from "../../../../../engine/shared/card.ts";
import t from "tap";
import { MerchantsFileError } from "../../../../../engine/payments/app/merchant-errors.ts";
import { MAX_ROUTING_RULES, parseRoutingRules, ROUTING_CARD_BRANDS } from "../../../../../engine/payments/app/routing-spec.ts";
import { route } from "../../../../../engine/payments/domain/routing.ts";

const ACCOUNTS = ["cko-main", "adyen-eu", "sim-a"];
const parse = (rules: unknown) => parseRoutingRules(rules, "routing_rules", ACCOUNTS);

/** The refusal's field and problem, or "accepted". */
function refusal(rules: unknown, accounts: readonly string[] = ACCOUNTS): string {
  try {
    parseRoutingRules(rules, "routing_rules", accounts);
    return "accepted";
  } catch (err) {
    if (!(err instanceof MerchantsFileError)) throw err;
    return `${err.field}: ${err.problem}`;
  }
}

/** One rule with `when` and a valid cascade. */
const ruleWhen = (when: unknown) => [{ when, processors: ["cko-main"] }];

t.test("absent or null: no rules, the merchant's processors route every attempt", async (t) => {
  t.same(parse(undefined), []);
  t.same(parse(null), []);
  t.same(parse([]), []);
});

t.test("a full set reads as the domain's rules, in order, snake_case to camelCase", async (t) => {
  const rules = parse([
    { when: { currency: ["EUR"], card_brand: ["visa", "mastercard"] }, processors: ["adyen-eu", "cko-main"] },
    {
      name: "big payouts",
      when: { transaction_type: ["payout"], country: ["DE", "AT"], bin: ["4", "555544"], amount_min: 100_000, amount_max: 5_000_000 },
      split: { "cko-main": 3, "sim-a": 1 },
    },
    { name: "catch-all", processors: ["sim-a"] },
  ]);
  t.same(rules, [
    { when: { currency: ["EUR"], cardBrand: ["visa", "mastercard"] }, processors: ["adyen-eu", "cko-main"] },
    {
      name: "big payouts",
      when: { transactionType: ["payout"], country: ["DE", "AT"], bin: ["4", "555544"], amountMin: 100_000, amountMax: 5_000_000 },
      split: { "cko-main": 3, "sim-a": 1 },
    },
    { name: "catch-all", when: {}, processors: ["sim-a"] },
  ]);
  t.same(Object.keys(rules[1].split!), ["cko-main", "sim-a"], "the split's accounts in the order written");
  const facts = { type: "sale" as const, currency: "EUR", amountMinor: 1000, country: "FR", cardBrand: "MC", bin: "55555555" };
  t.same(
    route(rules, facts, ["sim-b"], () => 0),
    { cascade: ["adyen-eu", "cko-main"], rule: { index: 0 } },
    "the contract's example routes a Mastercard in EUR",
  );
});

t.test("card brands: any case, kept in lower case; the list is card-validator's names that cardBrand knows", async (t) => {
  t.same(parse(ruleWhen({ card_brand: ["VISA", "American-Express"] }))[0].when.cardBrand, ["visa", "american-express"]);
  t.same(ROUTING_CARD_BRANDS, Object.keys(CARD_BRANDS));
  t.same(ROUTING_CARD_BRANDS, [
    "visa",
    "mastercard",
    "american-express",
    "discover",
    "diners-club",
    "jcb",
    "unionpay",
    "maestro",
    "mir",
    "elo",
    "hiper",
    "hipercard",
  ]);
});

t.test("an amount bound alone, and min equal to max", async (t) => {
  t.same(parse(ruleWhen({ amount_min: 1 }))[0].when, { amountMin: 1 });
  t.same(parse(ruleWhen({ amount_max: 1 }))[0].when, { amountMax: 1 });
  t.same(parse(ruleWhen({ amount_min: 500, amount_max: 500 }))[0].when, { amountMin: 500, amountMax: 500 });
});

t.test("every bad value is refused by its path", async (t) => {
  const brands = ROUTING_CARD_BRANDS.join(", ");
  const table: [string, unknown, string][] = [
    ["not a list", { when: {} }, "routing_rules: must be a list of rules"],
    [
      "too many rules",
      Array.from({ length: MAX_ROUTING_RULES + 1 }, () => ({ processors: ["sim-a"] })),
      `routing_rules: must have at most ${MAX_ROUTING_RULES} rules`,
    ],
    ["a rule not an object", [{ processors: ["sim-a"] }, "sim-a"], "routing_rules[1]: must be an object"],
    ["a rule a list", [["sim-a"]], "routing_rules[0]: must be an object"],
    ["an unknown member", [{ processors: ["sim-a"], route: ["x"] }], "routing_rules[0].route: is not a rule member (use name, when, processors, split)"],
    ["neither cascade", [{ when: {} }], "routing_rules[0]: must have processors (a cascade) or split (weights)"],
    ["both cascades", [{ processors: ["sim-a"], split: { "sim-a": 1 } }], "routing_rules[0]: must have processors or split, not both"],
    ["a name not a string", [{ name: 3, processors: ["sim-a"] }], "routing_rules[0].name: must be a non-empty string"],
    ["a blank name", [{ name: "  ", processors: ["sim-a"] }], "routing_rules[0].name: must be a non-empty string"],
    ["a long name", [{ name: "x".repeat(65), processors: ["sim-a"] }], "routing_rules[0].name: must be at most 64 characters"],
    ["a control character", [{ name: "eu\ncards", processors: ["sim-a"] }], "routing_rules[0].name: must not contain control characters"],
    [
      "a name like a place",
      [{ name: "Rule 2", processors: ["sim-a"] }],
      'routing_rules[0].name: must not be of the form "rule N", which names the rule at place N',
    ],
    [
      "a name twice",
      [{ name: "eu", processors: ["sim-a"] }, { processors: ["sim-a"] }, { name: "eu", processors: ["cko-main"] }],
      "routing_rules[2].name: repeats the name eu",
    ],
    ["when not an object", ruleWhen(["EUR"]), "routing_rules[0].when: must be an object of conditions"],
    [
      "an unknown condition",
      ruleWhen({ currencies: ["EUR"] }),
      "routing_rules[0].when.currencies: is not a condition (use transaction_type, currency, country, card_brand, bin, amount_min, amount_max)",
    ],
    [
      "a condition not a list",
      ruleWhen({ currency: "EUR" }),
      "routing_rules[0].when.currency: must be a non-empty list of ISO 4217 codes (leave it out to match any)",
    ],
    [
      "an empty condition",
      ruleWhen({ country: [] }),
      "routing_rules[0].when.country: must be a non-empty list of ISO 3166-1 alpha-2 codes (leave it out to match any)",
    ],
    ["a long condition", ruleWhen({ bin: Array.from({ length: 301 }, (_, i) => String(i)) }), "routing_rules[0].when.bin: must have at most 300 entries"],
    ["a type", ruleWhen({ transaction_type: ["sale", "deposit"] }), "routing_rules[0].when.transaction_type[1]: must be sale or payout"],
    [
      "refunds",
      ruleWhen({ transaction_type: ["refund"] }),
      "routing_rules[0].when.transaction_type[0]: a refund goes back through the account that took its sale: routing rules do not apply to refunds",
    ],
    ["a type twice", ruleWhen({ transaction_type: ["sale", "sale"] }), "routing_rules[0].when.transaction_type[1]: repeats sale"],
    ["a currency", ruleWhen({ currency: ["EUR", "EURO"] }), "routing_rules[0].when.currency[1]: must be an ISO 4217 code (upper case)"],
    ["a currency in lower case", ruleWhen({ currency: ["eur"] }), "routing_rules[0].when.currency[0]: must be an ISO 4217 code (upper case)"],
    ["a currency no card moves", ruleWhen({ currency: ["XAU"] }), "routing_rules[0].when.currency[0]: must be an ISO 4217 code (upper case)"],
    ["a currency not a string", ruleWhen({ currency: [978] }), "routing_rules[0].when.currency[0]: must be a string: ISO 4217 codes"],
    ["a country", ruleWhen({ country: ["DE", "UK"] }), "routing_rules[0].when.country[1]: must be an ISO 3166-1 alpha-2 code (upper case)"],
    ["a country in lower case", ruleWhen({ country: ["de"] }), "routing_rules[0].when.country[0]: must be an ISO 3166-1 alpha-2 code (upper case)"],
    [
      "Kosovo's user-assigned code, as Process refuses it",
      ruleWhen({ country: ["XK"] }),
      "routing_rules[0].when.country[0]: must be an ISO 3166-1 alpha-2 code (upper case)",
    ],
    ["an alpha-3 country", ruleWhen({ country: ["DEU"] }), "routing_rules[0].when.country[0]: must be an ISO 3166-1 alpha-2 code (upper case)"],
    ["a brand", ruleWhen({ card_brand: ["visa", "amex"] }), `routing_rules[0].when.card_brand[1]: must be one of ${brands}`],
    ["the code, not the name", ruleWhen({ card_brand: ["MC"] }), `routing_rules[0].when.card_brand[0]: must be one of ${brands}`],
    ["a brand of Object.prototype", ruleWhen({ card_brand: ["constructor"] }), `routing_rules[0].when.card_brand[0]: must be one of ${brands}`],
    ["a brand twice in two cases", ruleWhen({ card_brand: ["visa", "Visa"] }), "routing_rules[0].when.card_brand[1]: repeats visa"],
    ["a BIN as a number", ruleWhen({ bin: [411111] }), "routing_rules[0].when.bin[0]: must be a string: BIN prefixes"],
    ["a BIN of 9 digits", ruleWhen({ bin: ["411111111"] }), "routing_rules[0].when.bin[0]: must be a string of 1 to 8 digits"],
    ["an empty BIN", ruleWhen({ bin: [""] }), "routing_rules[0].when.bin[0]: must be a string of 1 to 8 digits"],
    ["a BIN with a space", ruleWhen({ bin: ["4111 11"] }), "routing_rules[0].when.bin[0]: must be a string of 1 to 8 digits"],
    ["a BIN of other digits", ruleWhen({ bin: ["٤١١١"] }), "routing_rules[0].when.bin[0]: must be a string of 1 to 8 digits"],
    ["a BIN twice", ruleWhen({ bin: ["4", "5", "4"] }), "routing_rules[0].when.bin[2]: repeats 4"],
    ...(
      [
        ["a decimal", 10.5],
        ["zero", 0],
        ["a negative", -1],
        ["a string", "1000"],
        ["beyond a safe integer", 2 ** 53],
      ] as const
    ).flatMap(([what, v]): [string, unknown, string][] =>
      ["amount_min", "amount_max"].map((key) => [
        `${key}: ${what}`,
        ruleWhen({ [key]: v }),
        `routing_rules[0].when.${key}: must be a positive integer in the wire unit (as Process's amount: 1000 is USD 10.00, JPY 1000)`,
      ]),
    ),
    ["min above max", ruleWhen({ amount_min: 1001, amount_max: 1000 }), "routing_rules[0].when.amount_min: must not exceed amount_max (1000)"],
    ["processors not a list", [{ processors: "sim-a" }], "routing_rules[0].processors: must be a non-empty list of account names, in cascade order"],
    ["processors empty", [{ processors: [] }], "routing_rules[0].processors: must be a non-empty list of account names, in cascade order"],
    [
      "an unknown account",
      [{ processors: ["sim-a", "sim-b"] }],
      "routing_rules[0].processors[1]: must name one of the merchant's accounts (cko-main, adyen-eu, sim-a)",
    ],
    ["an account not a string", [{ processors: [1] }], "routing_rules[0].processors[0]: must name one of the merchant's accounts (cko-main, adyen-eu, sim-a)"],
    ["an account twice", [{ processors: ["sim-a", "cko-main", "sim-a"] }], "routing_rules[0].processors[2]: repeats sim-a"],
    [
      "split a list",
      [{ split: ["sim-a"] }],
      'routing_rules[0].split: must be a non-empty object of account names and weights, e.g. {"adyen-eu": 3, "cko-main": 1}',
    ],
    ["split empty", [{ split: {} }], 'routing_rules[0].split: must be a non-empty object of account names and weights, e.g. {"adyen-eu": 3, "cko-main": 1}'],
    [
      "split to an unknown account",
      [{ split: { "sim-a": 1, "sim-b": 1 } }],
      "routing_rules[0].split.sim-b: must name one of the merchant's accounts (cko-main, adyen-eu, sim-a)",
    ],
    ["a weight of 0", [{ split: { "sim-a": 1, "cko-main": 0 } }], "routing_rules[0].split.cko-main: must be a whole-number weight from 1 to 1000000"],
    ["a fractional weight", [{ split: { "sim-a": 0.5 } }], "routing_rules[0].split.sim-a: must be a whole-number weight from 1 to 1000000"],
    ["a weight as a string", [{ split: { "sim-a": "1" } }], "routing_rules[0].split.sim-a: must be a whole-number weight from 1 to 1000000"],
    ["a weight too large", [{ split: { "sim-a": 1_000_001 } }], "routing_rules[0].split.sim-a: must be a whole-number weight from 1 to 1000000"],
    [
      "the third rule's currency",
      [{ processors: ["sim-a"] }, { processors: ["sim-a"] }, ...ruleWhen({ currency: ["EURO"] })],
      "routing_rules[2].when.currency[0]: must be an ISO 4217 code (upper case)",
    ],
  ];
  for (const [name, rules, want] of table) t.equal(refusal(rules), want, name);
  t.equal(
    refusal([{ processors: ["sim-a"] }], []),
    "routing_rules[0].processors[0]: must name an account, and the merchant has none",
    "a merchant without accounts",
  );
});

t.test("the path is the caller's: a merchants file's entry or an API request", async (t) => {
  t.throws(
    () => parseRoutingRules([{ processors: ["x"] }], "merchants[3].routing_rules", ["sim-a"]),
    new MerchantsFileError("merchants[3].routing_rules[0].processors[0]", "must name one of the merchant's accounts (sim-a)"),
  );
});

t.test("an account named like Object.prototype's members is one like any other", async (t) => {
  const accounts = ["__proto__", "constructor"];
  const [rule] = parseRoutingRules(JSON.parse('[{"split": {"__proto__": 2, "constructor": 1}}]'), "routing_rules", accounts);
  t.same(Object.keys(rule.split!), ["__proto__", "constructor"]);
  t.equal(Object.getPrototypeOf(rule.split), Object.prototype, "no prototype set through the split");
  t.equal(
    refusal(JSON.parse('[{"split": {"__proto__": 2}}]')),
    "routing_rules[0].split.__proto__: must name one of the merchant's accounts (cko-main, adyen-eu, sim-a)",
  );
});
