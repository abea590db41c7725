/**
 * The sim connector's pure transformers on answers recorded from the acquirer
 * simulator (test/fixtures/acquirer/, made by record.ts there): every recorded
 * answer classified as the status table says, and the request bodies.
 */
import { readFileSync } from "node:fs";
import t from "tap";
import { decide, type ProcessorOutcome } from "../../../../../engine/payments/domain/outcome.ts";
import { paymentBody, STATUS_TABLE, toOutcome } from "../../../../../engine/payments/processors/sim/transformers.ts";

interface Recorded {
  request: { method: string; path: string; body: unknown };
  http: number;
  body: Record<string, unknown>;
}

const fixture = (name: string): Recorded => JSON.parse(readFileSync(new URL(`../../../../fixtures/acquirer/${name}.json`, import.meta.url), "utf8"));

/** Recorded answer -> the outcome it must give (the id, when it has one, is the recorded one). */
const EXPECTED: [name: string, outcome: Partial<ProcessorOutcome> & { kind: ProcessorOutcome["kind"] }, withId: boolean][] = [
  ["sale-approved", { kind: "approved" }, true],
  ["sale-declined-05", { kind: "declined", code: "05", message: "Do not honour" }, true],
  ["sale-declined-51", { kind: "declined", code: "51", message: "Insufficient funds" }, true],
  ["sale-retry-91", { kind: "retryable", code: "91" }, true],
  ["sale-failed-unavailable", { kind: "unavailable", message: "Processor unavailable" }, false],
  ["sale-action-required", { kind: "challenge" }, true],
  ["sale-pending", { kind: "pending" }, true],
  ["challenge-failed", { kind: "declined", code: "05", message: "3-D Secure authentication failed" }, true],
  ["lookup-by-id-pending", { kind: "pending" }, true],
  ["lookup-by-id-unknown", { kind: "unknown" }, false],
  ["lookup-by-key-found", { kind: "approved" }, true],
  ["lookup-by-key-fenced", { kind: "unavailable", message: "The processor has no record of this attempt" }, false],
  ["sale-after-fence", { kind: "unavailable", message: "The processor has no record of this attempt" }, false],
  ["refund-approved", { kind: "approved" }, true],
  ["unauthorized", { kind: "unavailable" }, false],
  ["invalid-request", { kind: "unavailable" }, false],
];

t.test("every recorded answer classifies as the status table says", async (t) => {
  for (const [name, expected, withId] of EXPECTED) {
    const f = fixture(name);
    const out = toOutcome(f.http, f.body);
    t.match(out, expected, `${name} (HTTP ${f.http} ${f.body.status ?? f.body.error}): ${expected.kind}`);
    if (withId) t.equal("transactionId" in out && out.transactionId, f.body.id, `${name}: the acquirer's id is kept`);
    if (out.kind === "unavailable") t.notOk(out.mayArriveLate, `${name}: this acquirer fences, so "not taken" is final`);
  }
});

t.test("what the platform sees from the recorded answers", async (t) => {
  const sees = (name: string, last: boolean) => {
    const d = decide("sale", toOutcome(fixture(name).http, fixture(name).body), last);
    return `${d.to?.status ?? "stays"}${d.depositState ? `/${d.depositState}` : ""}${d.errorCode ? `/${d.errorCode}` : ""}`;
  };
  t.equal(sees("sale-approved", true), "approved");
  t.equal(sees("sale-declined-05", false), "declined/N/5", "a plain decline never cascades");
  t.equal(sees("sale-retry-91", false), "declined_retry/91", "91 is the cascade's cue");
  t.equal(sees("sale-retry-91", true), "declined/N/91", "...and declined on the last processor");
  t.equal(sees("sale-failed-unavailable", true), "declined/E/9001");
  t.equal(sees("sale-action-required", true), "pending_async");
  t.equal(sees("sale-pending", true), "stays");
  t.equal(sees("lookup-by-key-fenced", true), "declined/E/9001", "a fenced lookup settles the attempt at once");
});

t.test("answers that are not the acquirer's shape are unknown, never a decline", async (t) => {
  const rows: [http: number, body: unknown][] = [
    [500, { error: "internal" }],
    [502, undefined],
    [503, { error: "service_unavailable" }],
    [200, undefined],
    [200, { status: "approved" }],
    [200, { id: "x", status: "reversed" }],
    [429, {}],
  ];
  for (const [http, body] of rows) {
    const out = toOutcome(http, body);
    t.equal(out.kind, "unknown", `HTTP ${http} ${JSON.stringify(body)}: unknown`);
    t.equal(decide("sale", out, true).to, undefined, "the attempt stays pending and is asked again");
  }
});

t.test("the status table has one row per acquirer status and decline class", async (t) => {
  const keys = STATUS_TABLE.map((r) => `${r.status}/${r.code ?? "*"}`);
  t.equal(new Set(keys).size, keys.length, "no two rows for one status");
  t.same(new Set(STATUS_TABLE.map((r) => r.status)), new Set(["approved", "declined", "pending", "action_required", "failed"]));
});

t.test("request bodies: the CVV only when given, a refund names its sale", async (t) => {
  const card = { number: "4111111111111111", expiry: "12/2030", cvv: "123" };
  t.same(paymentBody("sale", { traceId: 1, amountMinor: 1050, currency: "USD", card }), fixture("sale-approved").request.body, "as recorded");
  t.same(paymentBody("payout", { traceId: 1, amountMinor: 5, currency: "EUR", card: { ...card, cvv: "" } }), {
    operation: "payout",
    amount: 5,
    currency: "EUR",
    card: { number: card.number, expiry: card.expiry },
  });
  t.same(
    paymentBody("refund", { traceId: 2, amountMinor: 500, currency: "USD", card: { ...card, cvv: "" }, saleTransactionId: "sim-a-a1-x" }).original_payment_id,
    "sim-a-a1-x",
  );
});
