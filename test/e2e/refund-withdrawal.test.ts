/**
 * Withdrawing a refund request that waits for its second approval, over the
 * engine's gRPC as the Backoffice calls it: another payouts operator is
 * refused (PERMISSION_DENIED naming the action, audited) and the request still
 * waits; the operator who asked withdraws it with a reason, audited with the
 * request before, and no money moves; an admin may withdraw anyone's; with
 * none waiting the call is FAILED_PRECONDITION, a missing reason is named.
 */
import t from "tap";
import { Code, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ConsoleMoneyService } from "../../gen/cashier/admin/v1/console_money_service_pb.js";
import { movableClock } from "../support/clock.ts";
import { backofficeClient, ctx, type EnrolledOperator, enrolOperator } from "../support/operators.ts";
import { SERVICE_TOKEN, useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
const svc = useService(t, () => ({}), { now: clock.now });

function money() {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${SERVICE_TOKEN}`);
    return next(req);
  };
  return createClient(ConsoleMoneyService, createGrpcTransport({ baseUrl: svc().engineUrl, interceptors: [auth] }));
}

const ops: Record<"ann" | "ben" | "admin", EnrolledOperator> = {} as never;
const as = (op: EnrolledOperator) => ctx(op.sessionToken);

t.before(async () => {
  const bo = backofficeClient(svc().engineUrl);
  ops.ann = await enrolOperator(svc(), bo, clock, "wd-ann", "payouts");
  ops.ben = await enrolOperator(svc(), bo, clock, "wd-ben", "payouts");
  ops.admin = await enrolOperator(svc(), bo, clock, "wd-ada", "admin");
  await svc().sql("insert into four_eyes_threshold (merchant_id, currency, amount) values ('m-test', 'USD', 500) on conflict do nothing");
});

/** An approved sale of 10.50 USD with a refund request by `op` waiting for its second approval. */
async function waitingRequest(op: EnrolledOperator): Promise<number> {
  const sale = await processSale(svc().edgeUrl, { order_id: orderId("wd"), amount: 1050 });
  if (sale.body.transaction_status !== "approved") throw new Error(`the sale is not approved: ${sale.text}`);
  const traceId = sale.body.trace_id as number;
  const asked = await money().refundSale({
    context: as(op),
    traceId,
    amount: { amountMinor: 1050n, currency: "USD" },
    reason: "customer asked",
    requestId: `wd-${traceId}-${op.login}`,
  });
  if (!asked.awaitingSecondApproval) throw new Error("the refund did not wait for a second approval");
  return traceId;
}

const waiting = async (traceId: number) => (await money().getMoneyActions({ context: as(ops.ann), traceId })).refundApproval?.login ?? "";
const audit = (traceId: number) =>
  svc().sql<{ actor: string; outcome: string; before_json: string | null; after_json: string | null }>(
    "select actor, outcome, before_json, after_json from audit_log where action = 'transaction.refund.first.withdraw' and target = $1 order by id",
    [`trace_id:${traceId}`],
  );

t.test("another operator may not withdraw it; the one who asked may, and no money moves", async (t) => {
  const traceId = await waitingRequest(ops.ann);
  const forged = await refusal(money().withdrawRefundRequest({ context: as(ops.ben), traceId, reason: "not mine to drop" }));
  t.equal(forged.code, Code.PermissionDenied);
  t.equal(forged.action, "transaction.refund.first.withdraw");
  t.match(forged.message, /only wd-ann, who asked for this refund, or an admin may withdraw it/);
  t.equal(await waiting(traceId), "wd-ann", "the request still waits");

  const done = await money().withdrawRefundRequest({ context: as(ops.ann), traceId, reason: "asked in error" });
  t.same([done.withdrawn?.login, done.withdrawn?.amount?.amountMinor, done.withdrawn?.reason], ["wd-ann", 1050n, "customer asked"]);
  t.equal(await waiting(traceId), "", "no request waits any more");
  const refunds = await svc().sql("select 1 from payment_order where reference_trace_id = $1", [traceId]);
  t.equal(refunds.length, 0, "no refund was made");
  const rows = await audit(traceId);
  t.same(
    rows.map((r) => [r.actor, r.outcome]),
    [
      ["wd-ben", "failure"],
      ["wd-ann", "success"],
    ],
  );
  t.match(rows[1].before_json ?? "", /"first_approval":"wd-ann"/);
  t.match(rows[1].after_json ?? "", /"reason":"asked in error"/);

  const again = await refusal(money().withdrawRefundRequest({ context: as(ops.ann), traceId, reason: "again" }));
  t.equal(again.code, Code.FailedPrecondition, "nothing waits: nothing to withdraw");
  const next = await money().refundSale({
    context: as(ops.ben),
    traceId,
    amount: { amountMinor: 1050n, currency: "USD" },
    reason: "asked again",
    requestId: `wd-${traceId}-again`,
  });
  t.equal(next.awaitingSecondApproval, true, "a new request may be made; it waits for its own second approval");
});

t.test("an admin may withdraw anyone's request; a reason is required", async (t) => {
  const traceId = await waitingRequest(ops.ann);
  const blank = await refusal(money().withdrawRefundRequest({ context: as(ops.admin), traceId, reason: " " }));
  t.same([blank.code, blank.fields], [Code.InvalidArgument, ["reason"]]);
  const done = await money().withdrawRefundRequest({ context: as(ops.admin), traceId, reason: "duplicate of another refund" });
  t.equal(done.withdrawn?.login, "wd-ann");
  t.equal(await waiting(traceId), "");
});
