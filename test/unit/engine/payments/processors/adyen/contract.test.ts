/**
 * The adyen connector against Adyen's published OpenAPI specification
 * (test/contracts/adyen/, cut from Adyen/adyen-openapi): every request body
 * the connector builds validates against the operation's request schema, every
 * recorded answer (Adyen's documented examples, the Node library's mocks)
 * against the answer schema of its status, every recorded notification
 * against its event's schema, and the connector's tables list exactly the
 * values the spec enumerates.
 */
import { readdirSync, readFileSync } from "node:fs";
import t, { type Test } from "tap";
import {
  browserInfoOf,
  detailsBody,
  originOf,
  paymentBody,
  refundBody,
  type SaleRequest,
} from "../../../../../../engine/payments/processors/adyen/requests.ts";
import type { AdyenSettings } from "../../../../../../engine/payments/processors/adyen/settings.ts";
import { REFUND_STATUS_TABLE, RESULT_CODES } from "../../../../../../engine/payments/processors/adyen/transformers.ts";
import { motoInteraction, NOT_IN_MOTO } from "../../../../../contracts/adyen/moto.ts";
import { checkCheckout, checkNotification, checkoutSpec, schemaOf, type Validation } from "../../../../../contracts/adyen/schemas.ts";

const settings: AdyenSettings = { merchantAccount: "ShopEU", idempotencyScope: "ShopEU" };
const PATHS = { payments: "/payments", details: "/payments/details", refund: "/payments/{paymentPspReference}/refunds" } as const;

const full: SaleRequest = {
  traceId: 100245,
  amountMinor: 1050,
  currency: "EUR",
  card: { number: "4111111145551142", cvv: "737", expiry: "03/2030" },
  orderId: "order-7",
  returnUrl: "https://cashier.example/return/100245",
  customer: {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    phone: "+31201234567",
    address: "Simon Carmiggeltstraat 6-50",
    city: "Amsterdam",
    zip: "1011 DJ",
    country: "NL",
    state: "NH",
    dob: "1815-12-10",
    ip: "192.0.2.1",
  },
  browser: {
    userAgent: "Mozilla/5.0",
    acceptHeader: "text/html",
    language: "nl-NL",
    colorDepth: 24,
    screenHeight: 723,
    screenWidth: 1536,
    timeZoneOffset: 0,
    javaEnabled: false,
  },
};
const bare: SaleRequest = {
  traceId: 7,
  amountMinor: 1,
  currency: "JPY",
  card: { number: "2223000048410010", cvv: "", expiry: "12/2031" },
  returnUrl: "https://c.example/r",
};

t.test("every request body the connector builds validates against Adyen's request schema", async (t) => {
  const bodies: [what: string, path: string, body: unknown][] = [
    ["a sale with every shopper member and browserInfo", PATHS.payments, paymentBody(full, settings)],
    ["a bare sale (no customer, no CVC)", PATHS.payments, paymentBody(bare, settings)],
    ["a sale whose customer lacks the billing address members", PATHS.payments, paymentBody({ ...full, customer: { ...full.customer!, city: "" } }, settings)],
    ["a details call", PATHS.details, detailsBody("X6XtfGC3!Y...")],
    ["a refund", PATHS.refund, refundBody({ ...bare, traceId: 8, saleTransactionId: "JLCMPCQ8HXSKGK82" }, settings)],
  ];
  for (const [what, path, body] of bodies) {
    const name = schemaOf(path, "request");
    const v = checkCheckout(name, body);
    t.ok(v.ok, `${what}: valid ${name}`, { errors: v.errors });
  }
  t.equal(schemaOf(PATHS.payments, "request"), "PaymentRequest");
  t.equal(schemaOf(PATHS.details, "request"), "PaymentDetailsRequest");
  t.equal(schemaOf(PATHS.refund, "request"), "PaymentRefundRequest");
});

