/**
 * A MOTO sale (the Backoffice's Virtual Terminal) as each connector builds it and each of the acquirer simulator's
 * dialects reads it: Checkout.com's `payment_type: "MOTO"` with no 3-D Secure, Adyen's `shopperInteraction: "Moto"`
 * with no `recurringProcessingModel` nor 3-D Secure data, the sim's `channel: "moto"`; each against the published
 * request schema where there is one, and each simulator approving the 3-D Secure test card without a challenge.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { paymentBody as adyenBody, type SaleRequest } from "../../../../../engine/payments/processors/adyen/requests.ts";
import { saleBody } from "../../../../../engine/payments/processors/checkout/requests.ts";
import { paymentBody as simBody } from "../../../../../engine/payments/processors/sim/transformers.ts";
import { readPaymentRequest as readCko } from "../../../../../engine/payments/processors/acquirer-sim/checkout/requests.ts";
import { takePayment as takeCko } from "../../../../../engine/payments/processors/acquirer-sim/checkout/decide.ts";
import { details } from "../../../../../engine/payments/processors/acquirer-sim/checkout/views.ts";
import { readPaymentRequest as readAdyen } from "../../../../../engine/payments/processors/acquirer-sim/adyen/requests.ts";
import { takePayment as takeAdyen } from "../../../../../engine/payments/processors/acquirer-sim/adyen/decide.ts";
import { Acquirers, invalidField } from "../../../../../engine/payments/processors/acquirer-sim/acquirer.ts";
import { Ledger } from "../../../../../engine/payments/processors/acquirer-sim/ledger.ts";
import { SimBook } from "../../../../../engine/payments/processors/acquirer-sim/sim-book.ts";
import { isMotoSale, motoOutcome } from "../../../../../engine/payments/domain/moto.ts";
import { motoPaymentType, NOT_IN_MOTO as CKO_NOT_IN_MOTO } from "../../../../contracts/checkout/moto.ts";
import { check as checkCko, unknownMembers } from "../../../../contracts/checkout/schemas.ts";
import { NOT_IN_MOTO as ADYEN_NOT_IN_MOTO, motoInteraction } from "../../../../contracts/adyen/moto.ts";
import { checkCheckout as checkAdyen, schemaOf } from "../../../../contracts/adyen/schemas.ts";

const customer = {
  firstName: "Jane",
  lastName: "Doe",
  email: "jane@example.com",
  phone: "+44 20 7946 0000",
  address: "90 Tottenham Court Road",
  city: "London",
  zip: "W1T 4TJ",
  country: "GB",
  state: "",
  dob: "",
  ip: "",
};

t.test("a MOTO sale is known by its maker: a sale made by backoffice:<login>", async (t) => {
  t.ok(isMotoSale({ type: "sale", createdBy: "backoffice:ann" }));
  t.notOk(isMotoSale({ type: "sale", createdBy: "api" }));
  t.notOk(isMotoSale({ type: "sale", createdBy: "customer" }));
  t.notOk(isMotoSale({ type: "refund", createdBy: "backoffice:ann" }), "an operator's refund is no MOTO sale");
  t.match(motoOutcome({ kind: "challenge", transactionId: "p1" }), { kind: "declined", transactionId: "p1", message: /3-D Secure on a MOTO sale/ });
  t.same(motoOutcome({ kind: "approved", transactionId: "p1" }), { kind: "approved", transactionId: "p1" });
});

t.test("Checkout.com: payment_type MOTO, no 3ds, valid PaymentRequest, approved by the stand-in without a challenge", async (t) => {
  // 4242424242424242 passes; 4010061700000021 is challenged when 3-D Secure is on.
  const card = { number: "4010061700000021", cvv: "100", expiry: "12/2030" };
  const built = saleBody(
    { traceId: 71, amountMinor: 2500, currency: "EUR", card, customer, orderId: "moto-1", moto: true, returnUrl: "https://cashier.example/r" },
    { processingChannelId: "pc_zs5fqhybzc2e3jmq3efvybybpq" },
  );
  if (!built.ok) throw new Error(built.why);
  const body = built.body as Record<string, unknown>;
  t.equal(body.payment_type, motoPaymentType().value, "the spec's MOTO");
  t.same(
    CKO_NOT_IN_MOTO.filter((m) => m in body),
    [],
    "no 3-D Secure asked for, no URL for a customer to come back to",
  );
  t.ok(checkCko("PaymentRequest", body).ok, "valid against Checkout.com's PaymentRequest");
  t.same(unknownMembers("PaymentRequest", body), []);
  const read = readCko(body, new Date("2026-01-01T00:00:00Z"));
  if (!read.ok) throw new Error(read.codes.join());
  t.match(read.value, { kind: "sale", moto: true, threeDs: false });
  const taken = takeCko("scope", read.value, Date.now());
  t.equal(taken.http, 201, "decided at once");
  t.equal(taken.p.approved, true, "the 3-D Secure card approves on a MOTO payment");
  t.equal(details(taken.p, "http://sim.test").payment_type, "MOTO", "the payment's details say MOTO");
  // What the stand-in refuses: 3-D Secure on MOTO, and a payment_type it does not know.
  const both = readCko({ ...body, "3ds": { enabled: true } }, new Date("2026-01-01T00:00:00Z"));
  t.match(both, { ok: false, codes: ["3ds_not_supported_for_moto"] });
  t.match(readCko({ ...body, payment_type: "Phone" }, new Date("2026-01-01T00:00:00Z")), { ok: false, codes: ["payment_type_invalid"] });
});

t.test("Adyen: shopperInteraction Moto, no recurringProcessingModel nor 3-D Secure data, authorised by the stand-in without a redirect", async (t) => {
  const req: SaleRequest = {
    traceId: 72,
    amountMinor: 2500,
    currency: "EUR",
    card: { number: "4917610000000000", cvv: "737", expiry: "03/2030" },
    customer,
    moto: true,
    returnUrl: "https://cashier.example/return/72",
  };
  const body = adyenBody(req, { merchantAccount: "ShopEU", idempotencyScope: "ShopEU" });
  t.equal(body.shopperInteraction, motoInteraction().value, "the spec's value for mail and telephone orders");
  t.same(
    ADYEN_NOT_IN_MOTO.filter((m) => m in body),
    [],
    "no recurringProcessingModel, web channel, browser or 3-D Secure data",
  );
  t.equal(body.returnUrl, "https://cashier.example/return/72", "the returnUrl Adyen's schema requires on every payment");
  const v = checkAdyen(schemaOf("/payments", "request"), body);
  t.ok(v.ok, "valid against Adyen's PaymentRequest", { errors: v.errors });
  const read = readAdyen(body);
  if (!read.ok) throw new Error(JSON.stringify(read.answer));
  t.equal(read.value.moto, true);
  const taken = takeAdyen("scope", read.value, Date.now());
  t.equal(taken.shown.result.resultCode, "Authorised", "the 3-D Secure card authorises on a MOTO payment");
  t.notOk(taken.p.redirect, "no shopper redirect");
  t.notOk(readAdyen({ ...body, recurringProcessingModel: "CardOnFile" }).ok, "Moto with a recurringProcessingModel is refused");
  t.notOk(readAdyen({ ...body, shopperInteraction: "Phone" }).ok, "a shopperInteraction Adyen does not know is refused");
});

t.test("the sim: channel moto on a sale only, and the challenge card approves", async (t) => {
  const card = { number: "4000000000003220", cvv: "123", expiry: "12/2030" };
  const body = simBody("sale", { traceId: 73, amountMinor: 2500, currency: "EUR", card, moto: true });
  t.equal(body.channel, "moto");
  t.notOk("channel" in simBody("sale", { traceId: 74, amountMinor: 2500, currency: "EUR", card }), "an e-commerce sale says nothing");
  t.equal(invalidField(body), undefined);
  t.equal(invalidField({ ...body, channel: "phone" }), "channel");
  t.equal(invalidField({ ...body, operation: "payout" }), "channel", "a channel is a sale's");
  const dir = mkdtempSync(join(tmpdir(), "moto-sim-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const book = new SimBook();
  const ledger = new Ledger(dir);
  await ledger.open((e) => book.apply(e));
  const acquirers = new Acquirers(ledger, book);
  const moto = await acquirers.pay("sim-a", "73", body as never);
  t.match(moto.body, { status: "approved" }, "MOTO: approved, no 3-D Secure");
  const web = await acquirers.pay("sim-a", "74", { operation: "sale", amount: 2500, currency: "EUR", card });
  t.match(web.body, { status: "action_required" }, "the same card on the web is challenged");
});
