/**
 * A merchant's processor accounts and routing rules through ConsoleSettingsService against the running engine
 * (issue 30, points 1 and 6): an admin adds a Checkout.com account, its settings checked by the connector's schema
 * and each fault named as the request's field; credentials are write-only (a name left out keeps the stored value,
 * none ever comes back or reaches the audit log, whose rows keep the accounts before and after with the names of the
 * credentials set); the cascade order may name the merchant's own accounts; the rules are replaced whole, each fault
 * named by its path, a change made meanwhile refused by the etag; an account still in use is not removed; the
 * preview routes a hypothetical sale through the engine's own rules. Only admins change anything; a viewer may
 * preview; a merchant out of the scope does not exist.
 */
import t from "tap";
import { Code } from "@connectrpc/connect";
import { TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { movableClock } from "../support/clock.ts";
import { backofficeClient, ctx, enrolOperator } from "../support/operators.ts";
import { useService } from "../support/service.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

const SECRET_KEY = "sk_sbox_console_secret_0123456789";
const WEBHOOK_SECRET = "whsec_console_0123456789abcdef";
const CHANNEL = `pc_${"a".repeat(26)}`;

const account = (over: Record<string, unknown> = {}) => ({
  processor: "cko-main",
  connector: "checkout",
  endpointUrl: "https://api.sandbox.checkout.com",
  enabled: true,
  settings: { processing_channel_id: CHANNEL },
  ...over,
});

t.test("accounts: checked by the connector, credentials write-only and kept when left out, audited without values", async (t) => {
  const admin = (await enrolOperator(svc(), bo(), clock, "proc-admin", "admin")).sessionToken;
  const viewer = (await enrolOperator(svc(), bo(), clock, "proc-viewer", "viewer")).sessionToken;
  const set = (token: string, over: Record<string, unknown> = {}, credentials: Record<string, string> = {}, createOnly = false) =>
    bo().setProcessorAccount({ context: ctx(token), merchantId: "m-single", account: account(over), credentials, createOnly });

  const bySchema = await refusal(set(admin, { settings: { processing_channel_id: "pc_short" } }, { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET }));
  t.equal(bySchema.code, Code.InvalidArgument);
  t.same(bySchema.fields, ["account.settings.processing_channel_id"], "the connector's schema names the setting");
  const missing = await refusal(set(admin, {}, { secret_key: SECRET_KEY }));
  t.same(missing.fields, ["credentials.webhook_secret"], "a new account needs every credential, named");
  const badUrl = await refusal(set(admin, { endpointUrl: "ftp://x" }, { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET }));
  t.same(badUrl.fields, ["account.endpoint_url"]);
  const forged = await refusal(set(viewer, {}, { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET }));
  t.equal(forged.code, Code.PermissionDenied, "a viewer changes no account");

  const made = await set(admin, {}, { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET }, true);
  const cko = made.accounts.find((a) => a.processor === "cko-main");
  t.same(cko?.credentialsSet, ["secret_key", "webhook_secret"], "the names set, never the values");
  t.notOk(JSON.stringify(made.accounts, (_k, v) => (typeof v === "bigint" ? String(v) : v)).includes("sk_sbox_console"));
  t.equal((await refusal(set(admin, {}, {}, true))).code, Code.AlreadyExists, "adding over an existing account is refused");

  // Blank keeps: a change of the URL alone, then of one credential, leaves the account whole.
  const moved = await set(admin, { endpointUrl: "https://api.checkout.com" });
  t.equal(moved.accounts.find((a) => a.processor === "cko-main")?.endpointUrl, "https://api.checkout.com");
  const rotated = await set(admin, {}, { secret_key: `${SECRET_KEY}-2` });
  t.same(rotated.accounts.find((a) => a.processor === "cko-main")?.credentialsSet, ["secret_key", "webhook_secret"]);
  // Moved to another connector, nothing is kept: its own credentials are asked for by name.
  const other = await refusal(set(admin, { connector: "adyen", settings: { merchant_account: "ShopEU" } }));
  t.same(other.fields, ["credentials.api_key"]);

  const seen = await bo().getMerchant({ context: ctx(viewer), merchantId: "m-single" });
  t.ok(seen.connectors.some((c) => c.name === "checkout" && c.requiredSettings.includes("processing_channel_id") && c.credentials.includes("secret_key")));
  t.ok(seen.cardBrands.includes("visa"));

  const rows = await svc().sql<{ action: string; outcome: string; actor: string; before_json: string; after_json: string }>(
    "select action, outcome, actor, before_json, after_json from audit_log where action like 'processor_account.%' order by id",
  );
  t.same(
    rows.map((r) => [r.action, r.outcome, r.actor]),
    [
      ["processor_account.set", "failure", "proc-admin"],
      ["processor_account.set", "failure", "proc-admin"],
      ["processor_account.set", "failure", "proc-admin"],
      ["processor_account.set", "success", "proc-admin"],
      ["processor_account.set", "failure", "proc-admin"],
      ["processor_account.set", "success", "proc-admin"],
      ["processor_account.set", "success", "proc-admin"],
      ["processor_account.set", "failure", "proc-admin"],
    ],
    "each change and each refusal is audited",
  );
  t.match(rows[3].after_json, /"credentialsSet":\["secret_key","webhook_secret"\]/);
  t.equal(rows[3].before_json, "[]");
  const denied = await svc().sql("select 1 from audit_log where actor = 'proc-viewer' and action = 'merchant.update' and outcome = 'failure'");
  t.equal(denied.length, 1, "the viewer's attempt is audited as a refused merchant.update");
  const log = JSON.stringify(await svc().sql("select * from audit_log"));
  for (const secret of [SECRET_KEY, WEBHOOK_SECRET]) t.notOk(log.includes(secret), "no credential value in the audit log");
  const stored = JSON.stringify(await svc().sql("select * from processor_account"));
  t.notOk(stored.includes(SECRET_KEY), "credentials are stored sealed");
});

t.test("cascade, rules, removal and preview", async (t) => {
  const admin = (await enrolOperator(svc(), bo(), clock, "route-admin", "admin")).sessionToken;
  const viewer = (await enrolOperator(svc(), bo(), clock, "route-viewer", "viewer")).sessionToken;
  const other = (await enrolOperator(svc(), bo(), clock, "route-other", "admin", ["m-other"])).sessionToken;

  // The cascade may name the merchant's own account (merchant-admin passes the stored names to the parser).
  const cascade = await bo().updateMerchant({
    context: ctx(admin),
    update: { merchant: { merchantId: "m-single", processors: ["cko-main", "sim-a"] }, updateMask: { paths: ["processors"] } },
  });
  t.same(cascade.merchant?.processors, ["cko-main", "sim-a"]);

  const { routingRulesEtag: etag0 } = await bo().getMerchant({ context: ctx(admin), merchantId: "m-single" });
  const rules = (over: Record<string, unknown> = {}) => [
    { name: "eu-cards", when: { currency: ["EUR"], cardBrand: ["visa", "mastercard"] }, processors: ["sim-a", "cko-main"], ...over },
    {
      when: { transactionType: ["payout"], amountMin: 100_000n },
      split: [
        { account: "sim-a", weight: 3 },
        { account: "cko-main", weight: 1 },
      ],
    },
  ];
  const setRules = (token: string, list: ReturnType<typeof rules>, etag = etag0) =>
    bo().setRoutingRules({ context: ctx(token), merchantId: "m-single", rules: list, etag });

  t.same((await refusal(setRules(admin, rules({ when: { currency: ["eur"] } })))).fields, ["rules[0].when.currency[0]"]);
  t.same((await refusal(setRules(admin, rules({ processors: ["adyen-eu"] })))).fields, ["rules[0].processors[0]"], "an account the merchant lacks");
  t.same((await refusal(setRules(admin, rules({ processors: [], split: [{ account: "sim-a", weight: 0 }] })))).fields, ["rules[0].split[0].weight"]);
  t.same((await refusal(setRules(admin, rules({ processors: [], split: [{ account: "nope", weight: 1 }] })))).fields, ["rules[0].split[0].account"]);
  t.equal((await refusal(setRules(viewer, rules()))).code, Code.PermissionDenied, "a viewer sets no rule");
  t.equal((await refusal(setRules(other, rules()))).code, Code.NotFound, "a merchant out of the scope does not exist");

  const saved = await setRules(admin, rules());
  t.equal(saved.rules.length, 2);
  t.not(saved.etag, etag0, "a new version");
  const stale = await refusal(setRules(admin, rules({ name: "late" })));
  t.equal(stale.code, Code.FailedPrecondition, "a change made from the old page is refused");
  t.match(stale.message, /changed by someone else/);

  const inUse = await refusal(bo().deleteProcessorAccount({ context: ctx(admin), merchantId: "m-single", name: "cko-main" }));
  t.equal(inUse.code, Code.FailedPrecondition);
  t.match(inUse.message, "account cko-main is still used by processors, eu-cards, rule 2", "the refusal names who uses it");

  const preview = (token: string, q: Record<string, unknown>) =>
    bo().previewRouting({ context: ctx(token), merchantId: "m-single", transactionType: TransactionType.SALE, currency: "EUR", amount: 1000n, ...q });
  const eu = await preview(viewer, { cardBin: "411111" });
  t.same([eu.ruleMatched, eu.ruleNumber, eu.rule, eu.cascade, eu.cardBrand], [true, 1, "eu-cards", ["sim-a", "cko-main"], "VISA"], "a viewer may preview");
  const usd = await preview(admin, { currency: "USD", cardBrand: "visa" });
  t.same([usd.ruleMatched, usd.rule, usd.cascade], [false, "", ["cko-main", "sim-a"]], "no rule: the cascade order");
  const big = await preview(admin, { transactionType: TransactionType.PAYOUT, currency: "USD", amount: 100_000n });
  t.same(
    [big.rule, big.split.map((s) => [s.account, s.weight])],
    [
      "rule 2",
      [
        ["sim-a", 3],
        ["cko-main", 1],
      ],
    ],
    "a split gives its weights",
  );
  t.same((await refusal(preview(admin, { currency: "EURO" }))).fields, ["currency"]);
  t.same((await refusal(preview(admin, { cardBin: "41" }))).fields, ["card_bin"]);
  t.same((await refusal(preview(admin, { transactionType: TransactionType.REFUND }))).fields, ["transaction_type"]);
  t.same((await refusal(preview(admin, { currency: "BHD", amount: 1n }))).fields, [], "BHD is sent in whole dinars: 1 is BHD 1.000");

  // Out of the rules and the cascade, the account goes.
  const now = await bo().getMerchant({ context: ctx(admin), merchantId: "m-single" });
  await setRules(admin, [], now.routingRulesEtag);
  await bo().updateMerchant({
    context: ctx(admin),
    update: { merchant: { merchantId: "m-single", processors: ["sim-a"] }, updateMask: { paths: ["processors"] } },
  });
  const left = await bo().deleteProcessorAccount({ context: ctx(admin), merchantId: "m-single", name: "cko-main" });
  t.notOk(left.accounts.some((a) => a.processor === "cko-main"));
  t.equal((await refusal(bo().deleteProcessorAccount({ context: ctx(admin), merchantId: "m-single", name: "cko-main" }))).code, Code.NotFound);
  const rows = await svc().sql<{ action: string; outcome: string }>(
    "select action, outcome from audit_log where action in ('merchant.routing_rules', 'processor_account.delete') and outcome = 'success' order by id",
  );
  t.same(
    rows.map((r) => r.action),
    ["merchant.routing_rules", "merchant.routing_rules", "processor_account.delete"],
  );
});

t.test("a webhook key rotation: the previous key is an optional credential, set beside the new one, then removed", async (t) => {
  const admin = (await enrolOperator(svc(), bo(), clock, "proc-rotator", "admin")).sessionToken;
  const set = (credentials: Record<string, string>, removeCredentials: string[] = []) =>
    bo().setProcessorAccount({ context: ctx(admin), merchantId: "m-single", account: account({ processor: "cko-rotate" }), credentials, removeCredentials });
  const seen = await bo().getMerchant({ context: ctx(admin), merchantId: "m-single" });
  t.same(seen.connectors.find((c) => c.name === "checkout")?.optionalCredentials, ["webhook_secret_previous"], "the form offers the previous key");
  t.same(seen.connectors.find((c) => c.name === "adyen")?.optionalCredentials, ["hmac_key_previous"]);

  await set({ secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET });
  const both = await set({ webhook_secret: `${WEBHOOK_SECRET}-new`, webhook_secret_previous: WEBHOOK_SECRET });
  const names = (r: typeof both) => r.accounts.find((a) => a.processor === "cko-rotate")?.credentialsSet;
  t.same(names(both), ["secret_key", "webhook_secret", "webhook_secret_previous"], "during the rotation both keys are held");

  const required = await refusal(set({}, ["webhook_secret"]));
  t.same([required.code, required.fields], [Code.InvalidArgument, ["remove_credentials"]], "a required credential cannot be removed");
  const unknown = await refusal(set({}, ["api_key"]));
  t.same(unknown.fields, ["remove_credentials"], "nor a name the connector does not take");
  const over = await set({}, ["webhook_secret_previous"]);
  t.same(names(over), ["secret_key", "webhook_secret"], "after the rotation the previous key comes off");
  const log = JSON.stringify(await svc().sql("select * from audit_log"));
  t.notOk(log.includes(`${WEBHOOK_SECRET}-new`), "no key's value in the audit log");
});
