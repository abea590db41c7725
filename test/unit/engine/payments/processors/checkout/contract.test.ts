/**
 * The checkout connector against Checkout.com's published schemas
 * (test/contracts/checkout/): every request body the transformers build
 * validates against the request schema and names no member the schema does
 * not know; every recorded answer and webhook example validates against its
 * response schema; the corrections still apply where they say.
 */
import t, { type Test } from "tap";
import type { ChargeRequest, PaymentParty } from "../../../../../../engine/payments/processors/processor.ts";
import { payoutBody, refundBody, saleBody } from "../../../../../../engine/payments/processors/checkout/requests.ts";
import type { CheckoutSettings } from "../../../../../../engine/payments/processors/checkout/settings.ts";
import { PAYMENT_STATUSES } from "../../../../../../engine/payments/processors/checkout/status-table.ts";
import { motoPaymentType, NOT_IN_MOTO } from "../../../../../contracts/checkout/moto.ts";
import { check, corrections, published, spec, unknownMembers } from "../../../../../contracts/checkout/schemas.ts";
import { answer, answerNames, testCards, webhook, webhookNames } from "../../../../../fixtures/checkout/load.ts";

const customer: PaymentParty = {
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
  ip: "203.0.113.7",
};
const empty: PaymentParty = { firstName: "", lastName: "", email: "", phone: "", address: "", city: "", zip: "", country: "", state: "", dob: "", ip: "" };

const charge = (over: Partial<ChargeRequest> = {}): ChargeRequest => ({
  traceId: 4101,
  amountMinor: 1050,
  currency: "EUR",
  card: { number: "4242424242424242", cvv: "100", expiry: "12/2030" },
  ...over,
});

const channel = "pc_zs5fqhybzc2e3jmq3efvybybpq";
const salesOnly: CheckoutSettings = { processingChannelId: channel };
const payouts: CheckoutSettings = {
  processingChannelId: channel,
  payout: {
    currencyAccountId: "ca_qcc7x4nxxk6efeogm7yczdnsxu",
    fundsTransferType: "OG",
    purpose: "Winnings",
    billingDescriptor: "Casino withdrawal",
    sender: { companyName: "Demo Gaming Ltd", reference: "m-demo", addressLine1: "1 High St", city: "London", zip: "N1 7BQ", country: "GB" },
  },
};

/** The body valid against `name` and naming nothing the schema does not; each sub-object that a discriminator picks, against its own schema. */
function conforms(t: Test, label: string, name: string, body: unknown, parts: [path: string, schema: string][] = []) {
  const whole = check(name, body);
  t.ok(whole.ok, `${label}: ${name}`, { errors: whole.errors });
  for (const [path, schema] of parts) {
    const part = path.split(".").reduce((o: any, k) => o?.[k], body);
    const v = check(schema, part);
    t.ok(v.ok, `${label}: ${path} is a ${schema}`, { errors: v.errors });
  }
  t.same(unknownMembers(name, body), [], `${label}: every member is one the schema names`);
}

t.test("the corrections apply where they say, each with its reason and evidence", async (t) => {
  t.ok(corrections.length > 0);
  for (const c of corrections) t.ok(c.why && c.evidence, `${c.op} ${c.path}`);
  t.same(spec.components.schemas.PaymentDetails.properties.status.enum, [...PAYMENT_STATUSES], "the status enum the tables enumerate is today's");
  const old: string[] = published.components.schemas.PaymentDetails.properties.status.enum;
  t.ok(
    old.every((s) => (PAYMENT_STATUSES as readonly string[]).includes(s)),
    "today's statuses include every 2021 status",
  );
});

/** The sale body the connector builds for `req`, checked against PaymentRequest with a card source; undefined (a failure) when it refuses. */
function conformingSale(t: Test, label: string, req: ChargeRequest): Record<string, unknown> | undefined {
  const built = saleBody(req, salesOnly);
  if (!built.ok) {
    t.fail(`${label}: ${built.why}`);
    return undefined;
  }
  conforms(t, label, "PaymentRequest", built.body, [["source", "03_PaymentRequestCardSource"]]);
  return built.body;
}

t.test("every sale body validates against PaymentRequest with a card source", async (t) => {
  const cases: [string, ChargeRequest][] = [
    ["no customer, no return URL", charge()],
    ["a customer and a return URL (3-D Secure)", charge({ customer, returnUrl: "https://cashier.example/return/4101/ab12", orderId: "ord-1001" })],
    ["an empty customer, no CVV", charge({ customer: empty, card: { number: "4242424242424242", cvv: "", expiry: "01/31" } })],
  ];
  for (const card of testCards().cards.rows) {
    cases.push([`${card.brand} ${card.number}`, charge({ customer, card: { number: card.number, cvv: card.cvv, expiry: "06/2029" } })]);
  }
  for (const row of testCards().amounts.rows) {
    cases.push([`amount ${row.amount}`, charge({ amountMinor: Number(row.amount.replaceAll("x", "1")), returnUrl: "https://cashier.example/r" })]);
  }
  for (const [label, req] of cases) conformingSale(t, label, req);
});

