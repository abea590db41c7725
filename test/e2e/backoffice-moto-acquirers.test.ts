/**
 * The Virtual Terminal's MOTO sale at a real acquirer's API (issue 32, point 5), over sockets: a payouts operator
 * takes a card payment by phone through the engine's console service (TakeMotoPayment), for a merchant whose one
 * account is at the acquirer simulator's Adyen stand-in (/adyen/v71) and for one at its Checkout.com stand-in
 * (/checkout). Between Cashier and the simulator a recording proxy of this test (test/support/recording-proxy.ts)
 * keeps what the acquirer received: the body of POST /payments is checked against the acquirer's published request
 * schema (test/contracts/) and is MOTO in the acquirer's words (Adyen: shopperInteraction Moto, no 3-D Secure
 * request, browser data, web channel or recurring model; Checkout.com: payment_type MOTO, no 3ds, no success or
 * failure URL). The cards are the stand-ins' that demand 3-D Secure (Adyen's challenge card; Checkout.com's card
 * declined 20154 without authentication), which each stand-in approves only when it read the payment as MOTO: the
 * sale is approved at once, and the platform is told as for any sale (Validation, then the notification at
 * {platform_url}/Notification).
 */
import t, { type Test } from "tap";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { motoInteraction, NOT_IN_MOTO } from "../contracts/adyen/moto.ts";
import { checkCheckout } from "../contracts/adyen/schemas.ts";
import { NOT_IN_MOTO as CKO_NOT_IN_MOTO, motoPaymentType } from "../contracts/checkout/moto.ts";
import { check, unknownMembers } from "../contracts/checkout/schemas.ts";
import { type DialectSim, dialectMerchants, startDialectSim } from "../support/acquirer-sim-dialects.ts";
import { movableClock } from "../support/clock.ts";
import { SECRET } from "../support/merchants.ts";
import { backofficeClient, ctx, enrolOperator } from "../support/operators.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { RecordingProxy, type Recorded } from "../support/recording-proxy.ts";
import { useService } from "../support/service.ts";

/** Adyen's 3-D Secure 2 card that the stand-in sends to a challenge on a web sale. */
const ADYEN_CHALLENGE_CARD = "4917610000000000";
/** Checkout.com's card whose issuer demands 3-D Secure: declined 20154 without it, unless the payment is MOTO. */
const CKO_AUTHENTICATION_REQUIRED_CARD = "4500622868341387";
const WAIT = { timeoutMs: 120_000 };

let stub: PlatformStub | undefined;
let sim: DialectSim | undefined;
let proxy: RecordingProxy | undefined;
const clock = movableClock();

t.before(async () => {
  stub = await startPlatformStub({ secrets: { "m-adyen": SECRET, "m-cko": SECRET } });
  sim = await startDialectSim(t);
  proxy = await new RecordingProxy(sim.sim.url).start();
});
t.teardown(async () => {
  await proxy?.stop();
  await stub?.close();
});
const platform = () => stub as PlatformStub;
const wire = () => proxy as RecordingProxy;

/** Both merchants' accounts point at the proxy; their platform is the stub, which validates and is told. */
const svc = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100" }, () => ({
  now: clock.now,
  merchants: dialectMerchants(wire().url, { secret: SECRET, platform_url: platform().url, validation_url: `${platform().url}/api/validation` }),
}));

let session = "";
t.before(async () => {
  const op = await enrolOperator(svc(), backofficeClient(svc().engineUrl), clock, "moto-mo", "payouts");
  session = op.sessionToken;
});

/** One Virtual Terminal sale of `merchant`, by the operator, with a full customer. */
async function motoSale(merchantId: string, frontend: string, currency: string, card: string, requestId: string) {
  return backofficeClient(svc().engineUrl).takeMotoPayment({
    context: ctx(session),
    merchantId,
    frontend,
    amount: { amountMinor: 2500n, currency },
    customer: {
      pin: "cust-moto-7",
      email: "moto@example.com",
      firstName: "Mia",
      lastName: "Phone",
      country: "DE",
      address: "Unter den Linden 5",
      city: "Berlin",
      zip: "10117",
      phone: "4930123456",
    },
    card: { number: card, cvv: "737", expiry: "03/2030" },
    reason: "order by phone, call ref 4410",
    requestId,
  });
}

