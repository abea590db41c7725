/**
 * The Backoffice's money actions over its own HTTP pages, against the running
 * service and a loopback platform: a refund of an approved sale in part and
 * in full (reviewed with its amount and currency, sent once however often its
 * form is), one above what remains refused naming the amount, four eyes above
 * the merchant's amount (the first operator's refund waits; a second makes
 * it), a sale waiting for its 3-D Secure answer cancelled and an approved one
 * refused, a payout held (out of the queue, no approval taken, bulk or
 * single) and released, bulk rejection and cancellation with one result per
 * payout, and forged forms of roles that may not refused by the engine. The
 * platform gets its callbacks (notifications; UpdatePayout with UpdatedBy
 * backoffice:<login>), and every action has its audit row.
 */
import t from "tap";
import { enrolOperators, startConsole, type ConsoleClient } from "../support/backoffice.ts";
import type { ReceivedCall } from "../support/platform-stub.ts";
import { usePlatformService } from "../support/platform-service.ts";
import { orderId, processSale } from "../support/wire.ts";

const { svc, stub } = usePlatformService(t, { CASHIER_CALLBACK_RETRY_SECONDS: "1,1" });
const body = (c: ReceivedCall) => c.body as Record<string, unknown>;
const WAIT = { timeoutMs: 120_000 };

let consoleUrl = "";
let close: () => Promise<void> = async () => {};
let ops: Map<string, ConsoleClient>;
const as = (login: string) => ops.get(login)!;

t.before(async () => {
  const bo = await startConsole(svc());
  consoleUrl = bo.url;
  close = () => bo.close();
  ops = await enrolOperators(svc(), consoleUrl, [
    ["pay-ann", "payouts"],
    ["pay-ben", "payouts"],
    ["sup-sam", "support"],
    ["view-vic", "viewer"],
  ]);
});
t.teardown(() => close());

/** A sale at m-plat-manual (no Validation) whose notifications go to the platform. */
async function sale(amount: number, card = "4111111111111111") {
  const oid = orderId("bo-sale");
  const r = await processSale(svc().edgeUrl, {
    merchant_id: "m-plat-manual",
    frontend: "manual-usd",
    order_id: oid,
    amount,
    card_number: card,
    notification_url: `${stub().url}/notify`,
  });
  return { oid, traceId: r.body.trace_id as number, status: r.body.transaction_status as string };
}

async function payout(amount: number) {
  const r = await processSale(svc().edgeUrl, {
    merchant_id: "m-plat-manual",
    frontend: "manual-usd",
    order_id: orderId("bo-po"),
    transaction_type: "payout",
    cvv: undefined,
    amount,
  });
  if (r.body.transaction_status !== "requested") throw new Error(`the payout is not waiting: ${r.text}`);
  return r.body.trace_id as number;
}

/** The refunds of a sale as the database keeps them. */
const refundsOf = (saleTraceId: number) =>
  svc().sql<{ trace_id: number; amount_minor: string; status: string; created_by: string; order_id: string }>(
    "select t.trace_id, o.amount_minor, t.status, o.created_by, o.order_id from payment_order o join transaction t on t.order_ref = o.id where o.reference_trace_id = $1 order by t.trace_id",
    [saleTraceId],
  );

const audit = (action: string, target: string) =>
  svc().sql<{ actor: string; outcome: string; detail: string }>("select actor, outcome, detail from audit_log where action = $1 and target = $2 order by id", [
    action,
    target,
  ]);

/** Posts a money form in its two steps, as a person would: the review page first, then its confirm button. */
async function reviewAndConfirm(c: ConsoleClient, path: string, fields: Record<string, string>, from: string) {
  const review = await c.post(path, { ...fields, step: "review" }, from);
  const hidden = Object.fromEntries(
    [...review.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2].replace(/&amp;/g, "&")]),
  );
  delete hidden.csrf_token;
  const confirm = await c.post(path, { ...hidden }, from);
  return { review, confirm };
}

/** The refund form's own key on the sale's page: the same form sent twice refunds once. */
async function requestIdOn(c: ConsoleClient, traceId: number): Promise<string> {
  const page = await c.get(`/transactions/${traceId}`);
  return /name="request_id" value="([^"]+)"/.exec(page.body)?.[1] ?? "";
}

