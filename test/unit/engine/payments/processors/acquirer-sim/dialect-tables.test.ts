/**
 * The Checkout.com and Adyen stand-ins' pure parts: the test-card and amount
 * tables, Adyen's notification signature (against the test vector of Adyen's
 * own Node library), the accounts setting, and the challenge page's escaping.
 */
import t from "tap";
import { parseAccounts } from "../../../../../../engine/payments/processors/acquirer-sim/accounts.ts";
import { decide as adyenDecide } from "../../../../../../engine/payments/processors/acquirer-sim/adyen/cards.ts";
import { itemSignature } from "../../../../../../engine/payments/processors/acquirer-sim/adyen/notifications.ts";
import { challengePage } from "../../../../../../engine/payments/processors/acquirer-sim/challenge-page.ts";
import { decidePayout, decideSale } from "../../../../../../engine/payments/processors/acquirer-sim/checkout/cards.ts";
import { loadAcquirerSimSettings } from "../../../../../../engine/payments/processors/acquirer-sim/settings.ts";

t.test("Checkout.com: the card first, then the amount; amounts only in two-decimal currencies; 3-D Secure by request", async (t) => {
  t.same(decideSale("4242424242424242", 1000, "USD", false), { kind: "approved" });
  t.match(decideSale("4544249167673670", 1000, "USD", false), { kind: "declined", code: { code: "20051" } });
  t.match(decideSale("4544249167673670", 12305, "USD", false), { code: { code: "20051" } }, "the card's code wins over the amount's");
  t.match(decideSale("4242424242424242", 12305, "USD", false), { code: { code: "20005" } });
  t.same(decideSale("4242424242424242", 12305, "JPY", false), { kind: "approved" }, "JPY has no decimals");
  t.same(decideSale("4242424242424242", 6510, "USD", false), { kind: "approved" }, "6510 is a 3-D Secure payment's trigger only");
  t.match(decideSale("4242424242424242", 6510, "USD", true), { code: { code: "20154" } });
  t.same(decideSale("4010061700000021", 1000, "USD", true), { kind: "challenge" });
  t.same(decideSale("4010061700000021", 1000, "USD", false), { kind: "approved" });
  t.match(decideSale("4500622868341387", 1000, "USD", false), { code: { code: "20154" } });
  t.match(decideSale("4539628347117863", 1000, "USD", true), { code: { code: "20151" } }, "a frictionless failure");
  t.same(decidePayout("4921817844445119", 1000, "EUR"), { kind: "approved" });
  t.match(decidePayout("4818192160565981", 1000, "EUR"), { code: { code: "20057" } });
});

t.test("Adyen: the requested test code, then the holder name, then an expired card, then the challenge cards", async (t) => {
  t.same(adyenDecide("4111111145551142", undefined, undefined, false), { kind: "result", result: { resultCode: "Authorised" } });
  t.same(adyenDecide("4111111145551142", "NOT_ENOUGH_BALANCE", undefined, false), {
    kind: "result",
    result: { resultCode: "Refused", refusalReason: "Not enough balance", refusalReasonCode: "12" },
  });
  t.match(adyenDecide("4111111145551142", "DECLINED", "24", false), { result: { refusalReasonCode: "24" } }, "the test code wins");
  t.match(
    adyenDecide("4111111145551142", "DECLINED : 06 : ERROR", undefined, false),
    { result: { refusalReasonCode: "2" } },
    "the raw-code form of the holder name",
  );
  t.match(adyenDecide("4111111145551142", "Jane Doe", undefined, true), { result: { refusalReason: "Expired Card" } });
  t.same(adyenDecide("4917610000000000", "Jane Doe", undefined, false), { kind: "challenge" });
  t.same(adyenDecide("4917610000000000", "PENDING", undefined, false), { kind: "result", result: { resultCode: "Received" } });
});

t.test("Adyen's item signature: the test vector of Adyen's Node library", async (t) => {
  // Adyen/adyen-node-api-library src/__tests__/hmacValidator.spec.ts ("should have valid hmac").
  const item = {
    pspReference: "pspReference",
    originalReference: "originalReference",
    merchantAccountCode: "merchantAccount",
    merchantReference: "reference",
    amount: { currency: "EUR", value: 1000 },
    eventCode: "REPORT_AVAILABLE",
    success: "true",
  };
  t.equal(itemSignature("DFB1EB5485895CFA84146406857104ABB4CBCABDC8AAF103A624C8F6A3EAAB00", item), "ZNBPtI+oDyyRrLyD1XirkKnQgIAlFc07Vj27TeHsDRE=");
});

t.test("ACQUIRER_SIM_ACCOUNTS: read, and a bad one refused naming it", async (t) => {
  const env = (accounts: string) => ({ ACQUIRER_SIM_ACCOUNTS: accounts });
  const s = loadAcquirerSimSettings(
    env(
      JSON.stringify({
        checkout: [{ secret_key: "sk_sbox_12345678", webhook_secret: "s", webhook_url: "http://127.0.0.1:9/w" }],
        adyen: [{ api_key: "key-12345678", merchant_account: "M", hmac_key: "00ff" }],
      }),
    ),
  );
  t.match(s.accounts, {
    checkout: [{ secret_key: "sk_sbox_12345678", webhook_url: "http://127.0.0.1:9/w" }],
    adyen: [{ merchant_account: "M", hmac_key: "00ff" }],
  });
  t.same(loadAcquirerSimSettings({}).accounts, { checkout: [], adyen: [] }, "unset: no accounts");
  t.throws(() => parseAccounts("ACQUIRER_SIM_ACCOUNTS", "{"), /must be JSON/);
  t.throws(() => parseAccounts("ACQUIRER_SIM_ACCOUNTS", '{"stripe": []}'), /unknown acquirer "stripe"/);
  t.throws(() => parseAccounts("ACQUIRER_SIM_ACCOUNTS", '{"checkout": [{"secret_key": "short"}]}'), /checkout\[0\] has an invalid secret_key/);
  t.throws(() => parseAccounts("ACQUIRER_SIM_ACCOUNTS", '{"adyen": [{"api_key": "key-12345678"}]}'), /adyen\[0\] has an invalid merchant_account/);
  t.throws(
    () => parseAccounts("ACQUIRER_SIM_ACCOUNTS", '{"adyen": [{"api_key": "key-12345678", "merchant_account": "M", "hmac_key": "xyz"}]}'),
    /invalid hmac_key/,
  );
  t.throws(() => parseAccounts("ACQUIRER_SIM_ACCOUNTS", '{"checkout": [{"secret_key": "sk_sbox_12345678", "webhook_url": "ftp://x"}]}'), /invalid webhook_url/);
});

t.test("the challenge page escapes what it shows", async (t) => {
  const html = challengePage({ acquirer: "<Acq>", amountMinor: 1050, currency: "EUR", last4: '"1&2' });
  t.match(html, /Simulated &lt;Acq&gt; issuer: 10\.50 EUR, card ending &quot;1&amp;2\./);
  t.match(html, /id="pass"[\s\S]*id="fail"/);
  t.notMatch(challengePage({ acquirer: "A", amountMinor: 1, currency: "EUR", last4: "1", result: "passed" }), /<button/, "answered: no buttons");
});
