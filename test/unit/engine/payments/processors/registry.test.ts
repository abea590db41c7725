/**
 * Capabilities: a processor declares what it can do, and what it has not
 * declared is refused by name, with the same words for every caller.
 */
import t from "tap";
import { REASONS } from "../../../../../engine/shared/errors.ts";
import type { CAPABILITIES, Processor } from "../../../../../engine/payments/processors/processor.ts";
import { ProcessorRegistry } from "../../../../../engine/payments/processors/registry.ts";

const approved = async () => ({ kind: "approved" as const, transactionId: "x" });
const saleOnly: Processor = { name: "acq-sale", capabilities: { sale: { authorize: approved } } };
const payoutsOnly: Processor = { name: "acq-pay", capabilities: { payout: { payout: approved }, statusLookup: { status: approved, find: approved } } };
const reg = new ProcessorRegistry([saleOnly, payoutsOnly]);

t.test("a declared capability gives its calls", async (t) => {
  const c = reg.capability("acq-sale", "sale");
  t.ok(c.ok);
  if (c.ok)
    t.same(
      await c.calls.authorize({ traceId: 1, amountMinor: 1, currency: "USD", card: { number: "4111111111111111", cvv: "", expiry: "12/2030" } }),
      await approved(),
    );
  t.ok(reg.supports("acq-pay", "statusLookup"));
});

t.test("a missing capability is refused by name: processor and operation", async (t) => {
  const rows: [name: string, cap: (typeof CAPABILITIES)[number], says: string][] = [
    ["acq-sale", "payout", "processor acq-sale does not support payouts"],
    ["acq-sale", "refund", "processor acq-sale does not support refunds"],
    ["acq-sale", "threeDSecure", "processor acq-sale does not support 3-D Secure"],
    ["acq-sale", "statusLookup", "processor acq-sale does not support status lookups"],
    ["acq-pay", "sale", "processor acq-pay does not support sales"],
    ["nobody", "sale", "processor nobody is not configured in this engine"],
  ];
  for (const [name, cap, says] of rows) {
    const c = reg.capability(name, cap);
    t.notOk(c.ok, `${name} ${cap}: refused`);
    if (c.ok) continue;
    t.equal(c.error.message, says);
    t.equal(c.error.reason, "CAPABILITY_MISSING");
    t.equal(reg.supports(name, cap), false);
  }
  t.same(REASONS.CAPABILITY_MISSING, { grpc: "FAILED_PRECONDITION", http: 400, status: 17 }, "a client-side class: 400, status > 0, never 5xx");
});
