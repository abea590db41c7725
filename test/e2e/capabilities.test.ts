/**
 * A processor that lacks a capability, in the running service: the merchant's
 * first processor (sim-a) is swapped for one that declares sales and status
 * lookups only (the real sim connector's calls, nothing stubbed). A payout or
 * a refund is then refused by name, as the platform sees it: HTTP 400, status
 * 17, the description naming the processor and the operation, and no order
 * made; sales go on as before.
 */
import t from "tap";
import { ProcessorRegistry } from "../../engine/payments/processors/registry.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const svc = useService(t);

t.before(async () => {
  const deps = svc().engine.deps;
  const full = deps.processors;
  const simA = full.get("sim-a");
  const simB = full.get("sim-b");
  if (!simA || !simB) throw new Error("the simulated processors are not registered");
  const salesOnly = { name: "sim-a", capabilities: { sale: simA.capabilities.sale, statusLookup: simA.capabilities.statusLookup } };
  deps.processors = new ProcessorRegistry([salesOnly, simB]);
});

t.test("a payout through a processor without payouts: 400, status 17, named; no order is made", async (t) => {
  const oid = orderId("nopay");
  const r = await processSale(svc().edgeUrl, { order_id: oid, transaction_type: "payout", cvv: undefined });
  t.equal(r.http, 400);
  t.equal(r.body.status, 17);
  t.match(r.body.description, /processor sim-a does not support payouts/);
  const rows = await svc().sql("select 1 from payment_order where order_id = $1", [oid]);
  t.equal(rows.length, 0, "nothing recorded");
});

t.test("a sale still goes through; its refund is refused by name", async (t) => {
  const sale = await processSale(svc().edgeUrl, { order_id: orderId("sale") });
  t.equal(sale.http, 200);
  t.equal(sale.body.transaction_status, "approved");
  const refund = await processSale(svc().edgeUrl, {
    order_id: orderId("refund"),
    transaction_type: "refund",
    reference_id: String(sale.body.trace_id),
    amount: 500,
    cvv: undefined,
  });
  t.equal(refund.http, 400);
  t.equal(refund.body.status, 17);
  t.match(refund.body.description, /processor sim-a does not support refunds/);
});
