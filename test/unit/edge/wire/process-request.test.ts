/**
 * The seed 2.1 JSON body -> a typed request for the engine: only JSON typing is
 * judged here (integers where the seed says int, strings where it says varchar,
 * phone either way, no objects or arrays); the canonical string handed on for
 * the signature is the one of the body as received.
 */
import t from "tap";
import { decodeProcessRequest, wireTypeViolations } from "../../../../edge/wire/process-request.ts";
import { TransactionType } from "../../../../gen/cashier/engine/v1/transaction_pb.js";
import { WireViolationKind } from "../../../../gen/cashier/engine/v1/engine_service_pb.js";

const VECTOR_CANONICAL =
  "amount=1050&card_exp=12/2030&card_number=4111111111111111&country=GB&currency=USD&cvv=123&email=jane@example.com&first_name=Jane&frontend=demo-usd&last_name=Doe&merchant_id=m-demo&order_id=ord-1001&pin=cust-42&return_url=https://merchant.example/return&timestamp=1795000000&transaction_type=sale&version=1.0&zip=SW1A1AA";
const VECTOR_SIGNATURE = "bd92008aea766918734bf8b6fadab4bddbf2068a983a6d77b09c4de353321c19ed319b1555ab30a08e6680c361f15635";

/** The CONTRACT section 2 vector body, parsed from JSON as the edge would. */
const vectorBody = (): Record<string, unknown> =>
  JSON.parse(`{
    "merchant_id": "m-demo", "frontend": "demo-usd", "order_id": "ord-1001", "transaction_type": "sale",
    "amount": 1050, "currency": "USD", "card_number": "4111111111111111", "cvv": "123", "card_exp": "12/2030",
    "pin": "cust-42", "email": "jane@example.com", "first_name": "Jane", "last_name": "Doe", "country": "GB",
    "state": null, "zip": "SW1A1AA", "return_url": "https://merchant.example/return", "timestamp": 1795000000,
    "version": "1.0", "signature": "${VECTOR_SIGNATURE}"
  }`);

t.test("the contract vector decodes, carrying its canonical string and signature", async (t) => {
  const r = decodeProcessRequest(vectorBody());
  t.equal(r.ok, true);
  if (!r.ok) return;
  const q = r.request;
  t.equal(q.wireSignature?.canonical, VECTOR_CANONICAL, "canonical string equals the CONTRACT vector's");
  t.equal(q.wireSignature?.signature, VECTOR_SIGNATURE);
  t.equal(q.merchantId, "m-demo");
  t.equal(q.orderId, "ord-1001");
  t.equal(q.transactionType, TransactionType.SALE);
  t.equal(q.amount?.amountMinor, 1050n);
  t.equal(q.amount?.currency, "USD");
  t.equal(q.card?.number, "4111111111111111");
  t.equal(q.card?.cvv, "123");
  t.equal(q.card?.expiry, "12/2030");
  t.equal(q.customer?.country, "GB");
  t.equal(q.customer?.state, "", "null state -> empty");
  t.equal(q.customer?.zip, "SW1A1AA");
  t.equal(q.customer?.phone, "");
  t.equal(q.frontend, "demo-usd");
  t.equal(q.returnUrl, "https://merchant.example/return");
  t.equal(q.timestamp, 1795000000n);
  t.equal(q.version, "1.0");
});

t.test("the canonical string is the body's as received: unknown scalar members included", async (t) => {
  const body = { ...vectorBody(), zz_udef1: "x", Bonus: 0 };
  const r = decodeProcessRequest(body);
  t.equal(r.ok, true);
  if (r.ok) t.equal(r.request.wireSignature?.canonical, `Bonus=0&${VECTOR_CANONICAL}&zz_udef1=x`);
  t.same(r.request.wireSignature?.unknownMembers, { zz_udef1: "x", Bonus: "0" }, "and sent apart, for the order's parameters");
  const nulls = decodeProcessRequest({ ...vectorBody(), phone: 447700900123, gone: null });
  t.same(nulls.request.wireSignature?.unknownMembers, {}, "phone is the interface's, a null member is none");
});

t.test("transaction_type mapping", async (t) => {
  const rows: [string, TransactionType][] = [
    ["sale", TransactionType.SALE],
    ["payout", TransactionType.PAYOUT],
    ["refund", TransactionType.REFUND],
    ["SALE", TransactionType.UNSPECIFIED],
    ["credit", TransactionType.UNSPECIFIED],
    ["", TransactionType.UNSPECIFIED],
  ];
  for (const [wire, want] of rows) {
    const r = decodeProcessRequest({ ...vectorBody(), transaction_type: wire });
    t.equal(r.ok && r.request.transactionType, want, JSON.stringify(wire));
  }
});

t.test("amounts go through the currency's wire unit", async (t) => {
  const rows: [amount: number, currency: string, minor: bigint][] = [
    [1050, "USD", 1050n],
    [1000, "JPY", 1000n],
    [5, "BHD", 5000n],
    [1050, "KWD", 10500n],
    [1000, "ISK", 10n],
    [1234, "XYZ", 1234n],
  ];
  for (const [amount, currency, minor] of rows) {
    const r = decodeProcessRequest({ ...vectorBody(), amount, currency });
    t.equal(r.ok && r.request.amount?.amountMinor, minor, `${amount} ${currency} -> ${minor}`);
  }
  const bad = decodeProcessRequest({ ...vectorBody(), amount: 1050, currency: "ISK" });
  t.same(bad.ok ? [] : bad.violations.map((v) => v.field), ["amount"], "ISK 1050 cents refused on amount");
  t.same(
    bad.violations.map((v) => v.kind),
    [WireViolationKind.AMOUNT_NOT_WHOLE],
    "as cents that are no whole minor unit",
  );
});

