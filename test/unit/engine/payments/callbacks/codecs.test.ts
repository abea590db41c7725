/**
 * The callback codecs, checked as a platform sees their output (README
 * "Callbacks to the platform", CONTRACT sections 2 and 6): exact JSON text of
 * the PascalCase bodies, the snake_case bodies' members and types, and every
 * signature recomputed here with node:crypto, not with the code under test.
 */
import t from "tap";
import { canonical, hmacHex, signatureOf } from "../../../../support/signer.ts";
import { anAttempt } from "../../../../support/builders.ts";
import type { Attempt } from "../../../../../engine/shared/transaction.ts";
import type { SendResult } from "../../../../../engine/payments/ports/callbacks.ts";
import { hmacKey } from "../../../../../engine/shared/hmac.ts";
import { Decimal, jsonText } from "../../../../../engine/payments/callbacks/json-text.ts";
import { updatePayoutBody } from "../../../../../engine/payments/callbacks/update-payout-codec.ts";
import { recordFailedDepositBody } from "../../../../../engine/payments/callbacks/record-failed-deposit-codec.ts";
import { notificationBody } from "../../../../../engine/payments/callbacks/notification-codec.ts";
import { readValidationReply, validationRequestBody } from "../../../../../engine/payments/callbacks/validation-codec.ts";
import { signatureHeader } from "../../../../../engine/payments/callbacks/signature-header.ts";

const SECRET = "demo-secret-change-me";
const KEY = hmacKey(SECRET);

// CONTRACT section 2 as a platform writes it (test/support/signer.ts), independent of engine/security.
const hmac384 = hmacHex;
const sign = (secret: string, obj: Record<string, unknown>) => signatureOf(obj, secret);

t.test("our own signer reproduces the CONTRACT section 2 test vector", async (t) => {
  const body = {
    amount: 1050,
    card_exp: "12/2030",
    card_number: "4111111111111111",
    country: "GB",
    currency: "USD",
    cvv: "123",
    email: "jane@example.com",
    first_name: "Jane",
    frontend: "demo-usd",
    last_name: "Doe",
    merchant_id: "m-demo",
    order_id: "ord-1001",
    pin: "cust-42",
    return_url: "https://merchant.example/return",
    state: null,
    timestamp: 1795000000,
    transaction_type: "sale",
    version: "1.0",
    zip: "SW1A1AA",
  };
  t.equal(sign(SECRET, body), "bd92008aea766918734bf8b6fadab4bddbf2068a983a6d77b09c4de353321c19ed319b1555ab30a08e6680c361f15635");
});

// ---- Attempts (test/support/builders.ts), with the members the codecs read ----

const T0 = new Date("2026-11-18T10:00:00Z");

/** An approved sale: every member a codec reads is written out; the rest are the builder's. */
function attempt(over: Partial<Attempt> = {}): Attempt {
  return anAttempt({
    traceId: 1044,
    orderId: "ord-1001",
    merchantId: "m-demo",
    type: "sale",
    attempt: 1,
    status: "approved",
    payoutLetter: null,
    amountMinor: 1050,
    currency: "USD",
    processor: "sim-a",
    transactionId: "sim-a-a1795000000000-000001",
    errorCode: null,
    errorDetails: null,
    redirectUrl: null,
    cardMasked: "411111******1111",
    cardBrand: "VISA",
    cardExpiry: "12/2030",
    pin: "cust-42",
    frontend: "demo-usd",
    requesterIp: "203.0.113.7",
    processorCode: null,
    createdBy: "api",
    scOrderId: null,
    udef1: null,
    udef2: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });
}

/** The README's failed deposit: sim-a declined card 4000000000000002 with "05 Do not honour". */
const declinedN = (over: Partial<Attempt> = {}) =>
  attempt({
    status: "declined",
    depositState: "N",
    transactionId: "sim-a-d1795000000000-aa01ff",
    errorCode: 5,
    errorDetails: "05 Do not honour",
    processorCode: "05",
    cardMasked: "400000******0002",
    ...over,
  });

/** Processor unavailable: declined, deposit state E, 9001, no transaction id. */
const declinedE = (over: Partial<Attempt> = {}) =>
  attempt({
    status: "declined",
    depositState: "E",
    transactionId: null,
    errorCode: 9001,
    errorDetails: "Processor unavailable",
    processorCode: null,
    cardMasked: "400000******0119",
    ...over,
  });

