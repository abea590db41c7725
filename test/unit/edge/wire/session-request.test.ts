/**
 * The session start body -> StartSessionRequest, on fixtures: members typed as
 * the wire says, amounts in the wire's unit (whole units for the listed
 * currencies, cents otherwise, a fraction of a minor unit named), an absent
 * amount left absent, and every typing fault carried as a wire violation.
 */
import t from "tap";
import { SessionIntent } from "../../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { WireViolationKind } from "../../../../gen/cashier/engine/v1/engine_service_pb.js";
import { decodeSessionRequest } from "../../../../edge/wire/session-request.ts";

const base = {
  intent: "withdrawal",
  merchant_id: "m-demo",
  frontend: "demo-usd",
  currency: "USD",
  pin: "cust-42",
  email: "jane@example.com",
  first_name: "Jane",
  last_name: "Doe",
  country: "GB",
  phone: 447700900123,
  order_id: "po-1",
  balance: 5000,
  return_url: "https://merchant.example/return",
  sc_order_id: "SC-1",
  udef1: "a",
  udef2: "b",
  locale: "de-DE",
  timestamp: 1795000000,
  version: "1.0",
  signature: "ab".repeat(48),
};

t.test("a well-typed body becomes the typed request with its canonical string", async (t) => {
  const r = decodeSessionRequest(base);
  t.ok(r.ok);
  const q = r.request;
  t.equal(q.intent, SessionIntent.WITHDRAWAL);
  t.equal(q.amountMinor, undefined, "no amount: the customer chooses");
  t.equal(q.balanceMinor, 5000n);
  t.same([q.orderId, q.scOrderId, q.udef1, q.udef2, q.locale, q.customer?.phone], ["po-1", "SC-1", "a", "b", "de-DE", "447700900123"]);
  t.equal(q.timestamp, 1795000000n);
  t.match(q.wireSignature?.canonical, /^balance=5000&country=GB&currency=USD&email=jane@example.com&first_name=Jane/);
  t.notMatch(q.wireSignature?.canonical, /signature=/);
  t.equal(decodeSessionRequest({ ...base, intent: "constructor" }).request.intent, SessionIntent.UNSPECIFIED, "only the table's own words");
});

t.test("amounts in the wire's unit", async (t) => {
  const amount = (currency: string, value: number) => decodeSessionRequest({ ...base, currency, amount: value });
  t.equal(amount("USD", 1050).request.amountMinor, 1050n);
  t.equal(amount("JPY", 1000).request.amountMinor, 1000n);
  t.equal(amount("BHD", 5).request.amountMinor, 5000n);
  t.equal(amount("KWD", 105).request.amountMinor, 1050n, "a three-decimal currency in cents");
  const isk = amount("ISK", 150);
  t.notOk(isk.ok);
  t.same(isk.violations, [{ field: "amount", kind: WireViolationKind.AMOUNT_NOT_WHOLE }], "ISK cents that are no whole krona");
});

t.test("typing faults are named, not judged further", async (t) => {
  const r = decodeSessionRequest({ ...base, amount: "1000", balance: 1.5, udef1: 7, intent: true, phone: -5, nested: [1] });
  t.notOk(r.ok);
  t.same(
    r.violations.map((v) => [v.field, v.kind]).sort(),
    [
      ["amount", WireViolationKind.NOT_INTEGER],
      ["balance", WireViolationKind.NOT_INTEGER],
      ["intent", WireViolationKind.NOT_STRING],
      ["nested", WireViolationKind.NOT_SCALAR],
      ["phone", WireViolationKind.NOT_INTEGER_OR_STRING],
      ["udef1", WireViolationKind.NOT_STRING],
    ].sort(),
  );
  t.equal(r.request.wireSignature?.canonical, "", "no canonical string for a body the signature rules reject");
  t.same(r.request.wireViolations.length, 6, "the violations travel in the request");
  const nested = decodeSessionRequest({ ...base, udef1: { a: 1 }, amount: [1], phone: { n: 1 } });
  t.same(
    nested.violations.map((v) => [v.field, v.kind]).sort(),
    [
      ["amount", WireViolationKind.NOT_SCALAR],
      ["phone", WireViolationKind.NOT_SCALAR],
      ["udef1", WireViolationKind.NOT_SCALAR],
    ].sort(),
    "a member that holds an object or an array is named once, not also as not a string or not an integer",
  );
});
