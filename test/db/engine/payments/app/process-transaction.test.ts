/**
 * The Process use case in this process, over a real Postgres and no socket
 * (test/support/engine-deps.ts): the sale's result and what the database holds
 * after it, a repeat, a conflicting repeat, a refused input and a refund's
 * bound. The same rules seen through the edge are in test/e2e/process-http.
 */
import t from "tap";
import type { ProcessInput } from "../../../../../engine/shared/transaction.ts";
import { processTransaction } from "../../../../../engine/payments/app/process-transaction.ts";
import { aProcessInput } from "../../../../support/builders.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const engine = useEngineDeps(t);

t.before(async () => {
  await engine().merchants.upsert({
    merchantId: "m-unit",
    secret: "unit-secret-0123456789",
    processors: ["sim-a", "sim-b"],
    frontends: [{ name: "unit-usd", baseCurrency: "USD" }],
  });
});

let n = 0;
/** A new sale of 10.50 USD for m-unit on unit-usd, with the Visa test card (which sim-a approves). */
function input(over: Partial<ProcessInput> = {}): ProcessInput {
  n += 1;
  return aProcessInput({
    merchantId: "m-unit",
    orderId: `unit-${process.pid}-${n}`,
    frontend: "unit-usd",
    type: "sale",
    amountMinor: 1050,
    currency: "USD",
    card: { number: "4111111111111111" },
    ...over,
  });
}

t.test("an approved sale is recorded with its history, and its card only masked", async (t) => {
  const r = await processTransaction(engine().deps, input(), undefined);
  if (!r.ok) throw new Error(r.error.message);
  t.equal(r.attempt.status, "approved");
  t.equal(r.replayed, false);
  t.match(r.attempt.transactionId, /^sim-a-/, "the processor's id is kept");
  t.equal(r.attempt.cardMasked, "411111******1111");
  const [row] = await engine().sql<{ status: string; amount_minor: number }>(
    "select t.status, o.amount_minor from transaction t join payment_order o on o.id = t.order_ref where t.trace_id = ?",
    [r.attempt.traceId],
  );
  t.same(row, { status: "approved", amount_minor: 1050 }, "the database holds what the reply says");
  const history = await engine().sql<{ to_status: string }>("select to_status from transaction_event where trace_id = ? order by id", [r.attempt.traceId]);
  t.same(
    history.map((h) => h.to_status),
    ["pending", "approved"],
    "every status it went through",
  );
});

t.test("the same order again is the same transaction; with other parameters it is a conflict", async (t) => {
  const first = input();
  const a = await processTransaction(engine().deps, first, undefined);
  const b = await processTransaction(engine().deps, { ...first }, undefined);
  if (!a.ok || !b.ok) throw new Error("a repeat was refused");
  t.equal(b.replayed, true, "the repeat is answered from the record");
  t.equal(b.attempt.traceId, a.attempt.traceId, "with the first call's trace_id");
  const c = await processTransaction(engine().deps, { ...first, amountMinor: 999 }, undefined);
  t.equal(c.ok, false);
  if (!c.ok) {
    t.equal(c.error.reason, "ORDER_CONFLICT");
    t.match(c.error.message, /already used by this merchant with other parameters/);
  }
});

t.test("a refused input names its field and writes nothing", async (t) => {
  const bad = input({ amountMinor: 0 });
  const r = await processTransaction(engine().deps, bad, undefined);
  t.equal(r.ok, false);
  if (!r.ok) {
    t.equal(r.error.reason, "INVALID_FIELDS");
    t.ok(
      r.error.violations.some((f) => f.field === "amount"),
      `the amount is named (${r.error.message})`,
    );
  }
  const rows = await engine().sql("select 1 from payment_order where order_id = ?", [bad.orderId]);
  t.equal(rows.length, 0, "no order was written");
});

t.test("a refund may not exceed what the sale has left", async (t) => {
  const sale = await processTransaction(engine().deps, input(), undefined);
  if (!sale.ok) throw new Error(sale.error.message);
  const ref = String(sale.attempt.traceId);
  const part = await processTransaction(engine().deps, input({ type: "refund", referenceId: ref, amountMinor: 1000 }), undefined);
  t.equal(part.ok && part.attempt.status, "approved", "a refund within the sale is approved");
  const over = await processTransaction(engine().deps, input({ type: "refund", referenceId: ref, amountMinor: 51 }), undefined);
  t.equal(over.ok, false);
  if (!over.ok) {
    t.equal(over.error.reason, "REFUND_EXCEEDS_REMAINING", "50 left: 51 is refused");
    t.equal(
      over.error.message,
      "amount: 0.51 USD exceeds what remains refundable of the sale (0.50 USD)",
      "in the currency's decimals, whatever the caller's unit",
    );
    t.same(over.error.violations, [{ field: "amount", description: "exceeds the sale's refundable remainder of 0.50 USD" }]);
  }
});