t.test("a refund in part, then in full: reviewed with its amount and currency, sent once, the platform notified", async (t) => {
  const s = await sale(1050);
  t.equal(s.status, "approved");
  const from = `/transactions/${s.traceId}`;
  const key = await requestIdOn(as("pay-ann"), s.traceId);
  t.ok(key, "the detail page offers the refund form to a payouts operator");
  const { review, confirm } = await reviewAndConfirm(
    as("pay-ann"),
    from + "/refund",
    { amount: "3.00", reason: "goodwill, customer called", request_id: key },
    from,
  );
  t.equal(review.status, 200);
  t.match(review.body, /Refund 3\.00 USD of sale \d+ to card/, "the review says the amount and its currency");
  t.equal(confirm.status, 303);
  t.match(confirm.location, /notice=refunded/);
  let refunds = await refundsOf(s.traceId);
  t.same(
    refunds.map((r) => [Number(r.amount_minor), r.status, r.created_by]),
    [[300, "approved", "backoffice:pay-ann"]],
  );
  t.equal(refunds[0].order_id, `bo-refund-${key}`);
  // The same confirmed form again (a double click): the same refund, nothing more moves.
  const again = await as("pay-ann").post(from + "/refund", { amount: "3.00", reason: "goodwill, customer called", request_id: key, step: "confirm" }, from);
  t.equal(again.status, 303);
  t.equal((await refundsOf(s.traceId)).length, 1, "one refund for one form");
  const [note] = await stub().waitFor("notification", (c) => body(c).order_id === `bo-refund-${key}`, WAIT);
  t.equal(body(note).transaction_status, "approved", "the platform is notified of the refund");

  const over = await as("pay-ann").post(
    from + "/refund",
    { amount: "8.00", reason: "the rest", request_id: await requestIdOn(as("pay-ann"), s.traceId), step: "confirm" },
    from,
  );
  t.equal(over.status, 409);
  t.match(over.body, /amount: 8\.00 USD exceeds what remains refundable of the sale \(7\.50 USD\)/, "over-refund refused naming the amount and what remains");
  t.equal((await refundsOf(s.traceId)).length, 1);
  const bad = await as("pay-ann").post(from + "/refund", { amount: "1,50", reason: "x", request_id: "k".repeat(12), step: "review" }, from);
  t.equal(bad.status, 400);
  t.match(bad.body, /Amount: enter an amount in USD/);
  const card = await as("pay-ann").post(
    from + "/refund",
    { amount: "1.00", reason: "to 4111 1111 1111 1111", request_id: "c".repeat(12), step: "confirm" },
    from,
  );
  t.equal(card.status, 400);
  t.match(card.body, /reason: must not hold a card number/, "a card number in the reason is refused naming the field");

  const full = await reviewAndConfirm(
    as("pay-ann"),
    from + "/refund",
    { amount: "7.50", reason: "the rest", request_id: await requestIdOn(as("pay-ann"), s.traceId) },
    from,
  );
  t.equal(full.confirm.status, 303);
  refunds = await refundsOf(s.traceId);
  t.same(
    refunds.map((r) => Number(r.amount_minor)),
    [300, 750],
  );
  t.match((await as("pay-ann").get(from)).body, /refunded in full/, "nothing more is offered");
  const rows = await audit("transaction.refund", `trace_id:${s.traceId}`);
  t.same(
    rows.filter((r) => r.outcome === "success").map((r) => r.actor),
    ["pay-ann", "pay-ann"],
    "each refund made has its audit row",
  );
  t.ok(
    rows.some((r) => r.outcome === "failure" && /exceeds what remains refundable/.test(r.detail)),
    "the refused one too",
  );
});

