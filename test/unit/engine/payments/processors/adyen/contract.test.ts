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
import { detailsBody, paymentBody, refundBody, type SaleRequest } from "../../../../../../engine/payments/processors/adyen/requests.ts";
import type { AdyenSettings } from "../../../../../../engine/payments/processors/adyen/settings.ts";
import { REFUND_STATUS_TABLE, RESULT_CODES } from "../../../../../../engine/payments/processors/adyen/transformers.ts";
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
