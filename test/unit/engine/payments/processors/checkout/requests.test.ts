/**
 * What the checkout connector asks of Checkout.com: our trace_id as every
 * payment's reference and in its idempotency key, 3-D Secure with the return
 * URL when there is one, the customer's data within Checkout's limits, and the
 * calls refused before anything is sent when Checkout could not take them.
 */
import t from "tap";
import type { ChargeRequest, PaymentParty } from "../../../../../../engine/payments/processors/processor.ts";
import { idempotencyKey } from "../../../../../../engine/payments/processors/checkout/integration.ts";
import { expiryOf, payoutBody, refundBody, saleBody } from "../../../../../../engine/payments/processors/checkout/requests.ts";
import type { CheckoutSettings } from "../../../../../../engine/payments/processors/checkout/settings.ts";

const jane: PaymentParty = {
  firstName: "Jane",
  lastName: "Doe",
  email: "jane@example.com",
  phone: "+44 20 7946 0000",
  address: "90 Tottenham Court Road",
  city: "London",
  zip: "W1T 4TJ",
  country: "GB",
  state: "",
  dob: "1985-05-15",
  ip: "2001:db8::1",
};
const charge = (over: Partial<ChargeRequest> = {}): ChargeRequest => ({
  traceId: 4101,
  amountMinor: 1050,
  currency: "EUR",
  card: { number: "4242424242424242", cvv: "100", expiry: "12/2030" },
  ...over,
});
const settings: CheckoutSettings = { processingChannelId: "pc_zs5fqhybzc2e3jmq3efvybybpq" };
const withPayouts: CheckoutSettings = { ...settings, payout: { currencyAccountId: "ca_qcc7x4nxxk6efeogm7yczdnsxu", fundsTransferType: "OG" } };

const body = (b: ReturnType<typeof saleBody>) => {
  if (!b.ok) throw new Error(b.why);
  return b.body as Record<string, any>;
};

t.test("a sale: our trace_id as its reference, captured, on the account's processing channel", async (t) => {
  const b = body(saleBody(charge(), settings));
  t.same(b, {
    source: { type: "card", number: "4242424242424242", expiry_month: 12, expiry_year: 2030, cvv: "100" },
    amount: 1050,
    currency: "EUR",
    payment_type: "Regular",
    reference: "4101",
    capture: true,
    processing_channel_id: "pc_zs5fqhybzc2e3jmq3efvybybpq",
  });
});

t.test("a sale with a customer and a return URL: 3-D Secure on, back to Cashier on success and on failure", async (t) => {
  const b = body(saleBody(charge({ customer: jane, returnUrl: "https://cashier.example/return/4101/ab", orderId: "ord-1" }), settings));
  t.same(b["3ds"], { enabled: true });
  t.equal(b.success_url, "https://cashier.example/return/4101/ab");
  t.equal(b.failure_url, "https://cashier.example/return/4101/ab");
  t.same(b.customer, { email: "jane@example.com", name: "Jane Doe" });
  t.same(b.source.billing_address, { address_line1: "90 Tottenham Court Road", city: "London", zip: "W1T 4TJ", country: "GB" });
  t.same(b.source.phone, { number: "+44 20 7946 0000" });
  t.equal(b.source.name, "Jane Doe");
  t.same(b.metadata, { order_id: "ord-1" });
  t.notOk("payment_ip" in b, "an IPv6 address is not sent: the spec's payment_ip is IPv4");
  t.equal(body(saleBody(charge({ customer: { ...jane, ip: "203.0.113.7" } }), settings)).payment_ip, "203.0.113.7");
  t.notOk("3ds" in body(saleBody(charge({ customer: jane }), settings)), "no return URL: no 3-D Secure Cashier could come back from");
});

t.test("a sale leaves out what Checkout.com would refuse, and refuses what it cannot go without", async (t) => {
  const b = body(
    saleBody(charge({ card: { number: "4242424242424242", cvv: "", expiry: "1/29" }, customer: { ...jane, city: "x".repeat(51), country: "gb" } }), settings),
  );
  t.notOk("cvv" in b.source, "no CVV (a held card): none sent");
  t.equal(b.source.expiry_year, 2029);
  t.equal(b.source.expiry_month, 1);
  t.same(b.source.billing_address, { address_line1: "90 Tottenham Court Road", zip: "W1T 4TJ" }, "a city past 50 characters and a lower-case country left out");
  t.same(saleBody(charge({ card: { number: "4242424242424242", cvv: "1", expiry: "2030-12" } }), settings), {
    ok: false,
    why: "the card's expiry is not MM/YYYY",
  });
  t.same(saleBody(charge({ returnUrl: `https://cashier.example/${"r".repeat(250)}` }), settings), {
    ok: false,
    why: "the return URL is longer than Checkout.com's 255 characters",
  });
});