const payout = (over: Partial<Attempt> = {}) =>
  attempt({
    type: "payout",
    traceId: 1050,
    orderId: "po-77",
    status: "approved",
    payoutLetter: "Y",
    amountMinor: 2500,
    transactionId: "sim-a-a1795000000000-51c0de",
    ...over,
  });

// ---- json-text ----

t.test("jsonText: Decimal money literals and plain JSON values", async (t) => {
  const rows: [name: string, obj: Parameters<typeof jsonText>[0], want: string][] = [
    ["USD 1050 -> 10.50", { Amount: new Decimal(1050, "USD") }, '{"Amount":10.50}'],
    ["JPY 1000 -> 1000", { Amount: new Decimal(1000, "JPY") }, '{"Amount":1000}'],
    ["BHD 5000 -> 5.000", { Amount: new Decimal(5000, "BHD") }, '{"Amount":5.000}'],
    ["0 USD -> 0.00", { Fee: new Decimal(0, "USD") }, '{"Fee":0.00}'],
    ["0 JPY -> 0", { Fee: new Decimal(0, "JPY") }, '{"Fee":0}'],
    ["0 BHD -> 0.000", { Fee: new Decimal(0, "BHD") }, '{"Fee":0.000}'],
    ["USD 5 -> 0.05", { Amount: new Decimal(5, "USD") }, '{"Amount":0.05}'],
    ["USD 12345678901234 minor, exactly", { Amount: new Decimal(12345678901234, "USD") }, '{"Amount":123456789012.34}'],
    ["JPY 12345678901234, exactly", { Amount: new Decimal(12345678901234, "JPY") }, '{"Amount":12345678901234}'],
    ["BHD 12345678901234 minor, exactly", { Amount: new Decimal(12345678901234, "BHD") }, '{"Amount":12345678901.234}'],
    ["bigint beyond 2^53", { Amount: new Decimal(9007199254740993n, "USD") }, '{"Amount":90071992547409.93}'],
    ["undefined members dropped", { A: "x", B: undefined, C: 1 }, '{"A":"x","C":1}'],
    ["all undefined", { A: undefined }, "{}"],
    ["empty", {}, "{}"],
    ["null kept", { A: null }, '{"A":null}'],
    ["booleans and numbers", { T: true, F: false, N: 42, M: -7 }, '{"T":true,"F":false,"N":42,"M":-7}'],
    ["order as given", { PIN: "p", SiteID: 7, FrontEndName: "f", Amount: new Decimal(100, "EUR") }, '{"PIN":"p","SiteID":7,"FrontEndName":"f","Amount":1.00}'],
    ["quotes and backslashes escaped", { S: 'say "hi" \\ bye' }, '{"S":"say \\"hi\\" \\\\ bye"}'],
    ["control characters escaped", { S: "a\nb\tc\u0001" }, '{"S":"a\\nb\\tc\\u0001"}'],
    ["non-ASCII kept as UTF-8 text", { S: "Zoë €" }, '{"S":"Zoë €"}'],
    ["names escaped too", { 'a"b': 1 }, '{"a\\"b":1}'],
  ];
  for (const [name, obj, want] of rows) {
    const text = jsonText(obj);
    t.equal(text, want, name);
    t.doesNotThrow(() => JSON.parse(text), `${name}: valid JSON`);
  }
  t.same(JSON.parse(jsonText({ S: 'x"\\\n\u2028</script>' })), { S: 'x"\\\n\u2028</script>' }, "a tricky string round-trips");
  t.equal(new Decimal(1050, "USD").literal, "10.50", "Decimal.literal");
});

// ---- UpdatePayout (seed 2.5) ----

