/**
 * The seed 2.2 reply as the platform receives it, on recorded examples: the
 * exact bytes (member order, nulls, an empty transaction_id) and the exact
 * signature under the CONTRACT's demo secret, for approved, declined,
 * pending, 3-D Secure, processor-unavailable and refused replies. Each
 * recorded signature is also checked with the tests' own signer
 * (test/support/signer.ts), written from CONTRACT section 2 alone.
 */
import t from "tap";
import { processedMembers, processedReply, refusalReply } from "../../../../../engine/shared/wire/process-reply.ts";
import { describeAttempt } from "../../../../../engine/payments/domain/describe.ts";
import { hmacKey } from "../../../../../engine/shared/hmac.ts";
import type { Attempt } from "../../../../../engine/shared/transaction.ts";
import { anAttempt } from "../../../../support/builders.ts";
import { signatureOf } from "../../../../support/signer.ts";

const SECRET = "demo-secret-change-me";
const KEY = hmacKey(SECRET);

/** An approved sale: the members its reply carries are written out; the rest are the builder's. */
const approved = anAttempt({
  traceId: 1001,
  status: "approved",
  payoutLetter: null,
  transactionId: "sim-a-000001",
  processor: "sim-a",
  errorCode: null,
  errorDetails: null,
  redirectUrl: null,
});

const RECORDED: [name: string, attempt: Attempt, json: string][] = [
  [
    "approved",
    approved,
    '{"status":0,"description":"Approved","redirect_url":null,"trace_id":1001,"transaction_id":"sim-a-000001","transaction_status":"approved","error_code":null,"error_details":null,"payment_processor":"sim-a","version":"1.0","signature":"47cfb07179e1274bfd36b8a6638ba6c6635803aa61574f25fa034b96b1ee312073c3c2d684bd6abba939ad03df4e7e97"}',
  ],
  [
    "declined by the processor (05)",
    { ...approved, status: "declined", errorCode: 5, errorDetails: "05 do not honour", depositState: "N", processorCode: "05" },
    '{"status":0,"description":"Declined: 05 do not honour","redirect_url":null,"trace_id":1001,"transaction_id":"sim-a-000001","transaction_status":"declined","error_code":5,"error_details":"05 do not honour","payment_processor":"sim-a","version":"1.0","signature":"7b6a01bdf44f3cb1e4496b1eb1cfdb4cb9f83f00ee5f672ee33e8647a718b4e384174730ac620504fb2e967e2698c0d7"}',
  ],
  [
    "pending",
    { ...approved, status: "pending", transactionId: "sim-a-000002" },
    '{"status":0,"description":"Pending: the processor\'s final answer follows","redirect_url":null,"trace_id":1001,"transaction_id":"sim-a-000002","transaction_status":"pending","error_code":null,"error_details":null,"payment_processor":"sim-a","version":"1.0","signature":"63d64b4119c05fa7743afe6ba32dcad26306a11e6269a4e8942fbbb759687d713043ffc8626b2e8cbcd994a8f5d722f5"}',
  ],
  [
    "pending_async with its redirect_url",
    { ...approved, status: "pending_async", redirectUrl: "http://127.0.0.1:8080/3ds/1001/abc" },
    '{"status":0,"description":"Customer action required: 3-D Secure at redirect_url","redirect_url":"http://127.0.0.1:8080/3ds/1001/abc","trace_id":1001,"transaction_id":"sim-a-000001","transaction_status":"pending_async","error_code":null,"error_details":null,"payment_processor":"sim-a","version":"1.0","signature":"a90270142fc9cae44ba80c94fb08cde310497b31e84a25eea928f67c3054aa8ca1c62a8a30b2bebca8d118928f7fd763"}',
  ],
  [
    "processor unavailable: an empty transaction_id, not null",
    { ...approved, status: "declined", transactionId: null, errorCode: 9001, errorDetails: "processor unavailable", depositState: "E" },
    '{"status":0,"description":"Declined: processor unavailable","redirect_url":null,"trace_id":1001,"transaction_id":"","transaction_status":"declined","error_code":9001,"error_details":"processor unavailable","payment_processor":"sim-a","version":"1.0","signature":"b764bc6bcd4903fe40b0378c07de316757be0696e3e5b474c8b69e4376f061e192d736ca8657bc83efe8fe6bb5089b7a"}',
  ],
];

t.test("processed replies: the recorded bytes and signatures", async (t) => {
  for (const [name, attempt, json] of RECORDED) {
    const text = processedReply(attempt, describeAttempt(attempt), KEY);
    t.equal(text, json, `${name}: byte for byte`);
    const body = JSON.parse(text) as Record<string, unknown>;
    t.equal(body.signature, signatureOf(body, SECRET), `${name}: the signature a platform computes`);
  }
});

t.test("a refused request's reply: the recorded bytes, signed when tied to a merchant", async (t) => {
  const signed = refusalReply(2, "card_number: fails the Luhn check", KEY);
  t.equal(
    signed,
    '{"status":2,"description":"card_number: fails the Luhn check","redirect_url":null,"trace_id":null,"transaction_id":null,"transaction_status":null,"error_code":null,"error_details":null,"payment_processor":null,"version":"1.0","signature":"e82ebf84fbecdc90016c2a9d25d5e0db23c69e1791b501490810b86fceea9ec0561c42867a1536ad31180fa88fa4e8fe"}',
  );
  const body = JSON.parse(signed) as Record<string, unknown>;
  t.equal(body.signature, signatureOf(body, SECRET), "the signature a platform computes");
  t.equal(
    refusalReply(3, "Unknown merchant_id"),
    '{"status":3,"description":"Unknown merchant_id","redirect_url":null,"trace_id":null,"transaction_id":null,"transaction_status":null,"error_code":null,"error_details":null,"payment_processor":null,"version":"1.0","signature":null}',
    "no key: signature null (cannot be tied to a merchant)",
  );
});

t.test("a refusal's description cannot pose as other members, and fits varchar(256)", async (t) => {
  const forged = refusalReply(2, "x&status=0&transaction_status=approved\n", KEY);
  const body = JSON.parse(forged) as Record<string, unknown>;
  t.equal(body.status, 2);
  t.notMatch(String(body.description), /[&=\n]/);
  t.equal(body.signature, signatureOf(body, SECRET), "signed over the text as written");
  const long = JSON.parse(refusalReply(2, "y".repeat(1000))) as { description: string };
  t.equal([...long.description].length, 256);
});

t.test("the notification reuses the reply's members, in the reply's order", async (t) => {
  t.same(Object.keys(processedMembers(approved, "Approved")), [
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
  ]);
});
