/**
 * The adyen connector module: its name, capabilities (sale, refund, 3-D Secure;
 * no payout, no status lookup, so the registry refuses them by name),
 * credentials and settings schema, the processor it opens, the answers it gives
 * without calling Adyen, and its idempotency keys. No network: the calls
 * through HTTP are the acquirer simulator's Adyen dialect's to test.
 */
import t from "tap";
import { adyen } from "../../../../../../engine/payments/processors/adyen/index.ts";
import { detailsIdempotencyKey, idempotencyKey } from "../../../../../../engine/payments/processors/adyen/requests.ts";
import type { AdyenSettings } from "../../../../../../engine/payments/processors/adyen/settings.ts";
import type { ConnectorAccount } from "../../../../../../engine/payments/processors/connector.ts";
import { CAPABILITIES } from "../../../../../../engine/payments/processors/processor.ts";
import { ProcessorRegistry } from "../../../../../../engine/payments/processors/registry.ts";

const settings: AdyenSettings = { merchantAccount: "ShopEU", idempotencyScope: "ShopEU" };
// A port nothing listens on; the calls below must answer before any connection is tried (the unit tier refuses one).
const account = (over: Partial<ConnectorAccount<AdyenSettings>> = {}): ConnectorAccount<AdyenSettings> => ({
  name: "adyen-eu",
  url: "http://127.0.0.1:9/v71",
  credentials: { api_key: "AQE...", hmac_key: "00" },
  settings,
  timeoutMs: 1000,
  ...over,
});
const sale = { traceId: 100245, amountMinor: 1050, currency: "EUR", card: { number: "4111111145551142", cvv: "737", expiry: "03/2030" } };

t.test("the module: name, capabilities, credentials", async (t) => {
  t.equal(adyen.name, "adyen");
  t.same([...adyen.capabilities], ["sale", "refund", "threeDSecure"], "sale, refund, 3-D Secure, and nothing else");
  t.same([...adyen.credentials], ["api_key", "hmac_key"]);
  t.ok(adyen.webhooks, "it reads Adyen's notifications");
  const p = adyen.open(account());
  t.equal(p.name, "adyen-eu", "the processor is named after the account");
  t.same(Object.keys(p.capabilities).sort(), [...adyen.capabilities].sort(), "the processor implements exactly what the module declares");
  t.type(p.capabilities.threeDSecure?.returned, "function", "the shopper's return is read with a details call");
  const reg = new ProcessorRegistry([p]);
  for (const cap of CAPABILITIES.filter((c) => !adyen.capabilities.includes(c))) {
    const c = reg.capability("adyen-eu", cap);
    t.notOk(c.ok, `${cap}: refused by the registry`);
    if (!c.ok) t.match(c.error.message, /^processor adyen-eu does not support /, `${cap}: by name`);
  }
});

t.test("settings: merchant_account, an optional idempotency scope, nothing else", async (t) => {
  t.same(adyen.parseSettings({ merchant_account: "ShopEU" }), { ok: true, value: { merchantAccount: "ShopEU", idempotencyScope: "ShopEU" } });
  t.same(adyen.parseSettings({ merchant_account: "ShopEU", idempotency_scope: "cashier-prod" }), {
    ok: true,
    value: { merchantAccount: "ShopEU", idempotencyScope: "cashier-prod" },
  });
  const faults = (raw: unknown) => {
    const r = adyen.parseSettings(raw);
    return r.ok ? [] : r.faults.map((f) => `${f.field} ${f.description}`);
  };
  t.same(faults({}), ["settings.merchant_account is required"]);
  t.same(faults(undefined), ["settings must be an object with merchant_account"]);
  t.same(faults([]), ["settings must be an object with merchant_account"]);
  t.same(faults({ merchant_account: 42 }), ["settings.merchant_account must be a string"]);
  t.same(faults({ merchant_account: "Shop EU" }), ["settings.merchant_account must be letters, digits, '_', '.', '@' or '-', without spaces"]);
  t.same(faults({ merchant_account: "x".repeat(81) }), ["settings.merchant_account must be at most 80 characters"]);
  t.same(
    faults({ merchantAccount: "ShopEU" }),
    ["settings.merchantAccount is not a setting of the adyen connector", "settings.merchant_account is required"],
    "a typo is named",
  );
  t.same(faults({ merchant_account: "ShopEU", idempotency_scope: "a b" }), [
    "settings.idempotency_scope must be letters, digits, '_', '.', '@' or '-', without spaces",
  ]);
});

t.test("what the processor answers without calling Adyen", async (t) => {
  const caps = adyen.open(account()).capabilities;
  t.match(await caps.sale!.authorize(sale), { kind: "unavailable", message: /return URL/ }, "no return URL: Adyen would refuse it, so it is not sent");
  const keyless = adyen.open(account({ credentials: {} })).capabilities;
  t.match(await keyless.sale!.authorize({ ...sale, returnUrl: "https://c.example/r" }), {
    kind: "unavailable",
    message: "account adyen-eu has no credentials.api_key",
  });
  t.match(await caps.refund!.refund({ ...sale, saleTransactionId: "" }), { kind: "unavailable" }, "a refund of a sale without a pspReference");
  t.match(
    await caps.threeDSecure!.complete("PSP1", true),
    { kind: "unknown", transactionId: "PSP1" },
    "the simulators' challenge verdict is not Adyen's: the attempt waits for it",
  );
  t.match(await caps.threeDSecure!.returned!("PSP1", {}), { kind: "unknown", transactionId: "PSP1" }, "back without redirectResult: the notification decides");
});

t.test("idempotency keys: per operation and subject, scoped, at most 64 characters", async (t) => {
  const k = idempotencyKey(settings, "payment", "100245");
  t.match(k, /^cashier-payment-100245-[0-9a-f]{12}$/);
  t.equal(idempotencyKey(settings, "payment", "100245"), k, "the same attempt, the same key: a replay is answered once");
  t.not(idempotencyKey(settings, "refund", "100245"), k, "another operation, another key");
  t.not(idempotencyKey({ ...settings, idempotencyScope: "other-install" }, "payment", "100245"), k, "another installation, another key");
  t.ok(idempotencyKey(settings, "refund", "9".repeat(80)).length <= 64, "a long subject is hashed into the limit");
  const d = detailsIdempotencyKey(settings, "JLCMPCQ8HXSKGK82", "X6XtfGC3!Y...");
  t.ok(d.length <= 64 && d.startsWith("cashier-details-JLCMPCQ8HXSKGK82-"), d);
  t.not(detailsIdempotencyKey(settings, "JLCMPCQ8HXSKGK82", "other"), d, "another redirect result, another key");
});