t.test("updatePayoutBody: exact text, member order of seed 2.5", async (t) => {
  const rows: [name: string, a: Attempt, siteId: number | null, by: string, want: string][] = [
    [
      "the README example",
      payout(),
      7,
      "system",
      '{"PIN":"cust-42","SiteID":7,"FrontEndName":"demo-usd","TraceID":1050,"ExtPayoutID":"po-77","Status":"Y","PP":"sim-a","TransactionID":"sim-a-a1795000000000-51c0de","UpdatedBy":"system","Amount":25.00,"Currency":"USD","Fee":0.00}',
    ],
    [
      'SiteID omitted when null; TransactionID "" before the processor gave one',
      payout({ status: "pending", payoutLetter: "A", transactionId: null }),
      null,
      "system",
      '{"PIN":"cust-42","FrontEndName":"demo-usd","TraceID":1050,"ExtPayoutID":"po-77","Status":"A","PP":"sim-a","TransactionID":"","UpdatedBy":"system","Amount":25.00,"Currency":"USD","Fee":0.00}',
    ],
    [
      "an operator's rejection, JPY",
      payout({ status: "declined", payoutLetter: "J", transactionId: null, amountMinor: 1000, currency: "JPY", errorCode: 9007 }),
      7,
      "operator:alice",
      '{"PIN":"cust-42","SiteID":7,"FrontEndName":"demo-usd","TraceID":1050,"ExtPayoutID":"po-77","Status":"J","PP":"sim-a","TransactionID":"","UpdatedBy":"operator:alice","Amount":1000,"Currency":"JPY","Fee":0}',
    ],
    [
      "cancelled, BHD",
      payout({ status: "cancelled", payoutLetter: "C", transactionId: null, amountMinor: 5000, currency: "BHD" }),
      12,
      "operator:bob",
      '{"PIN":"cust-42","SiteID":12,"FrontEndName":"demo-usd","TraceID":1050,"ExtPayoutID":"po-77","Status":"C","PP":"sim-a","TransactionID":"","UpdatedBy":"operator:bob","Amount":5.000,"Currency":"BHD","Fee":0.000}',
    ],
    [
      "in progress, a large amount exactly",
      payout({ status: "pending", payoutLetter: "P", amountMinor: 12345678901234, processor: "sim-b", transactionId: null }),
      7,
      "system",
      '{"PIN":"cust-42","SiteID":7,"FrontEndName":"demo-usd","TraceID":1050,"ExtPayoutID":"po-77","Status":"P","PP":"sim-b","TransactionID":"","UpdatedBy":"system","Amount":123456789012.34,"Currency":"USD","Fee":0.00}',
    ],
    [
      "strings escaped",
      payout({ pin: 'cust "42"', orderId: "po\\77" }),
      7,
      "operator:o'neil",
      '{"PIN":"cust \\"42\\"","SiteID":7,"FrontEndName":"demo-usd","TraceID":1050,"ExtPayoutID":"po\\\\77","Status":"Y","PP":"sim-a","TransactionID":"sim-a-a1795000000000-51c0de","UpdatedBy":"operator:o\'neil","Amount":25.00,"Currency":"USD","Fee":0.00}',
    ],
  ];
  for (const [name, a, siteId, by, want] of rows) {
    const text = updatePayoutBody(a, siteId, by);
    t.equal(text, want, name);
    t.notOk("signature" in JSON.parse(text), `${name}: no signature member (it goes in the header)`);
  }
});

// ---- RecordFailedDeposit (seed 2.6) ----