t.test("a MOTO sale (the Virtual Terminal): a valid PaymentRequest, payment_type MOTO, no 3-D Secure", async (t) => {
  const { value: moto, values: types } = motoPaymentType();
  t.ok(moto, "the spec enumerates MOTO among the payment types", { types });
  t.match(
    spec.components.schemas.PaymentRequest.properties.payment_type.description,
    /mail order \/ telephone order/,
    "for mail and telephone orders, in the spec's words",
  );
  const returnUrl = "https://cashier.example/return/4101/ab12";
  const web = saleBody(charge({ customer, returnUrl }), salesOnly);
  t.ok(web.ok && "3ds" in web.body && "success_url" in web.body, "the web sale with a return URL asks 3-D Secure: its absence below means something");
  const cases: [string, ChargeRequest][] = [
    ["a full customer and a return URL given", charge({ customer, returnUrl, orderId: "bo-moto-ab12cd34", moto: true })],
    ["no customer, no return URL", charge({ moto: true })],
    ["an empty customer, no CVV", charge({ customer: empty, card: { number: "4242424242424242", cvv: "", expiry: "01/31" }, moto: true })],
  ];
  for (const [label, req] of cases) {
    const body = conformingSale(t, label, req);
    if (!body) continue;
    t.equal(body.payment_type, moto, `${label}: payment_type is the spec's MOTO`);
    t.same(
      NOT_IN_MOTO.filter((m) => m in body),
      [],
      `${label}: no 3-D Secure, no customer redirect, no stored card's payment`,
    );
    t.equal(body.amount, req.amountMinor, `${label}: the amount in minor units`);
    t.equal(body.capture, true, `${label}: captured at once, as every sale`);
  }
  const full = saleBody(cases[0][1], salesOnly);
  t.match(
    full.ok && full.body,
    { customer: { email: "jane@example.com", name: "Jane Doe" }, payment_ip: "203.0.113.7", source: { billing_address: { city: "London" } } },
    "the customer's details still go, for Checkout.com's risk checks",
  );
  const long = saleBody(charge({ returnUrl: `https://cashier.example/${"r".repeat(300)}`, moto: true }), salesOnly);
  t.ok(long.ok, "a return URL past Checkout.com's 255 characters does not refuse a MOTO sale: it is not sent");
  t.notOk(
    check("PaymentRequest", { ...(full.ok ? full.body : {}), payment_type: "Moto" }).ok,
    "the schema refuses the value in another case: the check has teeth",
  );
});

t.test("every payout body validates against PayoutRequest with a card destination", async (t) => {
  const minimal: CheckoutSettings = { processingChannelId: channel, payout: { currencyAccountId: "ca_qcc7x4nxxk6efeogm7yczdnsxu" } };
  const cases: [string, CheckoutSettings, ChargeRequest][] = [
    ["every payout setting, a full customer", payouts, charge({ customer, card: { number: "4242424242424242", cvv: "", expiry: "12/2030" }, orderId: "w-77" })],
    ["the currency account only, names only", minimal, charge({ customer: { ...empty, firstName: "Jane", lastName: "Doe" } })],
  ];
  for (const [label, settings, req] of cases) {
    const built = payoutBody(req, settings);
    if (!built.ok) {
      t.fail(`${label}: ${built.why}`);
      continue;
    }
    const parts: [string, string][] = [
      ["source", "05_PaymentRequestCurrencyAccountSource"],
      ["destination", "PaymentRequestCardDestination"],
    ];
    if (built.body.sender) parts.push(["sender", "02_PaymentRequestCorporateSender"]);
    conforms(t, label, "PayoutRequest", built.body, parts);
  }
});

t.test("every refund body validates against RefundRequest", async (t) => {
  for (const amountMinor of [1050, 1]) {
    const built = refundBody({ ...charge({ amountMinor }), saleTransactionId: "pay_mbabizu24mvu3mela5njyhpit4" });
    if (!built.ok) t.fail(built.why);
    else conforms(t, `amount ${amountMinor}`, "RefundRequest", built.body);
  }
});

/** The response schema of a recorded answer: the spec's for its path and status. */
function responseSchema(name: string): string | undefined {
  const a = answer(name);
  if (a.body === undefined) return undefined;
  if (a.http === 422 || a.http === 429) return "ValidationError";
  if (a.http >= 300) return undefined; // the spec gives other refusals no body schema
  if (a.request.method === "GET")
    return a.request.path.endsWith("/actions") ? "PaymentActionsResponse" : a.request.path.includes("?") ? "PaymentList" : "PaymentDetails";
  if (a.request.path.endsWith("/refunds")) return "RefundAcceptedResponse";
  return a.http === 202 ? "PaymentAcceptedResponse" : "PaymentResponse";
}

/** Recorded answers the published schema refuses, and why: nothing the connector reads. */
const DIVERGENT: Record<string, string> = {
  "sale-authorized-spec-example": "the 2021 spec's own example names `_links.action` where its schema requires `actions`",
};

t.test("every recorded answer validates against its response schema", async (t) => {
  let checked = 0;
  for (const name of answerNames()) {
    const schema = responseSchema(name);
    if (!schema) continue;
    const v = check(schema, answer(name).body);
    if (Object.hasOwn(DIVERGENT, name)) t.notOk(v.ok, `${name}: refused, as known (${DIVERGENT[name]})`);
    else t.ok(v.ok, `${name} (HTTP ${answer(name).http}) is a ${schema}`, { errors: v.errors, source: answer(name).source });
    checked++;
  }
  t.ok(checked >= 10, `${checked} answers checked`);
});

t.test("every webhook example validates as an event", async (t) => {
  for (const name of webhookNames()) {
    const v = check("WebhookEvent", webhook(name).event);
    t.ok(v.ok, `${name}`, { errors: v.errors, source: webhook(name).source });
  }
});
