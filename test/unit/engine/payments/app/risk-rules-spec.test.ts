/**
 * A merchant's risk_rules in the merchants file: the console's fields in snake_case, checked by the console's own
 * check, each refusal naming the merchant, the rule's index and the field (the line a bad file stops the start with).
 */
import t from "tap";
import { MerchantsFileError, parseMerchantsFile } from "../../../../../engine/payments/app/merchant-spec.ts";

const file = (rules: unknown) =>
  JSON.stringify({
    merchants: [{ merchant_id: "m-shop", secret: "secret-0123456789abcdef", frontends: [{ name: "f", base_currency: "USD" }], risk_rules: rules }],
  });

/** The start's line for a bad file, or "accepted". */
function refusal(rules: unknown): string {
  try {
    parseMerchantsFile(file(rules));
    return "accepted";
  } catch (err) {
    return err instanceof MerchantsFileError ? err.message : String(err);
  }
}

t.test("each kind is read into the rule the console would save", async (t) => {
  const [spec] = parseMerchantsFile(
    file([
      { name: "Two an hour", kind: "velocity", transaction_type: "sale", key: "card", window_seconds: 3600, max_count: 2 },
      { name: "100 USD a day", kind: "deposit_limit", period: "day", currency: "USD", max_amount_minor: 10000 },
      { name: "Card country", kind: "country_mismatch", bin_countries: "411111=US 555555=DE" },
    ]),
  );
  t.same(spec.riskRules, [
    { id: 0, name: "Two an hour", kind: "velocity", type: "sale", key: "card", windowSeconds: 3600, maxCount: 2, maxAmountMinor: null, currency: null },
    { id: 0, name: "100 USD a day", kind: "deposit_limit", period: "day", currency: "USD", maxAmountMinor: 10000 },
    { id: 0, name: "Card country", kind: "country_mismatch", binCountries: { "411111": "US", "555555": "DE" } },
  ]);
});

t.test("no risk_rules: the merchant's file rules are none", async (t) => {
  t.same(parseMerchantsFile(file(undefined))[0].riskRules, []);
  t.same(parseMerchantsFile(file([]))[0].riskRules, []);
});

t.test("a bad rule is named by merchant, index and field", async (t) => {
  const ok = { name: "Two an hour", kind: "velocity", transaction_type: "sale", key: "card", window_seconds: 3600, max_count: 2 };
  t.equal(
    refusal([ok, { ...ok, window_seconds: 0 }]),
    "merchants[0].risk_rules[1].window_seconds must be a whole number of seconds from 1 to 2678400 (31 days) (merchant m-shop)",
  );
  t.equal(refusal([{ ...ok, kind: "speed" }]), "merchants[0].risk_rules[0].kind must be one of velocity, country_mismatch, deposit_limit (merchant m-shop)");
  t.equal(refusal([{ ...ok, key: "phone" }]), "merchants[0].risk_rules[0].key must be one of customer, card, email, ip (merchant m-shop)");
  t.equal(refusal([{ ...ok, max_count: "2" }]), "merchants[0].risk_rules[0].max_count must be a whole number (merchant m-shop)");
  t.equal(refusal([{ ...ok, window: 60 }]), "merchants[0].risk_rules[0].window is not a risk rule's field (merchant m-shop)");
  t.equal(
    refusal([{ name: "Limit", kind: "deposit_limit", period: "year", currency: "USD", max_amount_minor: 100 }]),
    "merchants[0].risk_rules[0].period must be day, week or month (merchant m-shop)",
  );
  t.equal(
    refusal([{ name: "Country", kind: "country_mismatch", bin_countries: "4111=US" }]),
    "merchants[0].risk_rules[0].bin_countries 4111=US: each pair is a 6 or 8 digit BIN, '=', and a two-letter country code (merchant m-shop)",
  );
  t.equal(refusal([{ ...ok, name: "" }]), "merchants[0].risk_rules[0].name must be 1 to 80 printable characters (merchant m-shop)");
  t.equal(refusal(["velocity"]), "merchants[0].risk_rules[0] must be an object (merchant m-shop)");
  t.equal(refusal({ ...ok }), "merchants[0].risk_rules must be a list of risk rules (merchant m-shop)");
  t.equal(refusal(Array.from({ length: 51 }, () => ok)), "merchants[0].risk_rules may list at most 50 rules (merchant m-shop)");
});