t.test("recordFailedDepositBody: exact text, member order of seed 2.6", async (t) => {
  const rows: [name: string, a: Attempt, siteId: number | null, want: string][] = [
    [
      "the README example (N, 05 Do not honour)",
      declinedN(),
      7,
      '{"PIN":"cust-42","SiteID":7,"FrontEndName":"demo-usd","Currency":"USD","TraceID":1044,"PP":"CreditCard","PaymentMethod":"VISA","Amount":10.50,"TransactionID":"sim-a-d1795000000000-aa01ff","errorCode":"05","errorDesc":"Do not honour","CardNumber":"400000******0002","CardExp":"12/2030","CardType":"VISA","PSPCurrency":"USD","PSPAmount":10.50,"IPAddress":"203.0.113.7","CreatedBy":"api","EditedBy":"system"}',
    ],
    [
      "N, 51 Insufficient funds, SiteID omitted when null",
      declinedN({ errorCode: 51, errorDetails: "51 Insufficient funds", processorCode: "51", cardMasked: "400000******9995" }),
      null,
      '{"PIN":"cust-42","FrontEndName":"demo-usd","Currency":"USD","TraceID":1044,"PP":"CreditCard","PaymentMethod":"VISA","Amount":10.50,"TransactionID":"sim-a-d1795000000000-aa01ff","errorCode":"51","errorDesc":"Insufficient funds","CardNumber":"400000******9995","CardExp":"12/2030","CardType":"VISA","PSPCurrency":"USD","PSPAmount":10.50,"IPAddress":"203.0.113.7","CreatedBy":"api","EditedBy":"system"}',
    ],
    [
      'E: errorCode 9001, TransactionID ""',
      declinedE(),
      7,
      '{"PIN":"cust-42","SiteID":7,"FrontEndName":"demo-usd","Currency":"USD","TraceID":1044,"PP":"CreditCard","PaymentMethod":"VISA","Amount":10.50,"TransactionID":"","errorCode":"9001","errorDesc":"Processor unavailable","CardNumber":"400000******0119","CardExp":"12/2030","CardType":"VISA","PSPCurrency":"USD","PSPAmount":10.50,"IPAddress":"203.0.113.7","CreatedBy":"api","EditedBy":"system"}',
    ],
    [
      "JPY 1000 -> 1000, a Mastercard, cascade's last attempt on sim-b with code 91",
      declinedN({
        traceId: 1045,
        attempt: 2,
        processor: "sim-b",
        amountMinor: 1000,
        currency: "JPY",
        errorCode: 91,
        errorDetails: "91 Issuer unavailable, try another route",
        processorCode: "91",
        cardBrand: "MASTERCARD",
        cardMasked: "400000******0341",
        transactionId: "sim-b-d1",
      }),
      7,
      '{"PIN":"cust-42","SiteID":7,"FrontEndName":"demo-usd","Currency":"JPY","TraceID":1045,"PP":"CreditCard","PaymentMethod":"MASTERCARD","Amount":1000,"TransactionID":"sim-b-d1","errorCode":"91","errorDesc":"Issuer unavailable, try another route","CardNumber":"400000******0341","CardExp":"12/2030","CardType":"MASTERCARD","PSPCurrency":"JPY","PSPAmount":1000,"IPAddress":"203.0.113.7","CreatedBy":"api","EditedBy":"system"}',
    ],
    [
      "BHD 5000 -> 5.000, a non-numeric processor code (9006)",
      declinedN({ amountMinor: 5000, currency: "BHD", errorCode: 9006, errorDetails: "R1 Refer to issuer", processorCode: "R1" }),
      7,
      '{"PIN":"cust-42","SiteID":7,"FrontEndName":"demo-usd","Currency":"BHD","TraceID":1044,"PP":"CreditCard","PaymentMethod":"VISA","Amount":5.000,"TransactionID":"sim-a-d1795000000000-aa01ff","errorCode":"R1","errorDesc":"Refer to issuer","CardNumber":"400000******0002","CardExp":"12/2030","CardType":"VISA","PSPCurrency":"BHD","PSPAmount":5.000,"IPAddress":"203.0.113.7","CreatedBy":"api","EditedBy":"system"}',
    ],
    [
      "a large amount exactly, SiteID 0 kept",
      declinedN({ amountMinor: 12345678901234 }),
      0,
      '{"PIN":"cust-42","SiteID":0,"FrontEndName":"demo-usd","Currency":"USD","TraceID":1044,"PP":"CreditCard","PaymentMethod":"VISA","Amount":123456789012.34,"TransactionID":"sim-a-d1795000000000-aa01ff","errorCode":"05","errorDesc":"Do not honour","CardNumber":"400000******0002","CardExp":"12/2030","CardType":"VISA","PSPCurrency":"USD","PSPAmount":123456789012.34,"IPAddress":"203.0.113.7","CreatedBy":"api","EditedBy":"system"}',
    ],
  ];
  for (const [name, a, siteId, want] of rows) {
    const text = recordFailedDepositBody(a, siteId);
    t.equal(text, want, name);
    const parsed = JSON.parse(text) as Record<string, unknown>;
    t.match(parsed.CardNumber, /^\d{6}\*+\d{4}$/, `${name}: CardNumber masked (first 6, last 4)`);
    t.equal(typeof parsed.errorCode, "string", `${name}: errorCode is a string`);
    t.notOk("signature" in parsed, `${name}: no signature member`);
  }
});

t.test("recordFailedDepositBody: errorCode/errorDesc from other error shapes", async (t) => {
  const rows: [name: string, a: Attempt, code: string, desc: string][] = [
    [
      "3-D Secure failed (9004), no processor code",
      declinedN({ errorCode: 9004, errorDetails: "3-D Secure authentication failed", processorCode: null }),
      "9004",
      "3-D Secure authentication failed",
    ],
    [
      "challenge expired (9005)",
      declinedN({ errorCode: 9005, errorDetails: "3-D Secure challenge expired", processorCode: null }),
      "9005",
      "3-D Secure challenge expired",
    ],
    ["processor code without the code prefix in details", declinedN({ errorDetails: "Do not honour", processorCode: "05" }), "05", "Do not honour"],
    ["escaped description", declinedN({ errorDetails: '05 Card "blocked"\nby issuer', processorCode: "05" }), "05", 'Card "blocked"\nby issuer'],
  ];
  for (const [name, a, code, desc] of rows) {
    const body = JSON.parse(recordFailedDepositBody(a, 7)) as Record<string, unknown>;
    t.equal(body.errorCode, code, `${name}: errorCode`);
    t.equal(body.errorDesc, desc, `${name}: errorDesc`);
  }
});