t.test("expiry: MM/YYYY and MM/YY", async (t) => {
  t.same(expiryOf("12/2030"), { month: 12, year: 2030 });
  t.same(expiryOf("06/29"), { month: 6, year: 2029 });
  for (const bad of ["13/2030", "00/2030", "", "12/203", "12-2030"]) t.equal(expiryOf(bad), undefined, `"${bad}"`);
});

t.test("a card payout: the currency account pays the named card holder, with the account's payout settings", async (t) => {
  const full: CheckoutSettings = {
    ...settings,
    payout: {
      currencyAccountId: "ca_qcc7x4nxxk6efeogm7yczdnsxu",
      fundsTransferType: "OG",
      purpose: "Winnings",
      billingDescriptor: "Casino withdrawal",
      sender: { companyName: "Demo Gaming Ltd", reference: "m-demo", addressLine1: "1 High St", city: "London", zip: "N1 7BQ", country: "GB" },
    },
  };
  const b = body(payoutBody(charge({ customer: jane, card: { number: "4242424242424242", cvv: "", expiry: "12/2030" } }), full));
  t.same(b.source, { type: "currency_account", id: "ca_qcc7x4nxxk6efeogm7yczdnsxu" });
  t.match(b.destination, { type: "card", number: "4242424242424242", expiry_month: 12, expiry_year: 2030 });
  t.same(b.destination.account_holder, {
    type: "individual",
    first_name: "Jane",
    last_name: "Doe",
    billing_address: { address_line1: "90 Tottenham Court Road", city: "London", zip: "W1T 4TJ", country: "GB" },
    email: "jane@example.com",
    phone: { number: "+44 20 7946 0000" },
    date_of_birth: "1985-05-15",
  });
  t.equal(b.reference, "4101");
  t.same(b.instruction, { purpose: "Winnings", funds_transfer_type: "OG" });
  t.same(b.billing_descriptor, { reference: "Casino withdrawal" });
  t.same(b.sender, {
    type: "corporate",
    reference: "m-demo",
    company_name: "Demo Gaming Ltd",
    address: { address_line1: "1 High St", city: "London", zip: "N1 7BQ", country: "GB" },
  });
  t.notOk("cvv" in b.destination, "a payout sends no CVV");
});

t.test("a payout Checkout.com could not take is refused before it is sent", async (t) => {
  t.same(payoutBody(charge({ customer: jane }), settings), { ok: false, why: "this Checkout.com account has no payout_currency_account_id" });
  t.same(payoutBody(charge(), withPayouts), { ok: false, why: "a card payout needs the recipient's first and last name" });
  t.same(payoutBody(charge({ customer: { ...jane, lastName: " " } }), withPayouts), {
    ok: false,
    why: "a card payout needs the recipient's first and last name",
  });
});

t.test("a refund, full or partial: the amount always named, our trace_id as its reference", async (t) => {
  t.same(refundBody({ ...charge({ traceId: 4102, amountMinor: 1050 }), saleTransactionId: "pay_a" }), { ok: true, body: { amount: 1050, reference: "4102" } });
  t.same(refundBody({ ...charge({ traceId: 4103, amountMinor: 50 }), saleTransactionId: "pay_a" }), { ok: true, body: { amount: 50, reference: "4103" } });
  t.same(refundBody({ ...charge(), saleTransactionId: "" }), { ok: false, why: "the sale has no Checkout.com payment id to refund" });
});

t.test("the idempotency key: one per attempt and operation, the same on a replay", async (t) => {
  t.equal(idempotencyKey(4101, "sale"), "cashier-4101-sale");
  t.equal(idempotencyKey(4101, "sale"), idempotencyKey(4101, "sale"));
  t.not(idempotencyKey(4101, "sale"), idempotencyKey(4102, "sale"));
  t.not(idempotencyKey(4101, "refund"), idempotencyKey(4101, "payout"));
});
