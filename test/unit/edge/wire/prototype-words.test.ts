/**
 * The names of Object.prototype's members are plain words on the wire: as a
 * value (transaction_type "constructor") they name nothing, and as a member
 * name ("__proto__", which JSON.parse makes an own member) they are a member
 * like any other: typed, signed and refused by the same rules.
 */
import t from "tap";
import { WireViolationKind } from "../../../../gen/cashier/engine/v1/engine_service_pb.js";
import { decodeProcessRequest } from "../../../../edge/wire/process-request.ts";
import { statusToProto } from "../../../../engine/payments/rpc/proto-mappers.ts";
import { TransactionStatus, TransactionType } from "../../../../gen/cashier/engine/v1/transaction_pb.js";
import type { TransactionStatus as DomainStatus } from "../../../../engine/shared/transaction.ts";

const WORDS = ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty", "__defineGetter__", "prototype"];

/** A body as the edge receives it: parsed from JSON text, so "__proto__" is an own member. */
const parsed = (extra = ""): Record<string, unknown> =>
  JSON.parse(`{"merchant_id":"m-demo","transaction_type":"sale","amount":1050,"currency":"USD","timestamp":1795000000,"version":"1.0"${extra}}`);

t.test("a prototype word as transaction_type is no type: UNSPECIFIED, for the engine to name", async (t) => {
  for (const word of WORDS) {
    const r = decodeProcessRequest({ ...parsed(), transaction_type: word });
    t.equal(r.ok && r.request.transactionType, TransactionType.UNSPECIFIED, word);
  }
});

t.test("prototype words in every string member decode as the words they are", async (t) => {
  for (const word of WORDS) {
    const r = decodeProcessRequest({ ...parsed(), currency: word, country: word, frontend: word, merchant_id: word, version: word, state: word });
    t.equal(r.ok, true, word);
    if (!r.ok) continue;
    t.equal(r.request.amount?.currency, word);
    t.equal(r.request.customer?.country, word);
    t.equal(r.request.frontend, word);
    t.equal(r.request.merchantId, word);
    t.equal(r.request.version, word);
    t.equal(r.request.customer?.state, word);
  }
});

t.test("a scalar __proto__ member is refused by name; constructor is an ordinary member, signed and kept", async (t) => {
  // No object the edge builds can hold __proto__ as a member of its own, so it could not be one of the order's
  // parameters while the signature covers it: refused. constructor can be, and is.
  const r = decodeProcessRequest(parsed(',"__proto__":"x","constructor":"y"'));
  t.equal(r.ok, false);
  t.same(
    r.violations.map((v) => [v.field, WireViolationKind[v.kind]]),
    [["__proto__", "BAD_NAME"]],
  );
  const c = decodeProcessRequest(parsed(',"constructor":"y"'));
  t.equal(c.ok, true);
  t.equal(
    c.request.wireSignature?.canonical,
    "amount=1050&constructor=y&currency=USD&merchant_id=m-demo&timestamp=1795000000&transaction_type=sale&version=1.0",
  );
  t.same(c.request.wireSignature?.unknownMembers, { constructor: "y" }, "and among the order's parameters");
});

t.test("an object under __proto__ or constructor is refused by name, and changes nothing else", async (t) => {
  const r = decodeProcessRequest(parsed(',"__proto__":{"transaction_type":"payout","amount":"x"},"constructor":{"prototype":{}}'));
  t.equal(r.ok, false);
  if (!r.ok) t.same(r.violations.map((v) => v.field).sort(), ["__proto__", "constructor"]);
});

// The seed's reply writes the domain's own status word (engine/shared/wire/process-reply.ts); the one table
// left between status words and numbers is the proto mapping, which answers no word it does not hold.
t.test("a transaction status the table does not hold is answered UNSPECIFIED", async (t) => {
  for (const word of WORDS) t.equal(statusToProto(word as DomainStatus), TransactionStatus.UNSPECIFIED, word);
});