// ---- The deposit status notification ----

const NOTIFICATION_ORDER = [
  "status",
  "description",
  "redirect_url",
  "trace_id",
  "transaction_id",
  "transaction_status",
  "error_code",
  "error_details",
  "payment_processor",
  "version",
  "order_id",
  "transaction_type",
  "amount",
  "currency",
  "signature",
];

t.test("notificationBody: the README example", async (t) => {
  const a = attempt({ traceId: 1043, attempt: 2, processor: "sim-b", transactionId: "sim-b-a1795000003000-9f2c4e", status: "approved" });
  const text = notificationBody(a, KEY);
  const body = JSON.parse(text) as Record<string, unknown>;
  t.same(Object.keys(body), NOTIFICATION_ORDER, "members in the README's order, signature last");
  const { signature, ...rest } = body;
  t.same(rest, {
    status: 0,
    description: "Approved",
    redirect_url: null,
    trace_id: 1043,
    transaction_id: "sim-b-a1795000003000-9f2c4e",
    transaction_status: "approved",
    error_code: null,
    error_details: null,
    payment_processor: "sim-b",
    version: "1.0",
    order_id: "ord-1001",
    transaction_type: "sale",
    amount: 1050,
    currency: "USD",
  });
  t.match(signature, /^[0-9a-f]{96}$/, "96 lowercase hex");
  t.equal(signature, sign(SECRET, body), "signature over the canonical string, with our own HMAC");
  t.equal(
    canonical(body),
    "amount=1050&currency=USD&description=Approved&order_id=ord-1001&payment_processor=sim-b&status=0&trace_id=1043&transaction_id=sim-b-a1795000003000-9f2c4e&transaction_status=approved&transaction_type=sale&version=1.0",
    "canonical string as a platform computes it",
  );
  t.not(signature, hmac384("other-secret", canonical(body)), "the merchant's secret matters");
});

t.test("notificationBody: amount in the wire unit, the other members per case", async (t) => {
  const rows: [name: string, a: Attempt, want: Record<string, unknown>][] = [
    ["JPY 1000 minor -> 1000", attempt({ amountMinor: 1000, currency: "JPY" }), { amount: 1000, currency: "JPY" }],
    ["USD 1050 -> 1050", attempt({ amountMinor: 1050, currency: "USD" }), { amount: 1050, currency: "USD" }],
    ["BHD 5000 minor -> 5", attempt({ amountMinor: 5000, currency: "BHD" }), { amount: 5, currency: "BHD" }],
    ["EUR 99 -> 99", attempt({ amountMinor: 99, currency: "EUR" }), { amount: 99, currency: "EUR" }],
    ["KRW 50000 -> 50000", attempt({ amountMinor: 50000, currency: "KRW" }), { amount: 50000, currency: "KRW" }],
    [
      "declined N: error_code and error_details",
      declinedN(),
      { transaction_status: "declined", error_code: 5, error_details: "05 Do not honour", transaction_id: "sim-a-d1795000000000-aa01ff", redirect_url: null },
    ],
    [
      'declined E: transaction_id "", 9001',
      declinedE(),
      { transaction_status: "declined", error_code: 9001, error_details: "Processor unavailable", transaction_id: "" },
    ],
    [
      "pending_async: redirect_url",
      attempt({ status: "pending_async", transactionId: "sim-a-c1", redirectUrl: "https://cashier.example/3ds/1044/abc" }),
      { transaction_status: "pending_async", redirect_url: "https://cashier.example/3ds/1044/abc" },
    ],
    [
      "declined_retry (cascade)",
      declinedN({ status: "declined_retry", depositState: null, errorCode: 91, errorDetails: "91 Issuer unavailable, try another route", processorCode: "91" }),
      { transaction_status: "declined_retry", error_code: 91 },
    ],
    [
      "payout decision: pending (A)",
      payout({ status: "pending", payoutLetter: "A", transactionId: null }),
      { transaction_type: "payout", transaction_status: "pending", order_id: "po-77", amount: 2500, transaction_id: "" },
    ],
    [
      "payout rejected (J)",
      payout({ status: "declined", payoutLetter: "J", transactionId: null, errorCode: 9007, errorDetails: "rejected by operator" }),
      { transaction_type: "payout", transaction_status: "declined", error_code: 9007 },
    ],
    [
      "refund approved",
      attempt({ type: "refund", orderId: "rf-1", amountMinor: 500, referenceTraceId: 1001 }),
      { transaction_type: "refund", order_id: "rf-1", amount: 500 },
    ],
  ];
  for (const [name, a, want] of rows) {
    const body = JSON.parse(notificationBody(a, KEY)) as Record<string, unknown>;
    t.same(Object.keys(body), NOTIFICATION_ORDER, `${name}: members`);
    t.match(body, want, name);
    t.equal(body.status, 0, `${name}: status 0`);
    t.equal(body.version, "1.0", `${name}: version "1.0"`);
    t.equal(typeof body.description, "string", `${name}: description a string`);
    t.ok(Number.isInteger(body.amount), `${name}: amount an integer`);
    t.equal(body.signature, sign(SECRET, body), `${name}: signature verifies`);
    for (const [k, v] of Object.entries(body)) t.not(typeof v === "object" && v !== null, true, `${name}: ${k} is a scalar`);
  }
});

