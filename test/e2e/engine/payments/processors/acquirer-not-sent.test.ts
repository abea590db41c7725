/**
 * Checkout.com's and Adyen's connectors when the acquirer cannot be reached
 * (nothing listening on the account's URL): a payment or refund whose
 * connection is refused was surely not sent, so each answers `unavailable` and
 * `notSent`, and the decision table sends a sale on to the cascade's next
 * account, as for the simulators (sim-not-sent.test.ts). A lookup that cannot
 * connect, and Adyen's details call after the shopper's return (the payment
 * exists there), stay `unknown`: asked again later, never declined.
 */
import { closedPort } from "../../../../support/closed-port.ts";
import t from "tap";
import { decide } from "../../../../../engine/payments/domain/outcome.ts";
import { stateKey } from "../../../../../engine/payments/domain/transitions.ts";
import { adyen } from "../../../../../engine/payments/processors/adyen/index.ts";
import { checkout } from "../../../../../engine/payments/processors/checkout/index.ts";
import type { ConnectorModule } from "../../../../../engine/payments/processors/connector.ts";
import type { ChargeRequest, Processor } from "../../../../../engine/payments/processors/processor.ts";

/** An account of `module` at `url`, its settings checked by the connector's own schema. */
function open<S>(module: ConnectorModule<S>, name: string, url: string, rawSettings: unknown, credentials: Record<string, string>): Processor {
  const settings = module.parseSettings(rawSettings);
  if (!settings.ok) throw new Error(`settings refused: ${JSON.stringify(settings.faults)}`);
  return module.open({ name, url, credentials, settings: settings.value, timeoutMs: 5000 });
}

let trace = 1;
const charge = (): ChargeRequest => ({
  traceId: trace++,
  amountMinor: 1050,
  currency: "EUR",
  card: { number: "4242424242424242", cvv: "100", expiry: "12/2030" },
  customer: {
    firstName: "Jane",
    lastName: "Doe",
    email: "jane@example.com",
    phone: "",
    address: "",
    city: "",
    zip: "",
    country: "GB",
    state: "",
    dob: "",
    ip: "",
  },
  returnUrl: "https://pay.example/3ds/1/mac/return",
});

t.test("Checkout.com unreachable: a sale, a payout and a refund were not sent; a lookup is asked again", async (t) => {
  const cko = open(
    checkout,
    "cko-main",
    `http://127.0.0.1:${await closedPort()}`,
    { processing_channel_id: "pc_aaaaaaaaaaaaaaaaaaaaaaaaaa", payout_currency_account_id: "ca_aaaaaaaaaaaaaaaaaaaaaaaaaa" },
    { secret_key: "sk_sbox_test-checkout-key-0123", webhook_secret: "whsec-test" },
  );
  const sale = await cko.capabilities.sale!.authorize(charge());
  t.same(sale, { kind: "unavailable", message: "cko-main could not be reached; nothing was sent", notSent: true }, "a sale");
  t.equal(stateKey(decide("sale", sale, false).to!), "declined_retry", "not the last account: the next one takes the sale");
  const last = decide("sale", sale, true);
  t.same([stateKey(last.to!), last.depositState, last.errorCode], ["declined", "E", 9001], "the last: declined E, PROCESSOR_UNAVAILABLE");
  t.match(await cko.capabilities.payout!.payout(charge()), { kind: "unavailable", notSent: true }, "a payout");
  t.match(
    await cko.capabilities.refund!.refund({ ...charge(), saleTransactionId: "pay_aaaaaaaaaaaaaaaaaaaaaaaaaa" }),
    { kind: "unavailable", notSent: true },
    "a refund",
  );
  const lookup = await cko.capabilities.statusLookup!.status("pay_aaaaaaaaaaaaaaaaaaaaaaaaaa");
  t.equal(lookup.kind, "unknown", "a lookup that cannot connect is asked again later");
});

t.test("Adyen unreachable: a sale and a refund were not sent; the details call after a return is asked again", async (t) => {
  const ady = open(
    adyen,
    "adyen-eu",
    `http://127.0.0.1:${await closedPort()}/v71`,
    { merchant_account: "ShopEU" },
    { api_key: "AQE-test-adyen-api-key-0123", hmac_key: "00" },
  );
  const sale = await ady.capabilities.sale!.authorize(charge());
  t.same(sale, { kind: "unavailable", message: "adyen-eu could not be reached; nothing was sent", notSent: true }, "a sale");
  t.equal(stateKey(decide("sale", sale, false).to!), "declined_retry", "the cascade goes on");
  t.match(await ady.capabilities.refund!.refund({ ...charge(), saleTransactionId: "QFQTPCQ8HXSKGK82" }), { kind: "unavailable", notSent: true }, "a refund");
  const details = await ady.capabilities.threeDSecure!.returned!("QFQTPCQ8HXSKGK82", { redirectResult: "X6XtfGC3" });
  t.match(details, { kind: "unknown", transactionId: "QFQTPCQ8HXSKGK82" }, "the shopper's return: the payment exists, so its verdict is asked again");
});