t.test("wireTypeViolations: JSON types per the seed", async (t) => {
  const rows: [name: string, over: Record<string, unknown>, fields: string[]][] = [
    ["the vector", {}, []],
    ["amount as a string", { amount: "1050" }, ["amount"]],
    ["amount with a fraction", { amount: 10.5 }, ["amount"]],
    ["amount beyond 2^53", { amount: 2 ** 53 }, ["amount"]],
    ["timestamp beyond 2^53, as 1e21", { timestamp: 1e21 }, ["timestamp"]],
    ["amount as a boolean", { amount: true }, ["amount"]],
    ["timestamp as a string", { timestamp: "1795000000" }, ["timestamp"]],
    ["timestamp with a fraction", { timestamp: 1795000000.5 }, ["timestamp"]],
    ["error_code as a string", { error_code: "5" }, ["error_code"]],
    ["error_code as an integer", { error_code: 5 }, []],
    ["card_number as a number", { card_number: 4111111111111111 }, ["card_number"]],
    ["cvv as a number", { cvv: 123 }, ["cvv"]],
    ["zip as a number", { zip: 10001 }, ["zip"]],
    ["version as a number", { version: 1.0 }, ["version"]],
    ["order_id as a number", { order_id: 1001 }, ["order_id"]],
    ["merchant_id as a boolean", { merchant_id: true }, ["merchant_id"]],
    ["signature as a number", { signature: 1 }, ["signature"]],
    ["phone as an integer", { phone: 447911123456 }, []],
    ["phone as a string", { phone: "447911123456" }, []],
    ["phone null", { phone: null }, []],
    ["phone negative", { phone: -447911123456 }, ["phone"]],
    ["phone with a fraction", { phone: 4479111234.5 }, ["phone"]],
    // biome-ignore lint/correctness/noPrecisionLoss: a platform sending a phone number beyond 2^53 is the case under test
    ["phone beyond 2^53", { phone: 12345678901234567890 }, ["phone"]],
    ["phone as a boolean", { phone: true }, ["phone"]],
    ["null members are fine", { state: null, dob: null, notification_url: null, amount: null }, []],
    ["an object member", { extra: { a: 1 } }, ["extra"]],
    ["an array member", { extra: [1, 2] }, ["extra"]],
    ["card_number as an array", { card_number: ["4111111111111111"] }, ["card_number"]],
    ["amount as an object", { amount: { value: 1050 } }, ["amount"]],
    ["phone as an array", { phone: [447911123456] }, ["phone"]],
    ["several at once", { amount: "1", cvv: 123, extra: {} }, ["amount", "cvv", "extra"]],
  ];
  for (const [name, over, fields] of rows) {
    const v = wireTypeViolations({ ...vectorBody(), ...over });
    t.same(v.map((x) => x.field).sort(), [...fields].sort(), name);
    for (const x of v) t.ok(x.kind !== WireViolationKind.UNSPECIFIED && x.kind in WireViolationKind, `${name}: ${x.field} described (its kind)`);
    const big = name.includes("beyond 2^53");
    for (const x of v) t.equal(x.kind === WireViolationKind.INTEGER_TOO_LARGE, big, `${name}: ${big ? "too large" : "not too large"}, told apart`);
    const d = decodeProcessRequest({ ...vectorBody(), ...over });
    t.equal(d.ok, fields.length === 0, `${name}: decode ${fields.length ? "refuses" : "accepts"}`);
    if (!d.ok) t.same(d.violations, v, `${name}: decode returns the same violations`);
    t.same(
      d.request.wireViolations.map((x) => [x.field, x.kind]),
      v.map((x) => [x.field, x.kind]),
      `${name}: and sends them to the engine in the same request`,
    );
  }
});

t.test("phone as an integer reaches the engine as its digits", async (t) => {
  const r = decodeProcessRequest({ ...vectorBody(), phone: 447911123456 });
  t.equal(r.ok && r.request.customer?.phone, "447911123456");
  const s = decodeProcessRequest({ ...vectorBody(), phone: "447911123456" });
  t.equal(s.ok && s.request.customer?.phone, "447911123456");
  const c = decodeProcessRequest({ ...vectorBody(), phone: 447911123456 });
  t.match(c.ok && c.request.wireSignature?.canonical, /&phone=447911123456&/, "signed as String(n)");
});

t.test("a missing timestamp stays absent for the engine, not 0", async (t) => {
  const absent = decodeProcessRequest({ ...vectorBody(), timestamp: undefined });
  t.equal(absent.ok && absent.request.timestamp, undefined);
  const given = decodeProcessRequest(vectorBody());
  t.equal(given.ok && given.request.timestamp, 1795000000n);
});

t.test("a body with an object member is sent with no canonical string: it has none, and it is refused first", async (t) => {
  const deep = JSON.parse(`{"a":${"[".repeat(30_000)}${"]".repeat(30_000)},"merchant_id":"m-demo"}`);
  const r = decodeProcessRequest(deep);
  t.equal(r.ok, false);
  t.equal(r.request.wireSignature?.canonical, "");
  t.same(
    r.request.wireViolations.map((v) => v.field),
    ["a"],
  );
  t.equal(r.request.merchantId, "m-demo", "the merchant still named, so the refusal can be signed");
});
