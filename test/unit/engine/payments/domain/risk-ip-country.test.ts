/**
 * The country mismatch rule with the IP address's country (the operator's
 * table): the rule refuses when two of the known countries differ (the card's
 * by a BIN it lists, the customer's, the IP's) and never on an unknown one;
 * its decline's cause names the rule and the countries it compared, and the
 * rule's id and name are still read back from it.
 */
import t from "tap";
import {
  knownCountries,
  riskDecision,
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
  email: "ann@example.com",
  ip: "81.2.69.10",
  country: "US",
  cardNumber: "4111111111111111",
  cardFingerprint: "fp-4111",
};
const rule: Extract<RiskRule, { kind: "country_mismatch" }> = { id: 3, name: "Countries agree", kind: "country_mismatch", binCountries: { "411111": "US" } };

t.test("two known countries that differ refuse; an unknown one never does", async (t) => {
  const cases: [string, RiskSubject, boolean][] = [
    ["card US, customer US, IP unknown: passes (as before any table)", sale, false],
    ["card US, customer US, IP US: passes", { ...sale, ipCountry: "US" }, false],
    ["card US, customer US, IP gb: refused (case ignored)", { ...sale, ipCountry: "gb" }, true],
    ["BIN not listed, customer US, IP GB: refused", { ...sale, cardNumber: "5105105105105100", ipCountry: "GB" }, true],
    ["BIN not listed, customer US, IP US: passes", { ...sale, cardNumber: "5105105105105100", ipCountry: "US" }, false],
    ["card US, no customer country, IP GB: refused", { ...sale, country: "", ipCountry: "GB" }, true],
    [
      "BIN not listed, no customer country, IP GB: passes (one country known)",
      { ...sale, cardNumber: "5105105105105100", country: "", ipCountry: "GB" },
      false,
    ],
    ["IP country empty: unknown, passes", { ...sale, ipCountry: "" }, false],
    ["a payout is checked too", { ...sale, type: "payout", ipCountry: "GB" }, true],
    ["a refund never", { ...sale, type: "refund", ipCountry: "GB" }, false],
  ];
  for (const [name, s, want] of cases) t.equal(ruleRefuses(rule, s, undefined), want, name);
  t.same(knownCountries(rule, { ...sale, country: " us ", ipCountry: "gb" }), [
    ["card", "US"],
    ["customer", "US"],
    ["ip", "GB"],
  ]);
});

t.test("the decline's cause names the rule and the countries compared", async (t) => {
  const d = riskDecision("sale", rule, { ...sale, ipCountry: "GB" });
  t.equal(d.cause, "risk:3:Countries agree [card US, customer US, ip GB]");
  t.equal(d.errorCode, 9009);
  t.notMatch(d.errorDetails ?? "", /GB|Countries/, "the platform reads the catalogue's words only");
  t.same(riskRuleOfCause(d.cause), { id: 3, name: "Countries agree" });
  const noIp = riskDecision("sale", rule, { ...sale, country: "DE" });
  t.equal(noIp.cause, "risk:3:Countries agree [card US, customer DE]", "an unknown IP country is not named");
  t.same(riskRuleOfCause("risk:4:odd [name] here"), { id: 4, name: "odd [name] here" }, "a name with brackets stays whole");
});