// ---- Validation ----

const VALIDATION_MEMBERS = [
  "transaction_type",
  "transaction_status",
  "transaction_id",
  "trace_id",
  "order_id",
  "frontend",
  "pin",
  "amount",
  "currency",
  "payment_method",
  "created_by",
  "auth_token",
  "merchant_id",
  "version",
  "timestamp",
  "signature",
];
const TOKEN = "Zq3xY0aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789_";

t.test("validationRequestBody: members, types and signature", async (t) => {
  const rows: [name: string, a: Attempt, want: Record<string, unknown>][] = [
    [
      "a sale (the README example)",
      attempt({ traceId: 1042, status: "pending", transactionId: null }),
      {
        transaction_type: "sale",
        transaction_status: "pending",
        transaction_id: null,
        trace_id: 1042,
        order_id: "ord-1001",
        frontend: "demo-usd",
        pin: "cust-42",
        amount: 1050,
        currency: "USD",
        payment_method: "CreditCard",
        created_by: "api",
        auth_token: TOKEN,
        merchant_id: "m-demo",
        version: "1.0",
        timestamp: "1795000000",
      },
    ],
    [
      "a payout: requested",
      payout({ traceId: 1051, status: "requested", payoutLetter: null, transactionId: null }),
      {
        transaction_type: "payout",
        transaction_status: "requested",
        transaction_id: null,
        trace_id: 1051,
        order_id: "po-77",
        frontend: "demo-usd",
        pin: "cust-42",
        amount: 2500,
        currency: "USD",
        payment_method: "CreditCard",
        created_by: "api",
        auth_token: TOKEN,
        merchant_id: "m-demo",
        version: "1.0",
        timestamp: "1795000000",
      },
    ],
    [
      "JPY 1000 minor -> 1000",
      attempt({ status: "pending", transactionId: null, amountMinor: 1000, currency: "JPY" }),
      {
        transaction_type: "sale",
        transaction_status: "pending",
        transaction_id: null,
        trace_id: 1044,
        order_id: "ord-1001",
        frontend: "demo-usd",
        pin: "cust-42",
        amount: 1000,
        currency: "JPY",
        payment_method: "CreditCard",
        created_by: "api",
        auth_token: TOKEN,
        merchant_id: "m-demo",
        version: "1.0",
        timestamp: "1795000000",
      },
    ],
    [
      // Seed 2.3 and 8: for Validation only JPY, CLP, KRW and VND go unconverted; BHD 5.000 is 500 cents.
      "BHD 5000 minor -> 500 (cents, Validation's own rule)",
      attempt({ status: "pending", transactionId: null, amountMinor: 5000, currency: "BHD" }),
      {
        transaction_type: "sale",
        transaction_status: "pending",
        transaction_id: null,
        trace_id: 1044,
        order_id: "ord-1001",
        frontend: "demo-usd",
        pin: "cust-42",
        amount: 500,
        currency: "BHD",
        payment_method: "CreditCard",
        created_by: "api",
        auth_token: TOKEN,
        merchant_id: "m-demo",
        version: "1.0",
        timestamp: "1795000000",
      },
    ],
  ];
  for (const [name, a, want] of rows) {
    const body = JSON.parse(validationRequestBody(a, TOKEN, 1795000000, KEY)) as Record<string, unknown>;
    t.same(Object.keys(body), VALIDATION_MEMBERS, `${name}: exactly these members, in the README's order`);
    const { signature, ...rest } = body;
    t.same(rest, want, `${name}: values`);
    t.equal(typeof body.version, "string", `${name}: version a string`);
    t.equal(typeof body.timestamp, "string", `${name}: timestamp a string`);
    t.ok(Number.isInteger(body.amount), `${name}: amount an integer`);
    t.ok(Number.isInteger(body.trace_id), `${name}: trace_id an integer`);
    t.equal(body.transaction_id, null, `${name}: transaction_id null`);
    t.match(signature, /^[0-9a-f]{96}$/, `${name}: 96 lowercase hex`);
    t.equal(signature, sign(SECRET, body), `${name}: signature verifies with our own canonical string`);
    t.notMatch(canonical(body), /transaction_id=/, `${name}: null transaction_id is not signed`);
  }
});