/** The one POST /payments the acquirer received for this sale (its reference is the trace_id). */
function paymentSent(t: Test, path: string, traceId: number): Recorded | undefined {
  const sent = wire()
    .sent("POST", path)
    .filter((r) => (r.json as Record<string, unknown> | undefined)?.reference === String(traceId));
  t.equal(sent.length, 1, `one ${path} for trace_id ${traceId}`);
  return sent[0];
}

/** The platform heard of the sale as of any: Validation before, the notification after, both signed. */
async function platformTold(t: Test, traceId: number): Promise<void> {
  const byTrace = (c: { body: unknown }) => (c.body as Record<string, unknown>).trace_id === traceId;
  const [validation] = await platform().waitFor("validation", byTrace, WAIT);
  t.equal((validation.body as Record<string, unknown>).created_by, "backoffice:moto-mo", "Validation names the operator");
  const [note] = await platform().waitFor("notification", byTrace, WAIT);
  t.equal(note.path, "/Notification", "the notification at {platform_url}/Notification");
  t.equal((note.body as Record<string, unknown>).transaction_status, "approved");
  t.ok(note.signatureValid, "signed as every callback");
}

t.test("Adyen: the body Adyen received is a valid PaymentRequest, shopperInteraction Moto, no 3-D Secure; approved", async (t) => {
  const r = await motoSale("m-adyen", "adyen-eur", "EUR", ADYEN_CHALLENGE_CARD, "moto-adyen-0001");
  const tx = r.transaction;
  t.equal(tx?.status, TransactionStatus.APPROVED, "approved with no challenge");
  t.equal(tx?.paymentProcessor, "adyen-eu");
  t.notOk(tx?.redirectUrl, "no 3-D Secure page");
  const sent = paymentSent(t, "/adyen/v71/payments", tx?.traceId ?? 0);
  const body = sent?.json as Record<string, any>;
  t.equal(sent?.status, 200, "the stand-in answered");
  const v = checkCheckout("PaymentRequest", body);
  t.ok(v.ok, "a valid PaymentRequest (Adyen Checkout API v71)", { errors: v.errors });
  const { value: moto, values } = motoInteraction();
  t.ok(moto && values.includes(moto), `the spec's value for mail and telephone orders: ${moto}`);
  t.equal(body.shopperInteraction, moto, "shopperInteraction is it");
  t.same(
    NOT_IN_MOTO.filter((m) => m in body),
    [],
    "no 3-D Secure request, browser data, web channel or recurring model",
  );
  t.match(body, { amount: { value: 2500, currency: "EUR" }, merchantAccount: "ShopEU", captureDelayHours: 0, shopperEmail: "moto@example.com" });
  t.equal(body.merchantOrderReference, "bo-moto-moto-adyen-0001", "the Virtual Terminal's order");
  await platformTold(t, tx?.traceId ?? 0);
});

t.test("Checkout.com: the body Checkout.com received is a valid PaymentRequest, payment_type MOTO, no 3ds; approved", async (t) => {
  const r = await motoSale("m-cko", "cko-usd", "USD", CKO_AUTHENTICATION_REQUIRED_CARD, "moto-cko-0001");
  const tx = r.transaction;
  t.equal(tx?.status, TransactionStatus.APPROVED, "approved with no authentication, as Checkout.com does a MOTO payment");
  t.equal(tx?.paymentProcessor, "cko-main");
  t.notOk(tx?.redirectUrl, "no 3-D Secure page");
  const sent = paymentSent(t, "/checkout/payments", tx?.traceId ?? 0);
  const body = sent?.json as Record<string, any>;
  t.equal(sent?.status, 201, "the stand-in answered: created");
  const v = check("PaymentRequest", body);
  t.ok(v.ok, "a valid PaymentRequest (Checkout.com's Unified Payments API)", { errors: v.errors });
  const card = check("03_PaymentRequestCardSource", body?.source);
  t.ok(card.ok, "its source a card source", { errors: card.errors });
  t.same(unknownMembers("PaymentRequest", body), [], "every member one the schema names");
  const { value: moto } = motoPaymentType();
  t.ok(moto, "the spec enumerates MOTO");
  t.equal(body.payment_type, moto, "payment_type is it");
  t.same(
    CKO_NOT_IN_MOTO.filter((m) => m in body),
    [],
    "no 3-D Secure, no success or failure URL, no stored card's payment",
  );
  t.match(body, { amount: 2500, currency: "USD", capture: true, customer: { email: "moto@example.com" }, metadata: { order_id: "bo-moto-moto-cko-0001" } });
  await platformTold(t, tx?.traceId ?? 0);
});
