/**
 * A refused Process request in the platform's words: domain field names read
 * through the wire's table, the edge's typing findings worded by the engine
 * (so it signs no text a caller chose), and every field named within 256
 * characters.
 */
import t from "tap";
import { domainError } from "../../../../../engine/shared/errors.ts";
import { PROCESS_FIELDS } from "../../../../../engine/shared/wire/process-fields.ts";
import { WIRE_NAMES } from "../../../../../engine/shared/wire/wire-names.ts";
import { inWireNames, refusalJson } from "../../../../../engine/shared/wire/refusal.ts";
import { wireViolationsError } from "../../../../../engine/shared/wire/wire-violations.ts";
import { WireViolationKind } from "../../../../../gen/cashier/engine/v1/engine_service_pb.js";
import { hmacKey } from "../../../../../engine/shared/hmac.ts";
import { signatureOf } from "../../../../support/signer.ts";

/** Every member of seed section 2.1 (its table, signature aside). */
const SEED_MEMBERS = [
  "amount",
  "currency",
  "card_number",
  "cvv",
  "card_exp",
  "pin",
  "dob",
  "email",
  "phone",
  "requester_ip",
  "address",
  "city",
  "country",
  "first_name",
  "last_name",
  "state",
  "zip",
  "frontend",
  "merchant_id",
  "return_url",
  "notification_url",
  "order_id",
  "transaction_type",
  "reference_id",
  "error_code",
  "error_details",
  "timestamp",
  "version",
  // The hosted payment fields' token in place of the card (an addition to the seed's members).
  "card_token",
];

t.test("every domain field has one seed member name, and every seed member a domain field", async (t) => {
  t.same(PROCESS_FIELDS.map((f) => WIRE_NAMES[f]).sort(), [...SEED_MEMBERS].sort());
});

t.test("a domain refusal reads in the seed's names, message and violations alike", async (t) => {
  const e = inWireNames(
    domainError("INVALID_FIELDS", "ignored", [
      { field: "cardNumber", description: "fails the Luhn check" },
      { field: "requesterIp", description: "must be an IPv4 or IPv6 address" },
    ]),
  );
  t.same(
    e.violations.map((v) => v.field),
    ["card_number", "requester_ip"],
  );
  t.equal(e.message, "card_number: fails the Luhn check; requester_ip: must be an IPv4 or IPv6 address");
  const plain = domainError("TIMESTAMP_OUT_OF_WINDOW", "timestamp is more than 60 s from the service's clock");
  t.equal(inWireNames(plain), plain, "a refusal naming no field is left as it is");
});

t.test("the edge's typing findings are worded by the engine", async (t) => {
  const e = wireViolationsError(
    [
      { field: "amount", kind: WireViolationKind.NOT_INTEGER },
      { field: "card_number", kind: WireViolationKind.NOT_STRING },
      { field: "address", kind: WireViolationKind.NOT_SCALAR },
      { field: "phone", kind: WireViolationKind.NOT_INTEGER_OR_STRING },
    ],
    "USD",
  );
  t.equal(e.reason, "INVALID_FIELDS");
  t.equal(
    e.message,
    "amount: must be a JSON integer; card_number: must be a JSON string; address: must be a scalar, not an object or array; phone: must be a JSON integer or a string of digits",
  );
  const isk = wireViolationsError([{ field: "amount", kind: WireViolationKind.AMOUNT_NOT_WHOLE }], "ISK");
  t.equal(isk.message, "amount: ISK has 0 decimals: the amount in cents must be a multiple of 100");
  const kwd = wireViolationsError([{ field: "amount", kind: WireViolationKind.AMOUNT_NOT_WHOLE }], "XYZ");
  t.equal(kwd.message, "amount: is not a whole number of the currency's minor units", "an unknown currency, no arithmetic on it");
});

t.test("no caller-chosen text is signed: odd member names and unknown kinds get the engine's words", async (t) => {
  const e = wireViolationsError(
    [
      { field: "status=0&approved", kind: WireViolationKind.NOT_SCALAR },
      { field: "x".repeat(51), kind: WireViolationKind.NOT_SCALAR },
      { field: "a_b (renamed)", kind: WireViolationKind.NOT_SCALAR },
      { field: "amount", kind: 99 as WireViolationKind },
      { field: "cvv", kind: WireViolationKind.UNSPECIFIED },
    ],
    "USD",
  );
  t.same(
    e.violations.map((v) => v.field),
    ["(a member)", "(a member)", "a_b (renamed)", "amount", "cvv"],
  );
  t.same(
    e.violations.slice(3).map((v) => v.description),
    ["has a JSON type the seed does not allow", "has a JSON type the seed does not allow"],
  );
});

t.test("the refusal's reply: status from the reason table, every field named within 256, signed", async (t) => {
  const many = Array.from({ length: 40 }, (_, i) => ({ field: `extra_member_${i}`, kind: WireViolationKind.NOT_SCALAR }));
  const json = refusalJson(wireViolationsError(many, "USD"), hmacKey("s3cret"));
  const body = JSON.parse(json) as { status: number; description: string; signature: string };
  t.equal(body.status, 2);
  t.equal([...body.description].length, 256);
  t.match(body.description, /^Invalid fields: extra_member_0, extra_member_1, /, "the names first when all does not fit");
  t.equal(body.signature, signatureOf(body, "s3cret"));
  const conflict = JSON.parse(refusalJson(inWireNames(domainError("ORDER_CONFLICT", "x", [{ field: "orderId", description: "already used" }])), undefined));
  t.same([conflict.status, conflict.description, conflict.signature], [6, "order_id: already used", null]);
});