t.test("3-D Secure 2's browser data: channel Web, Cashier's origin, the full browserInfo or none", async (t) => {
  const body = paymentBody(full, settings) as Record<string, any>;
  t.equal(body.channel, "Web");
  t.equal(body.origin, "https://cashier.example", "the origin of Cashier's page the shopper leaves from");
  t.same(body.browserInfo, full.browser, "all eight members, as given");
  t.ok(checkCheckout("BrowserInfo", body.browserInfo).ok, "a valid BrowserInfo");
  // What the edge alone sees of a browser (its headers): v71 refuses it, so it is not sent.
  const headersOnly = { userAgent: "Mozilla/5.0", acceptHeader: "text/html" };
  t.notOk(checkCheckout("BrowserInfo", headersOnly).ok, "Adyen's schema refuses the headers alone");
  const partial = { ...full.browser!, colorDepth: 23 };
  t.notOk("browserInfo" in paymentBody({ ...full, browser: partial }, settings), "a colour depth Adyen does not accept: not sent");
  for (const [what, b] of [
    ["an empty user agent", { ...full.browser!, userAgent: " " }],
    ["a language that is not BCP 47", { ...full.browser!, language: "nl_NL!" }],
    ["a screen of 0", { ...full.browser!, screenWidth: 0 }],
    ["a time zone beyond -840", { ...full.browser!, timeZoneOffset: -900 }],
    ["a fractional height", { ...full.browser!, screenHeight: 723.5 }],
  ] as const) {
    t.equal(browserInfoOf(b), undefined, `${what}: not sent`);
  }
  t.same(
    browserInfoOf({ ...full.browser!, timeZoneOffset: -840, colorDepth: 48 }),
    { ...full.browser!, timeZoneOffset: -840, colorDepth: 48 },
    "the bounds pass",
  );
  t.notOk("browserInfo" in paymentBody(bare, settings), "none given: none sent");
  t.equal(originOf("https://pay.example:8443/3ds/7/mac/return"), "https://pay.example:8443", "a port is part of the origin");
  t.equal(originOf(`https://${"a".repeat(80)}.example/r`), undefined, "past Adyen's 80 characters: not sent");
  t.equal(originOf("javascript:alert(1)"), undefined);
  t.notOk(checkCheckout("PaymentRequest", { ...body, origin: `https://${"a".repeat(80)}.example` }).ok, "Adyen's schema holds origin to 80 characters");
});

t.test("a MOTO sale (the Virtual Terminal): a valid PaymentRequest, shopperInteraction Moto, no 3-D Secure", async (t) => {
  const { value: moto, values } = motoInteraction();
  t.ok(moto && values.includes(moto), `the spec enumerates ${moto} for mail and telephone orders`, { values });
  const web = paymentBody(full, settings);
  for (const member of ["channel", "authenticationData", "browserInfo", "origin"])
    t.ok(member in web, `the web sale sends ${member}: its absence below means something`);
  const cases: [what: string, req: SaleRequest][] = [
    ["a full customer, browser data and a return URL given", { ...full, moto: true }],
    ["no customer, no CVC", { ...bare, moto: true }],
    ["a customer with no billing address", { ...full, moto: true, customer: { ...full.customer!, address: "", city: "" }, browser: undefined }],
  ];
  for (const [what, req] of cases) {
    const body = paymentBody(req, settings) as Record<string, any>;
    const v = checkCheckout("PaymentRequest", body);
    t.ok(v.ok, `${what}: a valid PaymentRequest`, { errors: v.errors });
    t.equal(body.shopperInteraction, moto, `${what}: shopperInteraction is the spec's mail and telephone order value`);
    t.same(
      NOT_IN_MOTO.filter((m) => m in body),
      [],
      `${what}: no 3-D Secure request, browser data, web channel or recurring model`,
    );
    t.equal(body.returnUrl, req.returnUrl, `${what}: the returnUrl Adyen requires on every payment, sent and never used`);
    t.same(body.amount, { value: req.amountMinor, currency: req.currency }, `${what}: the amount in minor units`);
    t.equal(body.captureDelayHours, 0, `${what}: captured at once, as every sale`);
  }
  const withCustomer = paymentBody({ ...full, moto: true }, settings) as Record<string, any>;
  t.match(
    withCustomer,
    { shopperEmail: "ada@example.com", shopperName: { firstName: "Ada", lastName: "Lovelace" }, billingAddress: { city: "Amsterdam" } },
    "the customer's details still go, for Adyen's risk checks",
  );
  t.equal(withCustomer.shopperIP, "192.0.2.1");
  const noReturn = paymentBody({ ...bare, moto: true, returnUrl: undefined }, settings) as Record<string, any>;
  t.equal(noReturn.returnUrl, "", "no return URL at all: an empty one, since the schema requires the member");
  t.notOk(
    checkCheckout("PaymentRequest", { ...withCustomer, shopperInteraction: "MOTO" }).ok,
    "the schema refuses the value in another case: the check has teeth",
  );
});

