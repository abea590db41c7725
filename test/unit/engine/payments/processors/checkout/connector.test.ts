/**
 * The checkout connector module: its name, capabilities and credentials, and
 * the processor an account opens (without payout settings, no payouts, which
 * the registry refuses by name). Nothing here calls Checkout.com: the HTTP
 * exchanges are the end-to-end test's, against the acquirer simulator.
 */
import t from "tap";
import { CAPABILITIES } from "../../../../../../engine/payments/processors/processor.ts";
import { type CheckoutSettings, checkout } from "../../../../../../engine/payments/processors/checkout/index.ts";

const account = (settings: CheckoutSettings, credentials: Record<string, string> = { secret_key: "sk_sbox_x", webhook_secret: "w" }) => ({
  name: "cko-main",
  url: "http://127.0.0.1:9/checkout/",
  credentials,
  settings,
  timeoutMs: 1000,
});

t.test("the module", async (t) => {
  t.equal(checkout.name, "checkout");
  t.same(checkout.capabilities, [...CAPABILITIES], "sale, payout, refund, 3-D Secure, status lookup");
  t.same(checkout.credentials, ["secret_key", "webhook_secret"]);
  t.ok(checkout.parseSettings({ processing_channel_id: "pc_zs5fqhybzc2e3jmq3efvybybpq" }).ok);
  t.ok(checkout.webhooks);
  t.notOk(checkout.webhooks?.acknowledgement, "Checkout.com expects an empty 2xx");
});

t.test("an account opens a processor of its own, paying out only with payout settings", async (t) => {
  const sales = checkout.open(account({ processingChannelId: "pc_zs5fqhybzc2e3jmq3efvybybpq" }));
  t.equal(sales.name, "cko-main", "named after the account");
  t.same(Object.keys(sales.capabilities).sort(), ["refund", "sale", "statusLookup", "threeDSecure"]);
  t.ok(sales.capabilities.threeDSecure?.returned, "3-D Secure at a real acquirer: the verdict is asked for on return");
  const payouts = checkout.open(
    account({ processingChannelId: "pc_zs5fqhybzc2e3jmq3efvybybpq", payout: { currencyAccountId: "ca_qcc7x4nxxk6efeogm7yczdnsxu" } }),
  );
  t.same(Object.keys(payouts.capabilities).sort(), ["payout", "refund", "sale", "statusLookup", "threeDSecure"]);
});

t.test("calls that cannot be made answer unavailable before anything is sent", async (t) => {
  const req = { traceId: 1, amountMinor: 100, currency: "EUR", card: { number: "4242424242424242", cvv: "100", expiry: "12/2030" } };
  const noKey = checkout.open(account({ processingChannelId: "pc_zs5fqhybzc2e3jmq3efvybybpq" }, { webhook_secret: "w" }));
  t.same(await noKey.capabilities.sale!.authorize(req), { kind: "unavailable", message: "account cko-main has no secret_key" });
  const p = checkout.open(account({ processingChannelId: "pc_zs5fqhybzc2e3jmq3efvybybpq" }));
  t.same(await p.capabilities.sale!.authorize({ ...req, card: { ...req.card, expiry: "2030" } }), {
    kind: "unavailable",
    message: "the card's expiry is not MM/YYYY",
  });
  t.same(await p.capabilities.refund!.refund({ ...req, saleTransactionId: "" }), {
    kind: "unavailable",
    message: "the sale has no Checkout.com payment id to refund",
  });
  t.match(
    await p.capabilities.statusLookup!.status("act_y3oqhf46pyzuxjbcn2giaqnb44", { type: "refund", saleTransactionId: "" }),
    { kind: "unknown", transactionId: "act_y3oqhf46pyzuxjbcn2giaqnb44" },
    "a refund's lookup without its sale's payment id: asked again, never guessed",
  );
  t.match(
    await p.capabilities.statusLookup!.find(4102, { type: "refund", saleTransactionId: "" }),
    { kind: "unknown" },
    "a lost refund answer without its sale's payment id: asked again, never looked for among payments",
  );
});