t.test("four eyes above the merchant's amount: the first operator's refund waits, another's makes it", async (t) => {
  await svc().sql("insert into four_eyes_threshold (merchant_id, currency, amount) values ('m-plat-manual', 'USD', 500) on conflict do nothing");
  t.teardown(() => svc().sql("delete from four_eyes_threshold where merchant_id = 'm-plat-manual'"));
  const s = await sale(1050);
  const from = `/transactions/${s.traceId}`;
  const first = await reviewAndConfirm(
    as("pay-ann"),
    from + "/refund",
    { amount: "10.50", reason: "chargeback threat", request_id: await requestIdOn(as("pay-ann"), s.traceId) },
    from,
  );
  t.match(first.review.body, /first of two approvals/, "the review says that this is the first of two");
  t.match(first.confirm.location, /notice=refund-first/);
  t.equal((await refundsOf(s.traceId)).length, 0, "no money moves on one approval");
  t.match((await as("pay-ann").get(from)).body, /You asked for a refund of 10\.50 USD/);
  const alone = await as("pay-ann").post(from + "/refund", { amount: "10.50", reason: "again", request_id: "second-try-by-ann", step: "confirm" }, from);
  t.equal(alone.status, 409, "the same operator cannot give the second approval");
  t.equal((await refundsOf(s.traceId)).length, 0);
  t.match((await as("pay-ben").get(from)).body, /pay-ann asked for a refund of 10\.50 USD/, "the second operator sees the request");
  const second = await reviewAndConfirm(
    as("pay-ben"),
    from + "/refund",
    { amount: "10.50", reason: "agreed", request_id: await requestIdOn(as("pay-ben"), s.traceId) },
    from,
  );
  t.equal(second.confirm.status, 303);
  t.same(
    (await refundsOf(s.traceId)).map((r) => [Number(r.amount_minor), r.created_by]),
    [[1050, "backoffice:pay-ben"]],
  );
  const rows = await svc().sql<{ action: string; actor: string }>(
    "select action, actor from audit_log where target = $1 and outcome = 'success' and action like 'transaction.refund%' order by id",
    [`trace_id:${s.traceId}`],
  );
  t.same(
    rows.map((r) => `${r.action} ${r.actor}`),
    ["transaction.refund.first pay-ann", "transaction.refund pay-ben"],
  );
});

t.test("a sale waiting for its 3-D Secure answer is cancelled; an approved one is refused saying why", async (t) => {
  const s = await sale(2000, "4000000000003220");
  t.equal(s.status, "pending_async");
  const from = `/transactions/${s.traceId}`;
  const { review, confirm } = await reviewAndConfirm(as("pay-ann"), from + "/cancel", { reason: "customer gave up on the phone" }, from);
  t.match(review.body, /Cancel sale \d+ of 20\.00 USD\?/, "the review says the amount and its currency");
  t.match(confirm.location, /notice=cancelled/);
  const [row] = await svc().sql<{ status: string; error_code: number }>("select status, error_code from transaction where trace_id = $1", [s.traceId]);
  t.same([row.status, row.error_code], ["cancelled", 9007]);
  const [note] = await stub().waitFor("notification", (c) => body(c).order_id === s.oid && body(c).transaction_status === "cancelled", WAIT);
  t.ok(note, "the platform is notified");
  t.same(
    (await audit("transaction.cancel", `trace_id:${s.traceId}`)).map((r) => `${r.actor} ${r.outcome}`),
    ["pay-ann success"],
  );
  const done = await sale(1000);
  const refused = await as("pay-ann").post(`/transactions/${done.traceId}/cancel`, { reason: "try", step: "confirm" }, `/transactions/${done.traceId}`);
  t.equal(refused.status, 409);
  t.match(refused.body, /the sale is approved: only a sale still waiting for its customer can be cancelled/);
});

t.test("a held payout leaves the queue and takes no approval until released", async (t) => {
  const id = await payout(2500);
  const held = await as("pay-ann").post(`/payouts/${id}/hold`, { reason: "KYC documents requested" }, `/payouts/${id}`);
  t.equal(held.status, 303);
  const queue = await as("pay-ben").get("/payouts");
  t.notMatch(queue.body, new RegExp(`id="select-${id}"`), "not in the queue");
  t.match(queue.body, new RegExp(`id="held-${id}"`), "listed on hold");
  t.match(queue.body, /Held by pay-ann: KYC documents requested/);
  const bulk = await as("pay-ben").post("/payouts/bulk-approve", { trace_id: [String(id)], reason: "checks_passed" }, "/payouts");
  t.match(bulk.body, /held by pay-ann \(KYC documents requested\): release it before approving it/, "bulk approval takes no held payout");
  const single = await as("pay-ben").post(`/payouts/${id}/decision`, { decision: "approve", reason: "checks_passed" }, `/payouts/${id}`);
  t.equal(single.status, 409);
  const [still] = await svc().sql<{ status: string }>("select status from transaction where trace_id = $1", [id]);
  t.equal(still.status, "requested");
  const released = await as("pay-ben").post(`/payouts/${id}/release`, { reason: "documents received" }, `/payouts/${id}`);
  t.equal(released.status, 303);
  t.match((await as("pay-ben").get("/payouts")).body, new RegExp(`id="select-${id}"`), "back in the queue");
  t.same(
    (
      await svc().sql<{ action: string; actor: string }>("select action, actor from audit_log where target = $1 and outcome = 'success' order by id", [
        `trace_id:${id}`,
      ])
    ).map((r) => `${r.action} ${r.actor}`),
    ["payout.hold pay-ann", "payout.release pay-ben"],
  );
});

