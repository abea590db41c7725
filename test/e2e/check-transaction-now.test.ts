/**
 * ConsoleWorkService.CheckTransactionNow against the running engine over gRPC:
 * a sale left pending by its acquirer, whose next check is hours away, is
 * settled within seconds of a support operator's check, once the acquirer
 * has its answer; the check and its reason are in the audit log with the
 * status and due times before and after, and other engines are sent the
 * follow-up work notice. The engine says where a check is offered (the
 * detail's check_offered, the stuck list's check_offered_trace_ids): on the
 * pending sale, not once it is final, not on a sale whose 3-D Secure
 * challenge the customer still has open; once that challenge is past its
 * expiry, a check declines it (9005) at once; an approved payout (A) its
 * engine never sent on is sent and paid. Refused by cause: a final transaction
 * (FAILED_PRECONDITION naming its status), a viewer (PERMISSION_DENIED naming
 * transaction.check), a merchant outside the scope (NOT_FOUND), bad arguments
 * (INVALID_ARGUMENT naming the field).
 *
 * The acquirer simulator runs in this process on a clock of its own that
 * stands still, so the pending card stays pending at the acquirer until the
 * test moves that clock; the engine's clock is moved two hours on, so the
 * follow-up's next look at the sale (a tenth of its age, 5 minutes at most)
 * falls well after the test.
 */
