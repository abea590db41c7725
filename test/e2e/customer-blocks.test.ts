/**
 * Blocks and notes against the running service (engine, edge, Postgres, the
 * acquirer simulator), over HTTP for Process and the hosted Cashier's session
 * start and over gRPC for the console: a blocked customer, card, e-mail and BIN
 * each decline a sale with error_code 9008 and the kind in error_details,
 * before any processor call (the history has no processor step, no
 * processor transaction id); the refused transaction names its block to the
 * console; the hosted Cashier's deposit is declined alike; a refund of a
 * blocked customer's sale goes through; lifting the block lets the next sale
 * through. A viewer may not block and support may not lift (PERMISSION_DENIED
 * naming the action, audited); bad fields are named; notes are audited and a
 * card number in one is refused.
 */
import { randomBytes } from "node:crypto";
import t from "tap";
import { Code, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { BlockKind, ConsoleCustomerService } from "../../gen/cashier/admin/v1/console_customer_service_pb.js";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { movableClock } from "../support/clock.ts";
import { autologinOf, cashierClient, postSession, sessionBody } from "../support/cashier-session.ts";
import { backofficeClient, ctx, type EnrolledOperator, enrolOperator } from "../support/operators.ts";
import { SERVICE_TOKEN, useService } from "../support/service.ts";
import { orderId, post, processSale, saleBody, sign } from "../support/wire.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
const svc = useService(t, () => ({}), { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

function customers() {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${SERVICE_TOKEN}`);
    return next(req);
  };
  return createClient(ConsoleCustomerService, createGrpcTransport({ baseUrl: svc().engineUrl, interceptors: [auth] }));
}

const ops: Record<"support" | "viewer" | "payouts", EnrolledOperator> = {} as never;
const as = (op: EnrolledOperator) => ctx(op.sessionToken);
const PIN = `blk-${process.pid}`;

/** The attempt's history causes and processor transaction id, as the engine keeps them. */
async function trail(traceId: number): Promise<{ causes: string[]; transactionId: string }> {
  const got = await svc().client.getTransaction({ traceId });
  return { causes: got.transaction?.history.map((h) => h.cause) ?? [], transactionId: got.transaction?.transactionId ?? "" };
}

let firstSale = 0;

t.before(async () => {
  const sale = await processSale(svc().edgeUrl, { pin: PIN, order_id: orderId("blk-first") });
  if (sale.body.transaction_status !== "approved") throw new Error(`unexpected first sale: ${sale.text}`);
  firstSale = sale.body.trace_id;
  ops.support = await enrolOperator(svc(), bo(), clock, "blk-sue", "support");
  ops.viewer = await enrolOperator(svc(), bo(), clock, "blk-vic", "viewer");
  ops.payouts = await enrolOperator(svc(), bo(), clock, "blk-pat", "payouts");
});

const sale = (over: Record<string, unknown>) => processSale(svc().edgeUrl, { order_id: orderId("blk"), ...over });

t.test("a blocked customer's sale is declined with 9008 before any processor; its detail names the block; a lift lets the next through", async (t) => {
  const viewer = await refusal(
    customers().createBlock({ context: as(ops.viewer), merchantId: "m-test", pin: PIN, kind: BlockKind.CUSTOMER, reason: "chargebacks" }),
  );
  t.same([viewer.code, viewer.action], [Code.PermissionDenied, "customer.block"], "a viewer may not block");

  const made = await customers().createBlock({
    context: as(ops.support),
    merchantId: "m-test",
    pin: PIN,
    kind: BlockKind.CUSTOMER,
    reason: "three chargebacks in May",
  });
  const block = made.block!;
  t.same([block.kind, block.label, block.createdBy], [BlockKind.CUSTOMER, PIN, "backoffice:blk-sue"]);
  const again = await refusal(customers().createBlock({ context: as(ops.support), merchantId: "m-test", pin: PIN, kind: BlockKind.CUSTOMER, reason: "again" }));
  t.equal(again.code, Code.AlreadyExists, "a second block of the same customer: ALREADY_EXISTS");
  t.match(again.message, `block ${block.id}`, "naming the block that holds it");

  const refused = await sale({ pin: PIN });
  t.equal(refused.http, 200);
  t.same([refused.body.transaction_status, refused.body.error_code, refused.body.error_details], ["declined", 9008, "Blocked: the customer"]);
  t.notMatch(refused.text, "chargebacks", "the operator's reason is not the platform's to read");
  const tr = await trail(refused.body.trace_id);
  t.same(
    tr.causes.filter((c) => c.startsWith("processor:")),
    [],
    "no processor step in its history",
  );
  t.ok(tr.causes.includes(`block:${block.id}`), "the block's step is");
  t.equal(tr.transactionId, "", "no processor transaction id");

  const named = await customers().getRefusingBlock({ context: as(ops.viewer), traceId: refused.body.trace_id });
  t.same([named.block?.id, named.block?.reason], [block.id, "three chargebacks in May"], "the console names the block and its reason");
  t.equal(
    (await refusal(customers().getRefusingBlock({ context: as(ops.viewer), traceId: firstSale }))).code,
    Code.NotFound,
    "a sale no block refused: NOT_FOUND",
  );

  // A refund of the customer's earlier sale: the money goes back, never blocked.
  const refund = await post(
    svc().edgeUrl,
    sign(saleBody({ transaction_type: "refund", reference_id: String(firstSale), pin: PIN, order_id: orderId("blk-refund"), amount: 500 })),
  );
  t.equal(refund.body.transaction_status, "approved", "a refund of a blocked customer's sale goes through");

  const support = await refusal(customers().liftBlock({ context: as(ops.support), id: block.id, reason: "documents received" }));
  t.same([support.code, support.action], [Code.PermissionDenied, "customer.unblock"], "support may not lift");
  const short = await refusal(customers().liftBlock({ context: as(ops.payouts), id: block.id, reason: "ok" }));
  t.same([short.code, short.fields], [Code.InvalidArgument, ["reason"]], "a lift's reason of 2 characters: the field named");
  const lifted = await customers().liftBlock({ context: as(ops.payouts), id: block.id, reason: "documents received" });
  t.same([lifted.block?.liftedBy, lifted.block?.liftReason], ["backoffice:blk-pat", "documents received"]);
  t.equal(
    (await refusal(customers().liftBlock({ context: as(ops.payouts), id: block.id, reason: "twice over" }))).code,
    Code.FailedPrecondition,
    "lifted twice",
  );
  const through = await sale({ pin: PIN });
  t.equal(through.body.transaction_status, "approved", "lifted: the next sale goes through");

  const audit = await svc().sql<{ action: string; outcome: string; actor: string }>(
    "select action, outcome, actor from audit_log where action like 'customer.%' and (target = $1 or target = $2) order by id",
    [`block:${block.id}`, `customer:${PIN}`],
  );
  t.same(
    audit.map((r) => `${r.action} ${r.outcome} ${r.actor}`),
    [
      "customer.block failure blk-vic",
      "customer.block success blk-sue",
      "customer.block failure blk-sue",
      "customer.unblock failure blk-sue",
      "customer.unblock failure blk-pat",
      "customer.unblock success blk-pat",
      "customer.unblock failure blk-pat",
    ],
    "every block, lift and refusal is audited",
  );
});

t.test("a blocked card, e-mail or BIN declines another customer's sale, each named by its kind", async (t) => {
  const c = customers();
  const card = await c.createBlock({
    context: as(ops.support),
    merchantId: "m-test",
    pin: PIN,
    kind: BlockKind.CARD,
    cardTraceId: firstSale,
    reason: "stolen card reported",
  });
  t.equal(card.block?.label, "411111******1111", "a card block shows the masked number");
  const byCard = await sale({ pin: `${PIN}-other`, email: "other@example.com" });
  t.same([byCard.body.error_code, byCard.body.error_details], [9008, "Blocked: the card"], "the card, at another customer");

  const mail = await c.createBlock({
    context: as(ops.support),
    merchantId: "m-test",
    pin: PIN,
    kind: BlockKind.EMAIL,
    value: " Mule@Example.com ",
    reason: "money mule",
  });
  t.equal(mail.block?.label, "mule@example.com");
  const byMail = await sale({ pin: `${PIN}-m`, email: "MULE@example.com", card_number: "5555555555554444" });
  t.same([byMail.body.error_code, byMail.body.error_details], [9008, "Blocked: the e-mail"], "the e-mail, whatever its case");

  const bin = await c.createBlock({
    context: as(ops.support),
    merchantId: "m-test",
    pin: PIN,
    kind: BlockKind.BIN,
    value: "55555555",
    reason: "issuer under review",
  });
  const byBin = await sale({ pin: `${PIN}-b`, email: "b@example.com", card_number: "5555555555554444" });
  t.same([byBin.body.error_code, byBin.body.error_details], [9008, "Blocked: the card's BIN"], "the 8-digit BIN");
  const named = await c.getRefusingBlock({ context: as(ops.viewer), traceId: byBin.body.trace_id });
  t.equal(named.block?.id, bin.block?.id);

  // Each call made when its turn comes: a refusal left waiting would be an unhandled rejection.
  const faults: [string, () => Promise<unknown>, string][] = [
    [
      "a 7-digit BIN",
      () => c.createBlock({ context: as(ops.support), merchantId: "m-test", pin: PIN, kind: BlockKind.BIN, value: "5555555", reason: "review" }),
      "value",
    ],
    ["no kind", () => c.createBlock({ context: as(ops.support), merchantId: "m-test", pin: PIN, reason: "review" }), "kind"],
    [
      "a reason holding a card number",
      () =>
        c.createBlock({ context: as(ops.support), merchantId: "m-test", pin: PIN, kind: BlockKind.BIN, value: "400000", reason: "saw 4111 1111 1111 1111" }),
      "reason",
    ],
    [
      "another customer's attempt",
      () => c.createBlock({ context: as(ops.support), merchantId: "m-test", pin: "nobody", kind: BlockKind.CARD, cardTraceId: firstSale, reason: "review" }),
      "card_trace_id",
    ],
    ["no pin", () => c.createBlock({ context: as(ops.support), merchantId: "m-test", pin: "", kind: BlockKind.CUSTOMER, reason: "review" }), "pin"],
  ];
  for (const [name, call, field] of faults) {
    const r = await refusal(call());
    t.same([r.code, r.fields], [Code.InvalidArgument, [field]], name);
  }
  t.equal(
    (await refusal(c.createBlock({ context: as(ops.support), merchantId: "m-nowhere", pin: PIN, kind: BlockKind.CUSTOMER, reason: "review" }))).code,
    Code.NotFound,
  );

  for (const b of [card, mail, bin]) await c.liftBlock({ context: as(ops.payouts), id: b.block!.id, reason: "test over" });
  const page = await c.getCustomer({ context: as(ops.viewer), merchantId: "m-test", pin: PIN });
  t.ok(page.blocks.length >= 4 && page.blocks.every((b) => b.liftedBy !== ""), "the page lists its blocks, all lifted now");
  const visa = page.cards.find((x) => x.maskedNumber === "411111******1111");
  t.same([visa?.withdrawalsAllowed, Number(visa?.blockId)], [true, 0], "the card: an approved deposit allows withdrawals; no block holds it now");
  const approved = page.totals.find((x) => x.status === TransactionStatus.APPROVED && x.currency === "USD" && x.transactionType === 1);
  t.ok(approved && approved.count >= 2, "totals by type, status and currency");
  t.same(page.emails, ["jane@example.com"], "the e-mails its orders gave");
});

t.test("the hosted Cashier's deposit of a blocked customer is declined alike", async (t) => {
  const pin = `blk-hc-${process.pid}`;
  const block = await customers().createBlock({ context: as(ops.support), merchantId: "m-test", pin, kind: BlockKind.CUSTOMER, reason: "self-excluded" });
  const started = await postSession(svc().edgeUrl, sessionBody({ pin, timestamp: Math.floor(clock.now().getTime() / 1000) }));
  t.equal(started.http, 200, started.text);
  const cashier = cashierClient(svc().engineUrl);
  const opened = await cashier.redeemAutologin({ autologinToken: autologinOf(started.body.redirect_url), requesterIp: "203.0.113.9" });
  const res = await cashier.submitDeposit({
    sessionToken: opened.sessionToken,
    amount: { amountMinor: 1500n, currency: "USD" },
    source: { case: "newCard", value: { card: { number: "4111111111111111", cvv: "123", expiry: "12/2031" }, holder: "Jane Doe", save: false } } as never,
    returnUrl: `/cashier/s/${opened.sessionToken}/return`,
    submissionKey: randomBytes(16).toString("base64url"),
  });
  t.same([res.transaction?.status, res.transaction?.errorCode], [TransactionStatus.DECLINED, 9008], "declined with 9008");
  const named = await customers().getRefusingBlock({ context: as(ops.viewer), traceId: res.transaction!.traceId });
  t.equal(named.block?.id, block.block?.id, "and the console names the block");
  const page = await customers().getCustomer({ context: as(ops.viewer), merchantId: "m-test", pin });
  t.same(
    page.sessions.map((s) => [s.intent, s.state]),
    [["deposit", "open"]],
    "the customer's hosted session, opened",
  );
});

t.test("notes: support writes, a viewer may not, a card number is refused, each audited", async (t) => {
  const c = customers();
  const viewer = await refusal(c.addCustomerNote({ context: as(ops.viewer), merchantId: "m-test", pin: PIN, text: "called" }));
  t.same([viewer.code, viewer.action], [Code.PermissionDenied, "customer.note"]);
  const card = await refusal(c.addCustomerNote({ context: as(ops.support), merchantId: "m-test", pin: PIN, text: "paid with 4111-1111-1111-1111" }));
  t.same([card.code, card.fields], [Code.InvalidArgument, ["text"]], "a card number in a note: the field named");
  const long = await refusal(c.addCustomerNote({ context: as(ops.support), merchantId: "m-test", pin: PIN, text: "x".repeat(1001) }));
  t.same([long.code, long.fields], [Code.InvalidArgument, ["text"]], "1001 characters");
  const note = await c.addCustomerNote({ context: as(ops.support), merchantId: "m-test", pin: PIN, text: "Called about the refund; documents on the way." });
  t.equal(note.note?.createdBy, "backoffice:blk-sue");
  const page = await c.getCustomer({ context: as(ops.viewer), merchantId: "m-test", pin: PIN });
  t.same(
    page.notes.map((n) => n.text),
    ["Called about the refund; documents on the way."],
  );
  const audit = await svc().sql<{ actor: string; outcome: string; after_json: string; merchant_id: string | null }>(
    "select actor, outcome, after_json, merchant_id from audit_log where action = 'customer.note' order by id",
  );
  t.same(
    audit.map((r) => `${r.actor} ${r.outcome}`),
    ["blk-vic failure", "blk-sue failure", "blk-sue failure", "blk-sue success"],
  );
  t.match(audit[3].after_json, "documents on the way");
  t.equal(audit[3].merchant_id, "m-test");
  t.notMatch(JSON.stringify(audit), "4111", "the refused card number is nowhere in the log");
});