t.test("bulk rejection and cancellation: reviewed with amounts, one result each, UpdatePayout by backoffice:<login>", async (t) => {
  const a = await payout(1100);
  const b = await payout(1200);
  const noReason = await as("pay-ann").post("/payouts/bulk-decide", { trace_id: [String(a), String(b)], decision: "reject" }, "/payouts");
  t.equal(noReason.status, 400, "a reason is required");
  const { review, confirm } = await reviewAndConfirm(
    as("pay-ann"),
    "/payouts/bulk-decide",
    { trace_id: String(a), decision: "reject", refusal_reason: "suspected_fraud", refusal_note: "same device as a chargeback" },
    "/payouts",
  );
  t.match(review.body, /11\.00 USD/, "the review lists each payout's amount and currency");
  t.equal(confirm.status, 200);
  t.match(confirm.body, /Rejected/);
  const [up] = await stub().waitFor("update_payout", (c) => body(c).TraceID === a && body(c).Status === "J", WAIT);
  t.equal(body(up).UpdatedBy, "backoffice:pay-ann");
  const cancel = await reviewAndConfirm(
    as("pay-ben"),
    "/payouts/bulk-decide",
    { trace_id: String(b), decision: "cancel", refusal_reason: "duplicate" },
    "/payouts",
  );
  t.match(cancel.confirm.body, /Cancelled/);
  const [upC] = await stub().waitFor("update_payout", (c) => body(c).TraceID === b && body(c).Status === "C", WAIT);
  t.equal(body(upC).UpdatedBy, "backoffice:pay-ben");
  const twice = await as("pay-ben").post(
    "/payouts/bulk-decide",
    { trace_id: [String(a), String(b)], decision: "cancel", refusal_reason: "duplicate", step: "confirm" },
    "/payouts",
  );
  t.equal((twice.body.match(/status bad/g) ?? []).length, 2, "each payout its own result: neither can be cancelled now");
});

t.test("forged forms of roles that may not are refused by the engine, and audited", async (t) => {
  const s = await sale(900);
  const id = await payout(1300);
  const from = `/transactions/${s.traceId}`;
  t.notMatch((await as("view-vic").get(from)).body, /name="request_id"/, "no refund form is offered to a viewer");
  for (const login of ["view-vic", "sup-sam"]) {
    const refund = await as(login).post(from + "/refund", { amount: "9.00", reason: "forged", request_id: `forged-by-${login}`, step: "confirm" }, from);
    t.equal(refund.status, 403, `${login}: refund`);
    const cancel = await as(login).post(from + "/cancel", { reason: "forged", step: "confirm" }, from);
    t.equal(cancel.status, 403, `${login}: cancel`);
    const hold = await as(login).post(`/payouts/${id}/hold`, { reason: "forged" }, "/payouts");
    t.equal(hold.status, 403, `${login}: hold`);
    const bulk = await as(login).post(
      "/payouts/bulk-decide",
      { trace_id: String(id), decision: "reject", refusal_reason: "abuse", step: "confirm" },
      "/payouts",
    );
    t.equal(bulk.status, 403, `${login}: bulk reject`);
  }
  t.equal((await refundsOf(s.traceId)).length, 0);
  const [po] = await svc().sql<{ status: string }>("select status from transaction where trace_id = $1", [id]);
  t.equal(po.status, "requested");
  const denied = await svc().sql<{ actor: string; action: string }>(
    "select actor, action from audit_log where outcome = 'failure' and detail like 'role % does not allow %' and actor in ('view-vic', 'sup-sam') order by id",
  );
  t.same(
    denied.map((r) => `${r.actor} ${r.action}`),
    [
      "view-vic transaction.refund",
      "view-vic transaction.cancel",
      "view-vic payout.hold",
      "view-vic payout.decide",
      "sup-sam transaction.refund",
      "sup-sam transaction.cancel",
      "sup-sam payout.hold",
      "sup-sam payout.decide",
    ],
  );
});