t.test("the schema refuses what Adyen would refuse: the validation has teeth", async (t) => {
  const body = paymentBody(bare, settings) as Record<string, any>;
  t.notOk(checkCheckout("PaymentRequest", { ...body, returnUrl: undefined }).ok, "returnUrl is required");
  t.notOk(checkCheckout("PaymentRequest", { ...body, amount: { value: "1", currency: "JPY" } }).ok, "the amount is an integer");
  t.notOk(checkCheckout("PaymentRequest", { ...body, merchantAcount: "typo" }).ok, "no member Adyen does not know");
  t.notOk(checkCheckout("PaymentRequest", { ...body, channel: "web" }).ok, "channel is one of Adyen's values");
});

/**
 * Where a recorded example departs from the published schema, and why. Each
 * departure is asserted to be exactly that, so a newer spec or fixture that
 * closes it shows.
 */
const DEPARTURES: Record<string, RegExp> = {
  // The Node library's mock wraps each fraud check as { FraudCheckResult: {...} }, an older API's shape; v71 lists them bare.
  "payments-authorised-node": /^\/fraudResult\/results\/\d+: /,
  // The Node library's own test of free-form additionalData (" NAME1 ", "NAME2" ...), not Adyen's format.
  "authorisation-true-node": /additionalData: must NOT have additional properties/,
  // The generic NotificationRequest's additionalData lists neither hmacSignature nor paymentMethodVariant, though Adyen sends both.
  "offer-closed-docs": /additionalData: must NOT have additional properties \{"additionalProperty":"(hmacSignature|paymentMethodVariant)"\}/,
};

/** Asserts that `v` is valid, or departs from the schema exactly where DEPARTURES says. */
function conforms(t: Test, name: string, what: string, v: Validation): void {
  const departure = DEPARTURES[name];
  if (!departure) {
    t.ok(v.ok, `${name}: valid ${what}`, { errors: v.errors });
    return;
  }
  t.notOk(v.ok, `${name}: departs from ${what} as noted`);
  t.ok(
    v.errors.every((e) => departure.test(e)),
    `${name}: only where noted`,
    { errors: v.errors },
  );
}

interface RecordedAnswer {
  source: string;
  flow: keyof typeof PATHS;
  http: number;
  body: unknown;
}

const answersDir = new URL("../../../../../fixtures/adyen/answers/", import.meta.url);
const answers: [name: string, RecordedAnswer][] = readdirSync(answersDir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(new URL(f, answersDir), "utf8"))]);

t.test("every recorded answer validates against the answer schema of its status", async (t) => {
  t.ok(answers.length >= 15, "the recorded answers are all read");
  for (const [name, a] of answers) {
    t.match(a.source, /adyen/i, `${name}: its source is named`);
    const schema = schemaOf(PATHS[a.flow], a.http);
    conforms(t, name, `${schema} (HTTP ${a.http})`, checkCheckout(schema, a.body));
  }
});

interface RecordedNotification {
  source: string;
  event: string;
  body: any;
}

const notificationsDir = new URL("../../../../../fixtures/adyen/notifications/", import.meta.url);
const notifications: [name: string, RecordedNotification][] = readdirSync(notificationsDir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(new URL(f, notificationsDir), "utf8"))]);

t.test("every recorded notification validates against its event's schema", async (t) => {
  t.ok(notifications.length >= 13, "the recorded notifications are all read");
  for (const [name, n] of notifications) {
    conforms(t, name, `${n.event} notification`, checkNotification(n.event, n.body));
  }
});

t.test("the connector's tables enumerate exactly the spec's values", async (t) => {
  const schemas = checkoutSpec.components.schemas;
  t.same([...RESULT_CODES].sort(), [...schemas.PaymentResponse.properties.resultCode.enum].sort(), "PaymentResponse.resultCode");
  t.same([...RESULT_CODES].sort(), [...schemas.PaymentDetailsResponse.properties.resultCode.enum].sort(), "PaymentDetailsResponse.resultCode");
  t.same(Object.keys(REFUND_STATUS_TABLE).sort(), [...schemas.PaymentRefundResponse.properties.status.enum].sort(), "PaymentRefundResponse.status");
  const idem = checkoutSpec.components.parameters["Idempotency-Key"];
  t.equal(idem.in, "header", "writes carry an Idempotency-Key header");
  t.match(idem.description, /maximum of 64 characters/, "of at most 64 characters");
  t.same(checkoutSpec.components.securitySchemes.ApiKeyAuth, { type: "apiKey", name: "X-API-Key", in: "header" }, "authenticated by X-API-Key");
});
