/**
 * The Backoffice's processor account and routing rule forms, decoded (edge/backoffice/routes/account-form.ts,
 * routing-form.ts): what the admin typed becomes the engine's request as is (no rule decided here), a value that is
 * not a whole number goes as 0 for the engine to refuse by name, and the engine's field paths find their inputs.
 */
import t from "tap";
import { accountErrors, flatSettings, settingsObject, typedCredentials } from "../../../../edge/backoffice/routes/account-form.ts";
import { ruleErrors, ruleField, ruleFormValues, ruleOf } from "../../../../edge/backoffice/routes/routing-form.ts";

t.test("a rule form: lists split, codes upper-cased, checkboxes as lists, a split as lines", async (t) => {
  const form = new URLSearchParams([
    ["name", " eu-cards "],
    ["transaction_type", "sale"],
    ["currency", "eur, gbp"],
    ["country", "de at"],
    ["card_brand", "visa"],
    ["card_brand", "mastercard"],
    ["bin", "4111, 5555"],
    ["amount_min", "1000"],
    ["amount_max", "10.50"],
    ["processors", ""],
    ["split", "adyen-eu 3\r\ncko-main: x\n\n"],
  ]);
  const rule = ruleOf(ruleFormValues(form));
  t.same(rule.when, {
    transactionType: ["sale"],
    currency: ["EUR", "GBP"],
    country: ["DE", "AT"],
    cardBrand: ["visa", "mastercard"],
    bin: ["4111", "5555"],
    amountMin: 1000n,
    amountMax: 0n,
  });
  t.equal(rule.name, "eu-cards");
  t.same(rule.processors, []);
  t.same(rule.split, [
    { account: "adyen-eu", weight: 3 },
    { account: "cko-main", weight: 0 },
  ]);
});

t.test("the engine's rule paths find the inputs of the rule's form", async (t) => {
  t.same(ruleField("rules[2].when.currency[0]"), { index: 2, input: "currency" });
  t.same(ruleField("rules[0].split[1].weight"), { index: 0, input: "split" });
  t.same(ruleField("rules[1]"), { index: 1, input: "processors" });
  t.same(ruleField("merchant_id"), undefined);
  const refusal = {
    kind: "invalid" as const,
    message: "",
    violations: [
      { field: "rules[1].when.country[0]", description: "must be an ISO 3166-1 alpha-2 code (upper case)" },
      { field: "rules[0].name", description: "repeats" },
    ],
  };
  t.same(ruleErrors(refusal, 1, "rule-new"), [{ field: "rule-new-country", message: "must be an ISO 3166-1 alpha-2 code (upper case)" }]);
});

t.test("an account form: settings nested by dotted names, blanks left out; only typed credentials sent", async (t) => {
  const settings = settingsObject([
    ["processing_channel_id", "pc_x"],
    ["payout_sender.city", "London"],
    ["payout_sender.zip", ""],
    ["__proto__", "kept as a member"],
  ]);
  t.equal(JSON.stringify(settings), '{"processing_channel_id":"pc_x","payout_sender":{"city":"London"},"__proto__":"kept as a member"}');
  t.equal(Object.getPrototypeOf(settings), Object.prototype, "no prototype was set");
  t.same(flatSettings({ a: "1", b: { c: "2" }, d: 3 }), [
    ["a", "1"],
    ["b.c", "2"],
    ["d", "3"],
  ]);
  const form = new URLSearchParams([
    ["credential:secret_key", ""],
    ["credential:webhook_secret", "whsec_typed_0123"],
  ]);
  t.same(typedCredentials(form), { webhook_secret: "whsec_typed_0123" }, "blank keeps: not sent");
  t.same(
    accountErrors({
      kind: "invalid",
      message: "",
      violations: [
        { field: "account.settings.payout_sender.city", description: "must be 1 to 50 characters" },
        { field: "credentials.secret_key", description: "is required" },
        { field: "account.endpoint_url", description: "must be http or https" },
        { field: "merchant_id", description: "is required" },
      ],
    }),
    [
      { field: "setting-payout_sender_city", message: "must be 1 to 50 characters" },
      { field: "credential-secret_key", message: "is required" },
      { field: "account-url", message: "must be http or https" },
    ],
  );
});
