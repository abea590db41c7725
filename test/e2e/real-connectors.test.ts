/**
 * The real connectors end to end (issue 30, point 7): Cashier with the example merchants file
 * (docs/examples/merchants.json, its accounts' urls pointed at this file's acquirer simulator), whose merchant has
 * only a `checkout` and an `adyen` account, and a second merchant with the same accounts in the other order. Over
 * the signed merchant API and over gRPC: sales approved through each acquirer, a soft decline (each dialect's
 * documented trigger) cascading to the other acquirer, a hard decline stopping there, full and partial refunds of a
 * Checkout sale, a Checkout card payout and an Adyen payout refused by name. 3-D Secure: acquirer-3ds.test.ts;
 * routing rules: routing.test.ts.
 *
 * Not covered here: the requests the simulator received against the acquirers' schemas, since its ledger keeps
 * only what it decided, never the requests (the simulator's dialect tests check its answers).
 */
import { readFileSync } from "node:fs";
import t from "tap";
import { TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { saleRequest } from "../support/engine-request.ts";
import { useDialectService } from "../support/dialect-service.ts";
import { orderId, processSale, replySigned } from "../support/wire.ts";
import { until } from "../support/until.ts";

const EXAMPLE = new URL("../../docs/examples/merchants.json", import.meta.url);
/** Where the example's accounts point: `npm run acquirer-sim`'s default address. */
const EXAMPLE_SIM = "http://127.0.0.1:8090";

const example = JSON.parse(readFileSync(EXAMPLE, "utf8"));
const shop = example.merchants[0];
const SECRET: string = shop.secret;
const FRONTEND: string = shop.frontends[0].name;

/** The example with its accounts at `simUrl`, and a second merchant whose cascade starts at Adyen. */
function merchantsFile(simUrl: string) {
  const text = readFileSync(EXAMPLE, "utf8").replaceAll(EXAMPLE_SIM, simUrl);
  const file = JSON.parse(text);
  const first = file.merchants[0];
  const adyenFirst = { ...structuredClone(first), merchant_id: "m-shop-adyen-first", processors: [...first.processors].reverse() };
  return { merchants: [first, adyenFirst] };
}

const { service, acquirer } = useDialectService(t, merchantsFile);

const [CKO_ACCOUNT, ADYEN_ACCOUNT] = shop.processors as [string, string];

/** A signed sale (or other operation) of the example merchant, or of `m-shop-adyen-first`. */
const sale = (over: Record<string, unknown> = {}) => processSale(service().edgeUrl, { merchant_id: shop.merchant_id, frontend: FRONTEND, ...over }, SECRET);
const adyenFirst = (over: Record<string, unknown> = {}) => sale({ merchant_id: "m-shop-adyen-first", ...over });

/** Checkout.com's soft decline by amount: any amount ending in 05 declines 20005 (Do not honour). */
const CKO_SOFT_AMOUNT = 1005;
/** Checkout.com's hard decline card: 30041, Lost card - Pick up. */
const CKO_HARD_CARD = "4941202060999329";
/** Adyen's soft refusal by holder name: 9, Issuer Unavailable. */
const ADYEN_SOFT_HOLDER = { first_name: "ISSUER_UNAVAILABLE", last_name: ":soft" };
/** Adyen's hard refusal by holder name: 5, Blocked Card. */
const ADYEN_HARD_HOLDER = { first_name: "BLOCK_CARD", last_name: ":hard" };

/** The order's attempt `n` (1: the one the reply named), its status and account, once there is one. */
async function attempt(oid: string, n: number): Promise<{ status: string; processor: string } | undefined> {
  const rows = await service().sql<{ status: string; processor: string }>(
    "select t.status, t.processor from transaction t join payment_order o on o.id = t.order_ref where o.order_id = $1 and t.attempt = $2",
    [oid, n],
  );
  return rows[0];
}

/** Waits for the order's second attempt to end approved, and returns it (undefined if it did not within 10 s). */
const secondApproved = (oid: string) => until(async () => ((await attempt(oid, 2))?.status === "approved" ? attempt(oid, 2) : undefined), 10_000, 100);

t.test("a sale through Checkout.com, the merchant's first account, is approved and names it", async (t) => {
  const r = await sale();
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "approved");
  t.equal(r.body.payment_processor, CKO_ACCOUNT);
  t.ok(replySigned(r.body, SECRET));
});