import t from "tap";
import pg from "pg";
import { Code } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { PayoutLetter, TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { startTestSim, type TestSim } from "../support/acquirer-sim.ts";
import { saleRequest } from "../support/engine-request.ts";
import { movableClock } from "../support/clock.ts";
import { OTHER_SECRET } from "../support/merchants.ts";
import { backofficeClient, ctx, type EnrolledOperator, enrolOperator, signInTotp } from "../support/operators.ts";
import { useService } from "../support/service.ts";
import { until } from "../support/until.ts";
import { orderId, processSale } from "../support/wire.ts";
import { refusal } from "../support/refusal.ts";

let simTime = Date.parse("2026-11-25T12:00:00Z");
let sim: TestSim;
t.before(async () => {
  sim = await startTestSim(() => simTime);
});
t.teardown(() => sim.stop());

const clock = movableClock();
const svc = useService(t, () => ({ ...sim.serviceEnv(), CASHIER_WORKER_POLL_MS: "100" }), { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

const trace = { pending: 0, approved: 0, theirs: 0, challenge: 0 };
const ops: Record<"support" | "viewer" | "scoped", EnrolledOperator> = {} as never;

const nextCheck = async (traceId: number) =>
  (
    await svc().sql<{ next_check_at: Date | null; late: boolean }>(
      "select next_check_at, next_check_at > now() + interval '30 minutes' as late from transaction where trace_id = $1",
      [traceId],
    )
  )[0];

t.before(async () => {
  // Signed requests are checked against the engine's clock: every sale is made before it moves.
  const approved = await processSale(svc().edgeUrl, { order_id: orderId("check-final") });
  const pending = await processSale(svc().edgeUrl, { order_id: orderId("check-pending"), card_number: "4000000000000077" });
  const theirs = await processSale(
    svc().edgeUrl,
    { merchant_id: "m-other", frontend: "other-usd", order_id: orderId("check-theirs"), card_number: "4000000000000077" },
    OTHER_SECRET,
  );

  if (approved.body.transaction_status !== "approved" || pending.body.transaction_status !== "pending" || theirs.body.transaction_status !== "pending") {
    throw new Error(`unexpected sales: ${approved.text} ${pending.text} ${theirs.text}`);
  }
  trace.approved = approved.body.trace_id;
  trace.pending = pending.body.trace_id;
  trace.theirs = theirs.body.trace_id;
  clock.advance(2 * 3_600_000);
  ops.support = await enrolOperator(svc(), bo(), clock, "check-sam", "support");
  ops.viewer = await enrolOperator(svc(), bo(), clock, "check-vera", "viewer");
  ops.scoped = await enrolOperator(svc(), bo(), clock, "check-scoped", "support", ["m-test"]);
});

t.test("a sale left pending by its acquirer is settled by a check, hours before its next scheduled look", async (t) => {
  // The follow-up has asked once, heard "pending", and planned its next look far off.
  const planned = await until(async () => {
    const row = await nextCheck(trace.pending);
    return row?.late ? row : undefined;
  }, 15_000);
  t.ok(planned?.next_check_at, `the next look is more than 30 minutes away (${planned?.next_check_at?.toISOString()})`);
  // The acquirer now has its answer; nothing asks it yet.
  simTime += 10_000;
  t.equal((await svc().client.getTransaction({ traceId: trace.pending })).transaction?.status, TransactionStatus.PENDING, "still pending here");
  // What the console shows a button for is the engine's to say, by the same table as the check itself.
  const detail = await bo().getTransactionDetail({ context: ctx(ops.support.sessionToken), traceId: trace.pending });
  t.equal(detail.checkOffered, true, "the detail offers a check on the pending sale");
  const stuck = await bo().listStuckWork({ context: ctx(ops.support.sessionToken), olderThanSeconds: 60 });
  t.ok(stuck.checkOfferedTraceIds.includes(trace.pending), "so does the stuck list");

  // Other engines on the database hear of it: the follow-up work notice, sent at the check's commit.
  const listener = new pg.Client({ connectionString: svc().engine.databaseUrl });
  await listener.connect();
  t.teardown(() => listener.end());
  const notices: string[] = [];
  listener.on("notification", (n) => notices.push(n.payload ?? ""));
  await listener.query("listen cashier_work");

  const asked = performance.now();
  const res = await bo().checkTransactionNow({ context: ctx(ops.support.sessionToken), traceId: trace.pending, reason: "customer asked by phone" });
  t.ok(await until(async () => notices.some((p) => /^follow-up [0-9a-f]{12}$/.test(p))), "a follow-up work notice naming this engine");
  t.equal(res.transaction?.traceId, trace.pending);
  t.equal(res.transaction?.status, TransactionStatus.PENDING, "the answer is the attempt as it was: the worker settles it");
  const previous = timestampDate(res.previousCheckTime!);
  const due = timestampDate(res.checkTime!);
  t.ok(previous.getTime() - due.getTime() > 30 * 60_000, "the check is due now instead of at the planned time");

  const settled = await until(async () => {
    const got = await svc().client.getTransaction({ traceId: trace.pending });
    return got.transaction?.status === TransactionStatus.APPROVED ? got.transaction : undefined;
  }, 10_000);
  t.ok(settled, "approved, from the acquirer's answer");
  t.comment(`approved ${Math.round(performance.now() - asked)} ms after the check (polled every 100 ms)`);
  t.same(
    settled?.history.map((h) => h.toStatus),
    [TransactionStatus.PENDING, TransactionStatus.APPROVED],
  );
  t.equal((await nextCheck(trace.pending))?.next_check_at, null, "nothing more to look at");
  const settledDetail = await bo().getTransactionDetail({ context: ctx(ops.support.sessionToken), traceId: trace.pending });
  t.equal(settledDetail.checkOffered, false, "nor is a check offered on it any more");

  const [row] = await svc().sql<{
    actor: string;
    outcome: string;
    client_address: string;
    merchant_id: string;
    before_json: string;
    after_json: string;
    detail: string;
  }>(
    "select actor, outcome, client_address, merchant_id, before_json, after_json, detail from audit_log where action = 'transaction.check' and target = $1 and outcome = 'success'",
    [`trace_id:${trace.pending}`],
  );
  t.match(row, { actor: "check-sam", outcome: "success", client_address: "198.51.100.7", merchant_id: "m-test", detail: "customer asked by phone" });
  const before = JSON.parse(row.before_json);
  const after = JSON.parse(row.after_json);
  t.match(before, { status: "pending", next_check_at: previous.toISOString() }, "before: the status and the planned time");
  t.match(after, { status: "pending", next_check_at: due.toISOString(), step: "look-up" }, "after: the status and the time it is due now");
});

t.test("a final transaction is refused, naming its status; the refusal is audited", async (t) => {
  for (const traceId of [trace.approved, trace.pending]) {
    const r = await refusal(bo().checkTransactionNow({ context: ctx(ops.support.sessionToken), traceId }));
    t.equal(r.code, Code.FailedPrecondition, `trace ${traceId}`);
    t.match(r.message, new RegExp(`^transaction ${traceId} is approved, a final status: there is nothing to look up$`));
  }
  const failed = await svc().sql<{ n: string }>(
    "select count(*) as n from audit_log where action = 'transaction.check' and outcome = 'failure' and target = $1",
    [`trace_id:${trace.approved}`],
  );
  t.equal(Number(failed[0].n), 1);
});

t.test("a sale whose 3-D Secure challenge is open waits for its customer: no check is offered, and one asked for is refused", async (t) => {
  // Made over gRPC (no signature to date), on the engine's moved clock, then aged past the stuck list's minute
  // but not past the challenge's 15 minutes.
  const made = await svc().client.process(
    saleRequest({ orderId: orderId("check-challenge"), card: { number: "4000000000003220", cvv: "123", expiry: "12/2030" } }),
  );
  t.equal(made.transaction?.status, TransactionStatus.PENDING_ASYNC, "the challenge is open");
  trace.challenge = made.transaction?.traceId ?? 0;
  clock.advance(2 * 60_000);
  const as = ctx(ops.support.sessionToken);
  t.equal((await bo().getTransactionDetail({ context: as, traceId: trace.challenge })).checkOffered, false, "the detail offers none");
  const stuck = await bo().listStuckWork({ context: as, olderThanSeconds: 60 });
  t.ok(
    stuck.stuckTransactions.some((x) => x.traceId === trace.challenge && x.status === TransactionStatus.PENDING_ASYNC),
    "it is listed as stuck, pending_async",
  );
  t.notOk(stuck.checkOfferedTraceIds.includes(trace.challenge), "without a check");
  const r = await refusal(bo().checkTransactionNow({ context: as, traceId: trace.challenge }));
  t.equal(r.code, Code.FailedPrecondition);
  t.match(r.message, new RegExp(`^transaction ${trace.challenge} is pending_async: its 3-D Secure challenge is open until .* and waits for the customer$`));
});

t.test("a viewer may not check; an operator of another merchant does not see the transaction", async (t) => {
  const viewer = await refusal(bo().checkTransactionNow({ context: ctx(ops.viewer.sessionToken), traceId: trace.theirs }));
  t.equal(viewer.code, Code.PermissionDenied);
  t.equal(viewer.action, "transaction.check");
  const scoped = await refusal(bo().checkTransactionNow({ context: ctx(ops.scoped.sessionToken), traceId: trace.theirs }));
  t.equal(scoped.code, Code.NotFound, "outside the scope: not found, though it is pending");
  t.equal(scoped.message, `no transaction with trace_id ${trace.theirs}`);
  const unknown = await refusal(bo().checkTransactionNow({ context: ctx(ops.support.sessionToken), traceId: 2_000_000_000 }));
  t.equal(unknown.code, Code.NotFound);
  const unchanged = await svc().sql<{ n: string }>(
    "select count(*) as n from audit_log where action = 'transaction.check' and target = $1 and outcome = 'success'",
    [`trace_id:${trace.theirs}`],
  );
  t.equal(Number(unchanged[0].n), 0, "nothing was made due for them");
});

t.test("bad arguments name the field", async (t) => {
  const zero = await refusal(bo().checkTransactionNow({ context: ctx(ops.support.sessionToken), traceId: 0 }));
  t.equal(zero.code, Code.InvalidArgument);
  t.match(zero.message, /^trace_id: /);
  const long = await refusal(bo().checkTransactionNow({ context: ctx(ops.support.sessionToken), traceId: trace.theirs, reason: "x".repeat(256) }));
  t.equal(long.code, Code.InvalidArgument);
  t.match(long.message, /^reason: must be at most 255 characters$/);
  const session = await refusal(bo().checkTransactionNow({ context: ctx(""), traceId: trace.theirs }));
  t.equal(session.code, Code.Unauthenticated);
});

t.test("an approved payout whose engine stopped before sending it is sent on by a check and paid", async (t) => {
  const made = await svc().client.process(
    saleRequest({ merchantId: "m-manual", frontend: "manual-usd", orderId: orderId("check-payout"), transactionType: TransactionType.PAYOUT }),
  );
  t.equal(made.transaction?.status, TransactionStatus.REQUESTED, "a manual payout waits for its decision, its card held");
  const traceId = made.transaction?.traceId ?? 0;
  const as = ctx(ops.support.sessionToken);
  t.equal((await bo().getTransactionDetail({ context: as, traceId })).checkOffered, false, "in requested it waits for a decision, not a check");
  // What an engine leaves when it stops between an approval (A) and sending the payout on (P): the approval is
  // committed, and the follow-up that would send it is planned on the database's clock, here two hours away.
  await svc().sql("update transaction set status = 'pending', payout_letter = 'A', next_check_at = now() + interval '2 hours' where trace_id = $1", [traceId]);
  t.equal((await bo().getTransactionDetail({ context: as, traceId })).checkOffered, true, "in A a check is offered");
  await bo().checkTransactionNow({ context: as, traceId, reason: "engine restarted mid-approval" });
  const paid = await until(async () => {
    const got = await svc().client.getTransaction({ traceId });
    return got.transaction?.status === TransactionStatus.APPROVED ? got.transaction : undefined;
  }, 10_000);
  t.ok(paid, "approved by the processor, long before the planned follow-up");
  t.equal(paid?.payoutLetter, PayoutLetter.APPROVED, "Y");
  const [row] = await svc().sql<{ after_json: string }>(
    "select after_json from audit_log where action = 'transaction.check' and target = $1 and outcome = 'success'",
    [`trace_id:${traceId}`],
  );
  t.match(JSON.parse(row.after_json), { status: "pending", payout_letter: "A", step: "resume-payout" }, "the audit row names the step");
});

t.test("once the challenge is past its 15 minutes, a check expires it at once: declined, 9005", async (t) => {
  // The engine's clock passes the expiry; the follow-up planned for it is on the database's clock, still ahead.
  // (Last in the file: the console sessions idle out over those 15 minutes, so the operator signs in again.)
  clock.advance(15 * 60_000);
  const as = ctx(await signInTotp(bo(), clock, ops.support));
  t.equal((await bo().getTransactionDetail({ context: as, traceId: trace.challenge })).checkOffered, true, "a check is offered now");
  const stuck = await bo().listStuckWork({ context: as, olderThanSeconds: 60 });
  t.ok(stuck.checkOfferedTraceIds.includes(trace.challenge), "on the stuck list too");
  const res = await bo().checkTransactionNow({ context: as, traceId: trace.challenge, reason: "customer gave up" });
  t.equal(res.transaction?.status, TransactionStatus.PENDING_ASYNC, "the answer is the attempt as it was");
  const expired = await until(async () => {
    const got = await svc().client.getTransaction({ traceId: trace.challenge });
    return got.transaction?.status === TransactionStatus.DECLINED ? got.transaction : undefined;
  }, 10_000);
  t.ok(expired, "declined by the follow-up the check made due");
  t.equal(expired?.errorCode, 9005, "3-D Secure not completed in time");
  const [row] = await svc().sql<{ after_json: string }>(
    "select after_json from audit_log where action = 'transaction.check' and target = $1 and outcome = 'success'",
    [`trace_id:${trace.challenge}`],
  );
  t.match(JSON.parse(row.after_json), { status: "pending_async", step: "expire-challenge" }, "the audit row names the step");
});