const ok = (body: string, httpStatus = 200): SendResult => ({ httpStatus, body, error: "", refusedAddress: false, durationMs: 20 });
const signed = (members: Record<string, unknown>, secret = SECRET) => JSON.stringify({ ...members, signature: sign(secret, members) });

t.test("readValidationReply: usable replies", async (t) => {
  const rows: [name: string, r: SendResult, status: number, description: string][] = [
    ["signed status 0", ok(signed({ status: 0, description: "ok" })), 0, "ok"],
    ["timestamp and version signed too", ok(signed({ status: 0, description: "ok", timestamp: "1795000001", version: "1.0" })), 0, "ok"],
    ["numeric timestamp signed", ok(signed({ status: 0, description: "ok", timestamp: 1795000001 })), 0, "ok"],
    ["a rejection is usable", ok(signed({ status: 3, description: "deposit count exceeded" })), 3, "deposit count exceeded"],
    ["a negative status is usable (it rejects)", ok(signed({ status: -1, description: "internal error" })), -1, "internal error"],
    ["null member dropped from the canonical string", ok(signed({ status: 0, description: "ok", extra: null })), 0, "ok"],
    ["no description", ok(signed({ status: 0 })), 0, ""],
    ["boolean member", ok(signed({ status: 0, description: "ok", vip: true })), 0, "ok"],
    ["HTTP 201", ok(signed({ status: 0, description: "ok" }), 201), 0, "ok"],
    [
      "uppercase-hex signature accepted",
      ok(JSON.stringify({ status: 0, description: "ok", signature: sign(SECRET, { status: 0, description: "ok" }).toUpperCase() })),
      0,
      "ok",
    ],
    [
      "members in any order",
      ok(JSON.stringify({ signature: sign(SECRET, { status: 0, description: "ok", version: "1.0" }), version: "1.0", description: "ok", status: 0 })),
      0,
      "ok",
    ],
  ];
  for (const [name, r, status, description] of rows) {
    t.same(readValidationReply(r, KEY), { usable: true, status, description }, name);
  }
});

