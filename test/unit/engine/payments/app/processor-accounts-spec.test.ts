/**
 * Accounts per CONTRACT 11 in the merchants file and AdminService: several per
 * acquirer, named apart from their connector, the credentials the connector's
 * names exactly, the settings checked by the connector's own schema; a fault
 * named by its path; `processors` names accounts.
 */
import t from "tap";
import { MerchantsFileError, parseMerchantEntry } from "../../../../../engine/payments/app/merchant-spec.ts";
import { parseProcessorAccounts } from "../../../../../engine/payments/app/processor-accounts-spec.ts";

const PC = `pc_${"a".repeat(26)}`;
const cko = (over: Record<string, unknown> = {}) => ({
  name: "cko-main",
  connector: "checkout",
  url: "https://api.sandbox.checkout.com",
  credentials: { secret_key: "sk_sbox_0123456789", webhook_secret: "whsec-0123456789" },
  settings: { processing_channel_id: PC },
  ...over,
});
const adyen = (over: Record<string, unknown> = {}) => ({
  name: "adyen-eu",
  connector: "adyen",
  url: "https://checkout-test.adyen.com/v71",
  credentials: { api_key: "AQE-0123456789", hmac_key: "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056" },
  settings: { merchant_account: "ShopEU" },
  ...over,
});

const fault = (f: () => unknown) => {
  try {
    f();
    return "accepted";
  } catch (err) {
    if (err instanceof MerchantsFileError) return `${err.field}: ${err.problem}`;
    throw err;
  }
};

t.test("several accounts at one acquirer, each by its name, beside the older form", async (t) => {
  const list = parseProcessorAccounts(
    [cko(), cko({ name: "cko-uk" }), adyen(), { processor: "sim-a", url: "http://127.0.0.1:8090", api_key: "key-0123456789" }],
    "a",
  );
  t.same(
    list.map((a) => [a.name, a.connector]),
    [
      ["cko-main", "checkout"],
      ["cko-uk", "checkout"],
      ["adyen-eu", "adyen"],
      ["sim-a", "sim-a"],
    ],
  );
  t.same(list[0].credentials, { secret_key: "sk_sbox_0123456789", webhook_secret: "whsec-0123456789" });
  t.same(list[0].settings, { processing_channel_id: PC }, "settings kept as given: the connector reads them again on open");
  t.equal(list[3].credentials.api_key, "key-0123456789", "the older form's key is its api_key credential");
});

t.test("a webhook key rotation: the previous key is an optional credential", async (t) => {
  const previous = "11223344D785FBAE710E7F943F307971BB61B21281C98C9129B3D4018A57B2EB";
  const [rotating] = parseProcessorAccounts([adyen({ credentials: { ...adyen().credentials, hmac_key_previous: previous } })], "a");
  t.equal(rotating.credentials.hmac_key_previous, previous, "kept beside hmac_key");
  const [plain] = parseProcessorAccounts([adyen()], "a");
  t.notOk("hmac_key_previous" in plain.credentials, "absent when not given");
  t.equal(
    fault(() => parseProcessorAccounts([adyen({ credentials: { hmac_key_previous: previous } })], "a")),
    "a[0].credentials.api_key: is required",
    "never in place of the current ones",
  );
});

t.test("each fault is named by its path", async (t) => {
  const rows: [unknown, string][] = [
    [cko({ connector: "stripe" }), "a[0].connector: must be one of sim-a, sim-b, checkout, adyen"],
    [cko({ name: undefined }), "a[0].name: is required"],
    [cko({ name: "cko main" }), "a[0].name: must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"],
    [cko({ url: undefined }), "a[0].url: is required"],
    [cko({ credentials: undefined }), "a[0].credentials: must be an object with secret_key, webhook_secret"],
    [cko({ credentials: { secret_key: "sk_sbox_0123456789" } }), "a[0].credentials.webhook_secret: is required"],
    [cko({ credentials: { secret_key: "short", webhook_secret: "whsec-0123456789" } }), "a[0].credentials.secret_key: must be 8 to 512 characters"],
    [
      cko({ credentials: { secret_key: "sk_sbox_0123456789", webhook_secret: "whsec-0123456789", api_key: "0123456789" } }),
      "a[0].credentials.api_key: is not a credential of this connector (secret_key, webhook_secret, webhook_secret_previous)",
    ],
    [
      cko({ credentials: { secret_key: "sk_sbox_0123456789", webhook_secret: "whsec-0123456789", webhook_secret_previous: "short" } }),
      "a[0].credentials.webhook_secret_previous: must be 8 to 512 characters",
    ],
    [cko({ settings: {} }), "a[0].settings.processing_channel_id: is required"],
    [
      cko({ settings: { processing_channel_id: "pc_short" } }),
      "a[0].settings.processing_channel_id: must be a processing channel id: pc_ and 26 letters or digits",
    ],
    [adyen({ settings: {} }), "a[0].settings.merchant_account: is required"],
  ];
  for (const [entry, want] of rows)
    t.equal(
      fault(() => parseProcessorAccounts([entry], "a")),
      want,
      want,
    );
  t.equal(
    fault(() => parseProcessorAccounts([cko(), cko()], "a")),
    "a[1].name: repeats cko-main",
  );
});

t.test("processors names accounts: the merchant's own or the default cascade's", async (t) => {
  const entry = (over: Record<string, unknown>) => ({
    merchant_id: "m1",
    secret: "s3cret-0123456789",
    frontends: [{ name: "f", base_currency: "EUR" }],
    ...over,
  });
  const m = parseMerchantEntry(entry({ processor_accounts: [cko(), adyen()], processors: ["cko-main", "adyen-eu", "sim-a"] }), "m");
  t.same(m.processors, ["cko-main", "adyen-eu", "sim-a"]);
  t.match(
    fault(() => parseMerchantEntry(entry({ processors: ["cko-main"] }), "m")),
    /^m\.processors: /,
    "an account the merchant does not hold",
  );
  t.equal(
    fault(() => parseMerchantEntry(entry({ processors: ["cko-main"] }), "m", { accounts: ["cko-main"] })),
    "accepted",
    "one it holds already (AdminService's UpdateMerchant)",
  );
});