t.test("a sale through Adyen, the other merchant's first account, is approved and names it", async (t) => {
  const r = await adyenFirst({ currency: "EUR" });
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "approved");
  t.equal(r.body.payment_processor, ADYEN_ACCOUNT);
  t.ok(replySigned(r.body, SECRET));
});

t.test("over gRPC: a sale of each merchant is approved at its first acquirer", async (t) => {
  const cko = await service().client.process(saleRequest({ merchantId: shop.merchant_id, frontend: FRONTEND }));
  t.equal(cko.transaction?.status, TransactionStatus.APPROVED);
  t.equal(cko.transaction?.paymentProcessor, CKO_ACCOUNT);
  const ady = await service().client.process(saleRequest({ merchantId: "m-shop-adyen-first", frontend: FRONTEND }));
  t.equal(ady.transaction?.status, TransactionStatus.APPROVED);
  t.equal(ady.transaction?.paymentProcessor, ADYEN_ACCOUNT);
});

t.test("a soft decline at Checkout.com (an amount ending in 05) cascades to Adyen, which approves", async (t) => {
  const oid = orderId("cko-soft");
  const r = await sale({ order_id: oid, amount: CKO_SOFT_AMOUNT });
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "declined_retry", "Checkout.com's 20005 is a soft decline");
  t.equal(r.body.payment_processor, CKO_ACCOUNT);
  t.ok(replySigned(r.body, SECRET));
  t.same(await secondApproved(oid), { status: "approved", processor: ADYEN_ACCOUNT }, "the next attempt, at Adyen, is approved");
});

t.test("a soft refusal at Adyen (holder ISSUER_UNAVAILABLE) cascades to Checkout.com, which approves", async (t) => {
  const oid = orderId("adyen-soft");
  const r = await adyenFirst({ order_id: oid, ...ADYEN_SOFT_HOLDER });
  t.equal(r.body.transaction_status, "declined_retry", "Adyen's refusal 9 is a soft one");
  t.equal(r.body.payment_processor, ADYEN_ACCOUNT);
  t.same(await secondApproved(oid), { status: "approved", processor: CKO_ACCOUNT }, "the next attempt, at Checkout.com, is approved");
});

/** Gives a cascade that was going on the time to have made its next attempt. */
const settle = () => new Promise((res) => setTimeout(res, 2000));

t.test("a hard decline at Checkout.com (a lost card) stops the cascade: declined there, Adyen never asked", async (t) => {
  const oid = orderId("cko-hard");
  const r = await sale({ order_id: oid, card_number: CKO_HARD_CARD });
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "declined");
  t.equal(r.body.payment_processor, CKO_ACCOUNT);
  t.ok(replySigned(r.body, SECRET));
  t.comment(`declined: ${r.body.error_code} ${r.body.error_details ?? ""}`);
  await settle();
  t.equal(await attempt(oid, 2), undefined, "no second attempt");
});

t.test("a hard refusal at Adyen (holder BLOCK_CARD) stops the cascade there", async (t) => {
  const oid = orderId("adyen-hard");
  const r = await adyenFirst({ order_id: oid, ...ADYEN_HARD_HOLDER });
  t.equal(r.body.transaction_status, "declined");
  t.equal(r.body.payment_processor, ADYEN_ACCOUNT);
  await settle();
  t.equal(await attempt(oid, 2), undefined, "no second attempt");
});

/** The transaction's status as GetTransaction gives it. */
const statusOf = async (traceId: number) => (await service().client.getTransaction({ traceId })).transaction?.status;

