/**
 * Who is calling must be knowable, and proven, before anything else: a
 * request without merchant_id or timestamp is malformed (400), one without a
 * signature is unauthenticated (401) whoever it names. The bodies are read as
 * the edge reads them (a member of the wrong type counts as absent here; the
 * edge refuses it earlier as a typing error).
 */
import t from "tap";
import { callerProblems } from "../../../engine/app/authenticate.ts";
import { inWireNames } from "../../../engine/wire/refusal.ts";

const vector = {
  merchant_id: "m-demo",
  timestamp: 1795000000,
  order_id: "ord-1001",
  signature: "bd92008aea766918734bf8b6fadab4bddbf2068a983a6d77b09c4de353321c19ed319b1555ab30a08e6680c361f15635",
};

function problems(body: Record<string, unknown>) {
  const merchantId = typeof body.merchant_id === "string" ? body.merchant_id : "";
  const timestamp = typeof body.timestamp === "number" ? body.timestamp : undefined;
  const signature = typeof body.signature === "string" ? body.signature : "";
  return callerProblems(merchantId, timestamp, signature);
}

t.test("callerProblems: who is calling must be knowable, and proven", async (t) => {
  const rows: [name: string, body: Record<string, unknown>, fields: string[], unsigned: boolean][] = [
    ["the vector", vector, [], false],
    ["empty body", {}, ["merchant_id", "timestamp"], true],
    ["no merchant_id", { ...vector, merchant_id: undefined }, ["merchant_id"], false],
    ["empty merchant_id", { ...vector, merchant_id: "" }, ["merchant_id"], false],
    ["merchant_id as a number", { ...vector, merchant_id: 7 }, ["merchant_id"], false],
    ["no signature", { ...vector, signature: undefined }, [], true],
    ["null signature", { ...vector, signature: null }, [], true],
    ["empty signature", { ...vector, signature: "" }, [], true],
    ["timestamp as a string", { ...vector, timestamp: "1795000000" }, ["timestamp"], false],
    ["no timestamp", { ...vector, timestamp: undefined }, ["timestamp"], false],
  ];
  for (const [name, body, fields, unsigned] of rows) {
    // Named as the platform reads them: the domain's names through the wire's table.
    const found = problems(body);
    const p = found && inWireNames(found);
    // Missing fields come first (400); a request with all of them but no signature is a 401.
    t.same(p?.reason === "INVALID_FIELDS" ? p.violations.map((v) => v.field) : [], fields, `${name}: missing`);
    t.equal(fields.length === 0 && p?.reason === "SIGNATURE_INVALID", fields.length === 0 && unsigned, `${name}: unsigned`);
  }
});