t.test("readValidationReply: unusable replies, with a reason naming the cause", async (t) => {
  const good = { status: 0, description: "ok" };
  const rows: [name: string, r: SendResult, reason: RegExp][] = [
    ["missing signature", ok(JSON.stringify(good)), /not signed|signature/],
    ["null signature", ok(JSON.stringify({ ...good, signature: null })), /not signed|signature/],
    ["empty signature", ok(JSON.stringify({ ...good, signature: "" })), /not signed|signature/],
    ["numeric signature", ok(JSON.stringify({ ...good, signature: 12 })), /not signed|signature/],
    ["wrong secret", ok(signed(good, "other-secret")), /signature is wrong/],
    [
      "signature of other members",
      ok(JSON.stringify({ status: 0, description: "ok", signature: sign(SECRET, { status: 1, description: "ok" }) })),
      /signature is wrong/,
    ],
    ["timestamp added after signing", ok(JSON.stringify({ ...good, timestamp: "1795000001", signature: sign(SECRET, good) })), /signature is wrong/],
    ["truncated signature", ok(JSON.stringify({ ...good, signature: sign(SECRET, good).slice(0, 64) })), /signature is wrong/],
    // Signed over the scalar members, as a lenient platform might: still unusable (CONTRACT 2: an object member makes the body invalid).
    ["nested object member", ok(JSON.stringify({ ...good, extra: { a: 1 }, signature: sign(SECRET, good) })), /extra/],
    ["nested array member", ok(JSON.stringify({ ...good, list: [1, 2], signature: "0".repeat(96) })), /list/],
    ["array body", ok(JSON.stringify([good])), /JSON object/],
    ["JSON string body", ok('"ok"'), /JSON object/],
    ["JSON null body", ok("null"), /JSON object/],
    // One member twice: JSON.parse keeps the last, the platform may have meant the first (its refusal, 7).
    ["status twice, signed over the last", ok(`{"status":7,"description":"ok","status":0,"signature":"${sign(SECRET, good)}"}`), /naming status twice/],
    ["non-JSON", ok("OK"), /not JSON/],
    ["empty body", ok(""), /not JSON/],
    ["no status", ok(signed({ description: "ok" })), /status/],
    ["string status", ok(signed({ status: "0", description: "ok" })), /status/],
    ["float status", ok(signed({ status: 0.5, description: "ok" })), /status/],
    ["HTTP 500", ok(signed(good), 500), /HTTP 500/],
    ["HTTP 404", ok(signed(good), 404), /HTTP 404/],
    ["HTTP 302", ok(signed(good), 302), /HTTP 302/],
    ["transport error", { httpStatus: 0, body: "", error: "no reply within 5000 ms", refusedAddress: false, durationMs: 5000 }, /no reply within 5000 ms/],
    [
      "refused address",
      { httpStatus: 0, body: "", error: "address refused: 127.0.0.1 is not allowed", refusedAddress: true, durationMs: 0 },
      /address refused/,
    ],
  ];
  for (const [name, r, reason] of rows) {
    const v = readValidationReply(r, KEY);
    t.equal(v.usable, false, `${name}: unusable`);
    if (!v.usable) t.match(v.error, reason, `${name}: reason`);
  }
});

// ---- X-Cashier-Signature ----

t.test('signatureHeader: t=<n>,v1=<hex HMAC-SHA384 of "<t>.<body>">', async (t) => {
  const bodies = [updatePayoutBody(payout(), 7, "system"), recordFailedDepositBody(declinedN(), 7), "{}", '{"PIN":"Zoë €"}', ""];
  for (const body of bodies) {
    for (const now of [1795000000, 1, 2000000000]) {
      const header = signatureHeader(KEY, body, now);
      const raw = Buffer.concat([Buffer.from(`${now}.`, "utf8"), Buffer.from(body, "utf8")]);
      t.equal(header, `t=${now},v1=${hmac384(SECRET, raw)}`, `${body.slice(0, 20)} at ${now}`);
      t.match(header, /^t=\d+,v1=[0-9a-f]{96}$/, "shape");
    }
  }
  t.not(signatureHeader(KEY, "{}", 1795000000), signatureHeader(KEY, "{}", 1795000001), "the time is signed");
  t.not(signatureHeader(KEY, "{}", 1795000000), signatureHeader(hmacKey("other"), "{}", 1795000000), "the secret matters");
});

t.test("notificationBody: redirect_url only while the customer must act (CONTRACT 3)", async (t) => {
  // After a 3-D Secure challenge the attempt keeps the page's address (getChallenge
  // needs it); the notification must not offer it once the result is known.
  const page = "https://cashier.example/3ds/1044/abc";
  const open = JSON.parse(notificationBody(attempt({ status: "pending_async", transactionId: "sim-a-c1", redirectUrl: page }), KEY)) as Record<string, unknown>;
  t.equal(open.redirect_url, page, "pending_async: the challenge page");
  const rows: [name: string, a: Attempt][] = [
    ["3-D Secure passed: approved", attempt({ status: "approved", transactionId: "sim-a-c1", redirectUrl: page })],
    [
      "3-D Secure failed: declined 9004",
      declinedN({ transactionId: "sim-a-c1", redirectUrl: page, errorCode: 9004, errorDetails: "3-D Secure authentication failed", processorCode: null }),
    ],
    [
      "3-D Secure expired: declined 9005",
      declinedN({ transactionId: "sim-a-c1", redirectUrl: page, errorCode: 9005, errorDetails: "3-D Secure challenge expired", processorCode: null }),
    ],
  ];
  for (const [name, a] of rows) {
    const body = JSON.parse(notificationBody(a, KEY)) as Record<string, unknown>;
    t.equal(body.redirect_url, null, `${name}: redirect_url null, the customer has nothing left to do`);
  }
});