t.test("a Checkout.com sale refunded in part, then in full of what is left: accepted pending, then settled by a lookup of its sale's actions", async (t) => {
  // Checkout.com answers a refund 202 and gives its verdict by webhook (payment_refunded). Here the simulator's
  // webhooks go to this test's receiver, not to Cashier: the refund is settled by the follow-up's lookup, which finds
  // it among its sale's actions (GET /payments/{id}/actions) by its action id. The webhook's step at Cashier's
  // /webhooks route belongs to test/e2e/acquirer-webhooks.test.ts.
  const s = await sale({ amount: 2000 });
  t.equal(s.body.transaction_status, "approved");
  t.equal(s.body.payment_processor, CKO_ACCOUNT);
  const refund = (amount: number) =>
    sale({ order_id: orderId("refund"), transaction_type: "refund", reference_id: String(s.body.trace_id), amount, cvv: undefined });
  const refundedHook = (traceId: number) => (r: { body: Record<string, any> }) =>
    r.body.type === "payment_refunded" && r.body.data?.reference === String(traceId);

  for (const [label, amount] of [
    ["partial", 500],
    ["the rest", 1500],
  ] as const) {
    const r = await refund(amount);
    t.equal(r.http, 200, label);
    t.ok(replySigned(r.body, SECRET));
    t.equal(r.body.transaction_status, "pending", `${label}: accepted, its verdict to come`);
    t.equal(r.body.payment_processor, CKO_ACCOUNT, "back through its sale's account");
    const [hook] = await acquirer().hooks.waitFor(refundedHook(r.body.trace_id));
    t.equal((hook.body.data as { amount?: number }).amount, amount, `${label}: Checkout.com refunded ${amount} and says so by webhook`);
    t.ok(await until(async () => (await statusOf(r.body.trace_id)) === TransactionStatus.APPROVED, 30_000, 200), `${label}: approved by the lookup`);
    const tx = (await service().client.getTransaction({ traceId: r.body.trace_id })).transaction;
    t.equal(tx?.transactionType, TransactionType.REFUND);
    t.equal(tx?.transactionId, (hook.body.data as { action_id?: string }).action_id, `${label}: under its refund action's id`);
  }
  t.equal(await statusOf(s.body.trace_id), TransactionStatus.APPROVED, "the sale stays as it was");
});

t.test("a card payout through Checkout.com (the account has a currency account) is paid", async (t) => {
  const r = await sale({ order_id: orderId("payout"), transaction_type: "payout", cvv: undefined, amount: 2500 });
  t.equal(r.http, 200);
  t.ok(replySigned(r.body, SECRET));
  t.equal(r.body.payment_processor, CKO_ACCOUNT);
  t.comment(`payout answered ${r.body.transaction_status}`);
  t.ok(await until(async () => (await statusOf(r.body.trace_id)) === TransactionStatus.APPROVED, 15_000, 100), "the payout ends approved");
});

t.test("a payout through Adyen is refused by name: 400, status 17 (CAPABILITY_MISSING), no order made", async (t) => {
  const oid = orderId("adyen-payout");
  const r = await adyenFirst({ order_id: oid, transaction_type: "payout", cvv: undefined });
  t.equal(r.http, 400);
  t.equal(r.body.status, 17);
  t.match(r.body.description, new RegExp(`processor ${ADYEN_ACCOUNT} does not support payouts`));
  const rows = await service().sql("select 1 from payment_order where order_id = $1", [oid]);
  t.equal(rows.length, 0);
});

t.test("a Checkout.com refund whose answer was lost is found among its sale's actions by its trace_id, and ends as the refund did", async (t) => {
  const s = await sale({ amount: 3000 });
  t.equal(s.body.transaction_status, "approved");
  // The refund's trace_id is one of the sequence's next: its idempotency key (cashier-<trace_id>-refund) gets a
  // fault that takes the refund at the acquirer and cuts the connection before any answer.
  const [{ last }] = await service().sql<{ last: string }>("select last_value::text as last from transaction_trace_id_seq");
  const faults = `${acquirer().sim.url}/admin/faults`;
  t.teardown(() => fetch(faults, { method: "DELETE" }).then(() => undefined));
  for (let n = Number(last) + 1; n <= Number(last) + 3; n++) {
    const f = await fetch(faults, { method: "POST", body: JSON.stringify({ fault: "reset", idempotency_key: `cashier-${n}-refund` }) });
    t.equal(f.status, 201);
  }
  const r = await sale({ order_id: orderId("lost-refund"), transaction_type: "refund", reference_id: String(s.body.trace_id), amount: 1200, cvv: undefined });
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "pending", "no answer: not known to have failed, so pending");
  const before = (await service().client.getTransaction({ traceId: r.body.trace_id })).transaction;
  t.equal(before?.transactionId, "", "and no refund id: only a search by its reference can find it");
  const [hook] = await acquirer().hooks.waitFor(
    (h: { body: Record<string, any> }) => h.body.type === "payment_refunded" && h.body.data?.reference === String(r.body.trace_id),
  );
  t.equal((hook.body.data as { amount?: number }).amount, 1200, "Checkout.com took the refund all the same");
  t.ok(await until(async () => (await statusOf(r.body.trace_id)) === TransactionStatus.APPROVED, 30_000, 200), "the lookup finds it approved");
  const after = (await service().client.getTransaction({ traceId: r.body.trace_id })).transaction;
  t.equal(after?.transactionId, (hook.body.data as { action_id?: string }).action_id, "under the refund's own action id, not its sale's");
  t.equal(await statusOf(s.body.trace_id), TransactionStatus.APPROVED, "the sale stays as it was");
});
