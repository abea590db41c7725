/**
 * Who is calling must be knowable before anything else: a request without
 * merchant_id or timestamp is malformed (400), whatever else it lacks (an
 * unsigned one is refused later, 401, after its merchant is looked up:
 * test/e2e/process-http.test.ts). The bodies are read as
 * the edge reads them (a member of the wrong type counts as absent here; the
 * edge refuses it earlier as a typing error).
 */
import t from "tap";
import { missingCaller } from "../../../../../engine/payments/app/authenticate.ts";
import { inWireNames } from "../../../../../engine/shared/wire/refusal.ts";

const vector = {
  merchant_id: "m-demo",
  timestamp: 1795000000,
  order_id: "ord-1001",
  signature: "bd92008aea766918734bf8b6fadab4bddbf2068a983a6d77b09c4de353321c19ed319b1555ab30a08e6680c361f15635",
};

function problems(body: Record<string, unknown>) {
  const merchantId = typeof body.merchant_id === "string" ? body.merchant_id : "";
  const timestamp = typeof body.timestamp === "number" ? body.timestamp : undefined;
  return missingCaller(merchantId, timestamp);
}

t.test("missingCaller: who is calling must be knowable", async (t) => {
  const rows: [name: string, body: Record<string, unknown>, fields: string[]][] = [
    ["the vector", vector, []],
    ["empty body", {}, ["merchant_id", "timestamp"]],
    ["no merchant_id", { ...vector, merchant_id: undefined }, ["merchant_id"]],
    ["empty merchant_id", { ...vector, merchant_id: "" }, ["merchant_id"]],
    ["merchant_id as a number", { ...vector, merchant_id: 7 }, ["merchant_id"]],
    ["no merchant_id, no signature", { ...vector, merchant_id: undefined, signature: undefined }, ["merchant_id"]],
    ["no signature", { ...vector, signature: undefined }, []],
    ["timestamp as a string", { ...vector, timestamp: "1795000000" }, ["timestamp"]],
    ["no timestamp", { ...vector, timestamp: undefined }, ["timestamp"]],
  ];
  for (const [name, body, fields] of rows) {
    // Named as the platform reads them: the domain's names through the wire's table.
    const found = problems(body);
    const p = found && inWireNames(found);
    t.same(p?.reason === "INVALID_FIELDS" ? p.violations.map((v) => v.field) : [], fields, `${name}: missing`);
    t.equal(p === undefined, fields.length === 0, `${name}: ${fields.length === 0 ? "left to the merchant's look-up" : "refused (400)"}`);
  }
});
