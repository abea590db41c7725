/**
 * The console's work against the running service, over gRPC: the payout
 * queue with the customer's history, decisions with a listed reason and a
 * note, four-eyes approval above the merchant's amount (the second approver
 * must be another operator), bulk approval, UpdatePayout's UpdatedBy
 * backoffice:<login>; a transaction's detail (the cascade, the status history
 * with who and why, every callback), redelivery, stuck work and the
 * dashboard's figures, all drawn from transactions made through the Process API.
 */
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { ConsoleErrorReason, ConsoleErrorSchema } from "../../gen/cashier/admin/v1/console_pb.js";
import { PayoutDecision, PayoutReason, RefusedForm } from "../../gen/cashier/admin/v1/console_work_service_pb.js";
import { CallbackKind } from "../../gen/cashier/engine/v1/callback_pb.js";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { movableClock } from "../support/clock.ts";
import { OperatorRole } from "../../gen/cashier/admin/v1/operator_pb.js";
import { backofficeClient, ctx, enrolOperator, enrolWithLink, type EnrolledOperator, signInTotp } from "../support/operators.ts";
import type { ReceivedCall } from "../support/platform-stub.ts";
import { usePlatformService } from "../support/platform-service.ts";
import { until } from "../support/until.ts";
import { orderId, processSale } from "../support/wire.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
const { svc, stub } = usePlatformService(t, { CASHIER_CALLBACK_RETRY_SECONDS: "1,1" }, { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);
const body = (c: ReceivedCall) => c.body as Record<string, any>;

let admin: EnrolledOperator;
let ann: EnrolledOperator;
let ben: EnrolledOperator;
let sue: EnrolledOperator;
/** A payout approved in the first test: its UpdatePayout callbacks are redelivered later. */
let approvedPayout = 0;
t.before(async () => {
  admin = await enrolOperator(svc(), bo(), clock, "lead", "admin");
  ann = await enrolOperator(svc(), bo(), clock, "ann", "payouts", ["m-plat-manual", "m-plat"]);
  ben = await enrolOperator(svc(), bo(), clock, "ben", "payouts");
  sue = await enrolOperator(svc(), bo(), clock, "sue", "support");
});

async function payout(amount: number, pin = "cust-7") {
  const oid = orderId("po");
  const r = await processSale(svc().edgeUrl, {
    merchant_id: "m-plat-manual",
    frontend: "manual-usd",
    order_id: oid,
    transaction_type: "payout",
    cvv: undefined,
    amount,
    pin,
  });
  t.equal(r.body.transaction_status, "requested");
  return { oid, traceId: r.body.trace_id as number };
}

/** The audit log's failure rows of `action` on a payout, oldest first: each detail up to its first colon. */
async function failuresOf(action: string, traceId: number): Promise<string[]> {
  const rows = await svc().sql<{ detail: string }>("select detail from audit_log where action = $1 and target = $2 and outcome = 'failure' order by id", [
    action,
    `trace_id:${traceId}`,
  ]);
  return rows.map((r) => r.detail.split(":")[0]);
}

t.test("four eyes: above the amount, the first approval waits and the second must be another operator", async (t) => {
  await bo().setFourEyesThresholds({ context: ctx(admin.sessionToken), merchantId: "m-plat-manual", thresholds: [{ amountMinor: 5000n, currency: "USD" }] });
  const big = await payout(10_000);
  const queue = await bo().listPayoutQueue({ context: ctx(ann.sessionToken), merchantId: "m-plat-manual" });
  const queued = queue.payouts.find((p) => p.transaction?.traceId === big.traceId);
  t.equal(queued?.fourEyesRequired, true);

  const first = await bo().decidePayout({
    context: ctx(ann.sessionToken),
    traceId: big.traceId,
    decision: PayoutDecision.APPROVE,
    reason: PayoutReason.CHECKS_PASSED,
  });
  t.equal(first.awaitingSecondApproval, true);
  t.equal(first.transaction?.status, TransactionStatus.REQUESTED, "still waiting");
  const again = await refusal(
    bo().decidePayout({ context: ctx(ann.sessionToken), traceId: big.traceId, decision: PayoutDecision.APPROVE, reason: PayoutReason.CHECKS_PASSED }),
  );
  t.equal(again.code, Code.FailedPrecondition);
  t.equal(again.consoleReason, ConsoleErrorReason.FOUR_EYES_SAME_OPERATOR);
  const shown = (await bo().listPayoutQueue({ context: ctx(ben.sessionToken) })).payouts.find((p) => p.transaction?.traceId === big.traceId);
  t.equal(shown?.firstApproval?.login, "ann");

  const second = await bo().decidePayout({
    context: ctx(ben.sessionToken),
    traceId: big.traceId,
    decision: PayoutDecision.APPROVE,
    reason: PayoutReason.CHECKS_PASSED,
  });
  t.equal(second.awaitingSecondApproval, false);
  t.equal(second.transaction?.status, TransactionStatus.APPROVED);
  approvedPayout = big.traceId;
  const calls = await stub().waitFor("update_payout", (c) => body(c).ExtPayoutID === big.oid, { count: 3 });
  t.same(
    calls.map((c) => [body(c).Status, body(c).UpdatedBy]),
    [
      ["A", "backoffice:ben"],
      ["P", "backoffice:ben"],
      ["Y", "backoffice:ben"],
    ],
    "UpdatePayout names the operator who approved",
  );
  // Decided, the payout still shows that two approved it, and who was first (the second is the history's).
  const decided = (await bo().getPayoutContext({ context: ctx(sue.sessionToken), traceId: big.traceId })).payout;
  t.equal(decided?.fourEyesRequired, true, "decided with four eyes");
  t.equal(decided?.firstApproval?.login, "ann", "its first approver kept beside the decision");
  const small = await payout(1000);
  const one = await bo().decidePayout({
    context: ctx(ann.sessionToken),
    traceId: small.traceId,
    decision: PayoutDecision.APPROVE,
    reason: PayoutReason.CHECKS_PASSED,
  });
  t.equal(one.awaitingSecondApproval, false, "below the amount one operator is enough");
  t.equal(one.transaction?.status, TransactionStatus.APPROVED);
  const alone = (await bo().getPayoutContext({ context: ctx(sue.sessionToken), traceId: small.traceId })).payout;
  t.same([alone?.fourEyesRequired, alone?.firstApproval], [false, undefined], "one approval: said so once decided too");
});

t.test("four eyes: a first approval counts only while its operator may still decide; one disabled since is void", async (t) => {
  await bo().setFourEyesThresholds({ context: ctx(admin.sessionToken), merchantId: "m-plat-manual", thresholds: [{ amountMinor: 5000n, currency: "USD" }] });
  const dan = await enrolOperator(svc(), bo(), clock, "dan", "payouts");
  const big = await payout(30_000, "cust-dan");
  const approve = (who: EnrolledOperator) =>
    bo().decidePayout({ context: ctx(who.sessionToken), traceId: big.traceId, decision: PayoutDecision.APPROVE, reason: PayoutReason.CHECKS_PASSED });
  t.equal((await approve(dan)).awaitingSecondApproval, true, "dan's is the first approval");
  await svc().admin.disableOperator({ login: "dan", operator: "lead" });
  const queued = (await bo().listPayoutQueue({ context: ctx(ben.sessionToken) })).payouts.find((p) => p.transaction?.traceId === big.traceId);
  t.equal(queued?.firstApproval, undefined, "the queue no longer shows dan's approval as the first");
  const ben1 = await approve(ben);
  t.same([ben1.awaitingSecondApproval, ben1.transaction?.status], [true, TransactionStatus.REQUESTED], "ben's approval is now the first: nothing is paid");
  const ann2 = await approve(ann);
  t.same([ann2.awaitingSecondApproval, ann2.transaction?.status], [false, TransactionStatus.APPROVED], "two operators who may decide now: paid");

  // An account whose state changed by another way than the engine's (here by hand in SQL): the first approval is
  // found void at the second, and that is audited.
  const eve = await enrolOperator(svc(), bo(), clock, "eve", "payouts");
  const other = await payout(30_000, "cust-eve");
  const approveOther = (who: EnrolledOperator) =>
    bo().decidePayout({ context: ctx(who.sessionToken), traceId: other.traceId, decision: PayoutDecision.APPROVE, reason: PayoutReason.CHECKS_PASSED });
  t.equal((await approveOther(eve)).awaitingSecondApproval, true);
  await svc().sql("update operator set state = 'disabled' where login = 'eve'");
  t.equal((await approveOther(ben)).awaitingSecondApproval, true, "ben's approval is the first");
  const [voided] = await svc().sql<{ after_json: string; actor: string }>(
    "select after_json, actor from audit_log where action = 'payout.approve.first.void' and target = $1",
    [`trace_id:${other.traceId}`],
  );
  t.match(voided, { actor: "ben", after_json: /"voided_first_approval":"eve"/ }, "the void is audited");
});

t.test("four eyes: an account one approver set up (created or reset) cannot be the other's pair", async (t) => {
  const approve = (op: EnrolledOperator, traceId: number) =>
    bo().decidePayout({ context: ctx(op.sessionToken), traceId, decision: PayoutDecision.APPROVE, reason: PayoutReason.CHECKS_PASSED });
  const status = async (traceId: number) => (await svc().sql<{ status: string }>("select status from transaction where trace_id = $1", [traceId]))[0].status;
  // Payout rights are under dual control: a second admin, whose access neither set up, confirms each change by making it again.
  const vera = await enrolOperator(svc(), bo(), clock, "vera", "admin");
  const create = (who: EnrolledOperator, login: string, role: OperatorRole, merchantIds: string[]) =>
    bo().createOperator({ context: ctx(who.sessionToken), create: { login, role, merchantIds } });
  // The admin creates a payouts operator: the enrolment link comes back to the admin, who can follow it once confirmed.
  const made = await create(admin, "sock", OperatorRole.PAYOUTS, ["m-plat-manual"]);
  await create(vera, "sock", OperatorRole.PAYOUTS, ["m-plat-manual"]);
  const sock = await enrolWithLink(bo(), clock, "sock", made.enrolment?.token ?? "");

  const a = await payout(10_000);
  t.equal((await approve(admin, a.traceId)).awaitingSecondApproval, true, "the admin approves first");
  const contextFor = async (op: EnrolledOperator) =>
    (await bo().getPayoutContext({ context: ctx(op.sessionToken), traceId: a.traceId })).secondApprovalIssuedAccess;
  t.equal(await contextFor(sock), true, "the payout's page tells the operator the admin set up that the second approval is not theirs");
  const detail = await bo().getTransactionDetail({ context: ctx(admin.sessionToken), traceId: a.traceId });
  t.equal(detail.firstApproval?.login, "lead", "the transaction's detail carries the first approval, which changes no status");
  t.equal(detail.firstApproval?.reason, PayoutReason.CHECKS_PASSED);
  const second = await refusal(approve(sock, a.traceId));
  t.equal(second.code, Code.FailedPrecondition, "the account the admin made cannot give the second");
  t.equal(second.consoleReason, ConsoleErrorReason.FOUR_EYES_ISSUED_ACCESS);
  const b = await payout(10_000);
  t.equal((await approve(sock, b.traceId)).awaitingSecondApproval, true);
  t.equal((await refusal(approve(admin, b.traceId))).consoleReason, ConsoleErrorReason.FOUR_EYES_ISSUED_ACCESS, "nor the other way round");
  t.equal(await status(a.traceId), "requested", "both still wait");
  t.equal(await status(b.traceId), "requested");

  // A reset hands the admin the new link too: a colleague the admin reset is, until someone else resets them, the same.
  const pat = await enrolOperator(svc(), bo(), clock, "pat", "payouts");
  t.equal(await contextFor(pat), false, "an operator the admin did not set up is not told so");
  const reset = await bo().resetOperator({ context: ctx(admin.sessionToken), login: "pat" });
  await bo().resetOperator({ context: ctx(vera.sessionToken), login: "pat" });
  const patAgain = await enrolWithLink(bo(), clock, "pat", reset.enrolment?.token ?? "");
  t.equal(await contextFor(patAgain), true, "after the admin's reset, pat is told");
  t.equal((await refusal(approve(patAgain, a.traceId))).consoleReason, ConsoleErrorReason.FOUR_EYES_ISSUED_ACCESS, "after the admin's reset");
  t.equal((await approve(pat, a.traceId).catch((e) => ConnectError.from(e).code)) as Code, Code.Unauthenticated, "pat's old session ended with the reset");

  // Through an admin the first approver made: who holds that admin's account holds what it set up.
  const viaMid = await create(admin, "mid", OperatorRole.ADMIN, []);
  await create(vera, "mid", OperatorRole.ADMIN, []);
  const mid = await enrolWithLink(bo(), clock, "mid", viaMid.enrolment?.token ?? "");
  const viaLeaf = await create(mid, "leaf", OperatorRole.PAYOUTS, ["m-plat-manual"]);
  await create(vera, "leaf", OperatorRole.PAYOUTS, ["m-plat-manual"]);
  const leaf = await enrolWithLink(bo(), clock, "leaf", viaLeaf.enrolment?.token ?? "");
  t.equal((await refusal(approve(leaf, a.traceId))).consoleReason, ConsoleErrorReason.FOUR_EYES_ISSUED_ACCESS, "two steps down the chain");

  // An operator whose access neither of them set up gives the second approval.
  t.equal((await approve(ben, a.traceId)).transaction?.status, TransactionStatus.APPROVED);
  t.same(
    await failuresOf("payout.approve", a.traceId),
    ["lead set up the access of sock", "lead set up the access of pat", "lead set up the access of leaf (through mid)"],
    "each refusal is audited, naming who set up whose access",
  );
});

t.test("four eyes: one operator's approvals sent at the same moment are one first approval, never a payout", async (t) => {
  // A double click, or a burst: each request sees no first approval yet. Only one may record it; the others are
  // the same operator's second approval, refused, and the payout waits for another operator.
  for (let round = 0; round < 3; round++) {
    const big = await payout(10_000);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        bo()
          .decidePayout({ context: ctx(ann.sessionToken), traceId: big.traceId, decision: PayoutDecision.APPROVE, reason: PayoutReason.CHECKS_PASSED })
          .then((r) => (r.awaitingSecondApproval ? "first" : `decided ${r.transaction?.status}`))
          .catch((err: unknown) => ConsoleErrorReason[ConnectError.from(err).findDetails(ConsoleErrorSchema)[0]?.reason ?? 0]),
      ),
    );
    t.same(answers.sort(), ["FOUR_EYES_SAME_OPERATOR", "FOUR_EYES_SAME_OPERATOR", "FOUR_EYES_SAME_OPERATOR", "first"], `round ${round}: one first approval`);
    const [row] = await svc().sql<{ status: string }>("select status from transaction where trace_id = $1", [big.traceId]);
    t.equal(row.status, "requested", "and the payout still waits for a second operator");
  }
});

t.test("reject and cancel take a listed reason; OTHER needs a note; both are kept", async (t) => {
  const p = await payout(700);
  const noReason = await refusal(
    bo().decidePayout({ context: ctx(ann.sessionToken), traceId: p.traceId, decision: PayoutDecision.REJECT, reason: PayoutReason.UNSPECIFIED }),
  );
  t.same(noReason.fields, ["reason"]);
  const noNote = await refusal(
    bo().decidePayout({ context: ctx(ann.sessionToken), traceId: p.traceId, decision: PayoutDecision.REJECT, reason: PayoutReason.OTHER }),
  );
  t.same(noNote.fields, ["note"]);
  const approvedForFraud = await refusal(
    bo().decidePayout({ context: ctx(ann.sessionToken), traceId: p.traceId, decision: PayoutDecision.APPROVE, reason: PayoutReason.SUSPECTED_FRAUD }),
  );
  t.same(approvedForFraud.fields, ["reason"], "an approval for suspected fraud is refused: the reason must fit the decision");
  const rejectedAsPassed = await refusal(
    bo().decidePayout({ context: ctx(ann.sessionToken), traceId: p.traceId, decision: PayoutDecision.REJECT, reason: PayoutReason.CHECKS_PASSED }),
  );
  t.same(rejectedAsPassed.fields, ["reason"]);
  // `reason: note` is one text of at most 256 characters: the note takes what the longest reason leaves.
  const long = await refusal(
    bo().decidePayout({
      context: ctx(ann.sessionToken),
      traceId: p.traceId,
      decision: PayoutDecision.REJECT,
      reason: PayoutReason.CUSTOMER_REQUEST,
      note: "n".repeat(239),
    }),
  );
  t.same(long.fields, ["note"], "a note of 239 characters is refused by its own name");
  const longest = await payout(700);
  const fits = await bo().decidePayout({
    context: ctx(ann.sessionToken),
    traceId: longest.traceId,
    decision: PayoutDecision.CANCEL,
    reason: PayoutReason.CUSTOMER_REQUEST,
    note: "n".repeat(238),
  });
  t.equal(fits.transaction?.status, TransactionStatus.CANCELLED, "238 beside the longest reason fits");
  t.equal(fits.transaction?.errorDetails.length, 256);
  const rejected = await bo().decidePayout({
    context: ctx(ann.sessionToken),
    traceId: p.traceId,
    decision: PayoutDecision.REJECT,
    reason: PayoutReason.SUSPECTED_FRAUD,
    note: "card 4000-0000-0000-0077 used from 4 countries",
  });
  t.equal(rejected.transaction?.status, TransactionStatus.DECLINED);
  t.equal(rejected.transaction?.errorDetails, "suspected_fraud: card 4000-00**-****-0077 used from 4 countries", "a card number in the note is masked");
  const detail = await bo().getTransactionDetail({ context: ctx(sue.sessionToken), traceId: p.traceId });
  t.ok(
    detail.transaction?.history.some((h) => h.cause === "backoffice:reject:ann"),
    "the history says who",
  );
  const [row] = await svc().sql<{ after_json: string; actor: string }>(
    "select after_json, actor from audit_log where action = 'payout.reject' and target = $1 and outcome = 'success'",
    [`trace_id:${p.traceId}`],
  );
  t.same(
    await failuresOf("payout.reject", p.traceId),
    ["reason", "note", "reason", "note"],
    "the refused tries (no reason, OTHER without a note, reasons that do not fit, a note too long) are audited too",
  );
  t.equal(row.actor, "ann");
  t.match(row.after_json, /"note":"card 4000-00\*\*-\*{4}-0077 used from 4 countries"/, "in the audit log too");
  t.match(row.after_json, /"reason":"suspected_fraud"/);
  const c = await payout(800);
  const cancelled = await bo().decidePayout({
    context: ctx(ben.sessionToken),
    traceId: c.traceId,
    decision: PayoutDecision.CANCEL,
    reason: PayoutReason.CUSTOMER_REQUEST,
  });
  t.equal(cancelled.transaction?.status, TransactionStatus.CANCELLED);
  const decideAsSupport = await refusal(
    bo().decidePayout({ context: ctx(sue.sessionToken), traceId: c.traceId, decision: PayoutDecision.CANCEL, reason: PayoutReason.CUSTOMER_REQUEST }),
  );
  t.equal(decideAsSupport.code, Code.PermissionDenied);
});

t.test("a form the console refused on its own is filed: audited as its action's failure, or refused for a role that may not take it", async (t) => {
  const p = await payout(700);
  await bo().recordRefusedForm({
    context: ctx(ann.sessionToken),
    form: RefusedForm.PAYOUT_DECISION,
    traceIds: [p.traceId],
    reason: "Choose a reason. 4111 1111 1111 1111",
  });
  const rows = await svc().sql<{ actor: string; detail: string; merchant_id: string | null }>(
    "select actor, detail, merchant_id from audit_log where action = 'payout.decide' and target = $1 and outcome = 'failure'",
    [`trace_id:${p.traceId}`],
  );
  t.same(
    rows.map((r) => [r.actor, r.detail, r.merchant_id ?? ""]),
    [["ann", "Choose a reason. 4111 11** **** 1111", ""]],
    "filed under the payout, with the console's reason (card numbers masked) and no merchant: nothing was read",
  );
  const bySupport = await refusal(
    bo().recordRefusedForm({ context: ctx(sue.sessionToken), form: RefusedForm.PAYOUT_DECISION, traceIds: [p.traceId], reason: "x" }),
  );
  t.equal(bySupport.code, Code.PermissionDenied, "support may not decide: refused as the decision itself would be");
  t.same(await failuresOf("payout.decide", p.traceId), ["Choose a reason. 4111 11** **** 1111", "role support does not allow payout.decide"]);
  const fourEyes = await refusal(
    bo().recordRefusedForm({ context: ctx(ann.sessionToken), form: RefusedForm.FOUR_EYES, merchantId: "m-plat", reason: "Line 1" }),
  );
  t.equal(fourEyes.code, Code.PermissionDenied, "a payouts operator may not change a merchant's four eyes");
  t.equal((await refusal(bo().recordRefusedForm({ context: ctx(ann.sessionToken), reason: "x" }))).code, Code.InvalidArgument, "a form must be named");
  t.equal((await refusal(bo().recordRefusedForm({ context: ctx("not-a-session"), form: RefusedForm.BULK_APPROVAL, reason: "x" }))).code, Code.Unauthenticated);
  t.equal((await svc().sql("select trace_id from transaction where trace_id = $1 and status = 'requested'", [p.traceId])).length, 1, "the payout is untouched");
});

t.test("bulk approval: each payout as one decision, failures named per payout", async (t) => {
  const a = await payout(1100);
  const b = await payout(1200);
  const big = await payout(9000);
  const r = await bo().bulkApprovePayouts({
    context: ctx(ben.sessionToken),
    traceIds: [a.traceId, b.traceId, big.traceId, 999_999],
    reason: PayoutReason.CHECKS_PASSED,
  });
  t.same(
    r.results.map((x) => [x.traceId, x.transaction?.status ?? 0, x.awaitingSecondApproval, x.error !== ""]),
    [
      [a.traceId, TransactionStatus.APPROVED, false, false],
      [b.traceId, TransactionStatus.APPROVED, false, false],
      [big.traceId, TransactionStatus.REQUESTED, true, false],
      [999_999, 0, false, true],
    ],
  );
  t.match(r.results[3].error, /no payout with trace_id 999999/);
});

t.test("payout context: the customer's deposits and payouts at the merchant", async (t) => {
  const dep = await processSale(svc().edgeUrl, {
    merchant_id: "m-plat-manual",
    frontend: "manual-usd",
    order_id: orderId("dep"),
    amount: 5000,
    pin: "cust-ctx",
  });
  t.equal(dep.body.transaction_status, "approved");
  const p = await payout(2000, "cust-ctx");
  const c = await bo().getPayoutContext({ context: ctx(ann.sessionToken), traceId: p.traceId });
  t.same(
    c.deposits.map((d) => d.traceId),
    [dep.body.trace_id],
  );
  t.same(
    c.totals.map((x) => [x.currency, x.depositsApproved, x.depositCount]),
    [["USD", 5000n, 1]],
  );
  t.equal(c.payout?.transaction?.traceId, p.traceId);
});

t.test("detail: the cascade with each processor's answer, the history, every callback; redelivery by support", async (t) => {
  const oid = orderId("casc");
  const r = await processSale(svc().edgeUrl, {
    merchant_id: "m-plat",
    frontend: "plat-usd",
    order_id: oid,
    card_number: "4000000000000259",
    notification_url: `${stub().url}/notify`,
  });
  const traceId = r.body.trace_id as number;
  const detail = await until(async () => {
    const d = await bo().getTransactionDetail({ context: ctx(sue.sessionToken), traceId });
    return d.cascade.length === 2 && d.cascade[1].status === TransactionStatus.APPROVED ? d : undefined;
  });
  t.ok(detail, "the cascade's second attempt is approved");
  t.same(
    detail?.cascade.map((a) => [a.attempt, a.paymentProcessor, a.status]),
    [
      [1, "sim-a", TransactionStatus.DECLINED_RETRY],
      [2, "sim-b", TransactionStatus.APPROVED],
    ],
  );
  t.ok(detail?.transaction?.history.length, "the history is there");
  t.ok(
    detail?.callbacks.some((c) => c.kind === CallbackKind.VALIDATION && c.attempts.length === 1),
    "the Validation call with its reply",
  );
  const delivered = await until(async () => {
    const d = await bo().getTransactionDetail({ context: ctx(sue.sessionToken), traceId: approvedPayout });
    return d.callbacks.find((c) => c.kind === CallbackKind.UPDATE_PAYOUT && c.attempts.length > 0);
  }, 15_000);
  t.ok(delivered, "the payout's UpdatePayout with its attempts");
  t.ok(delivered?.attempts[0].httpStatus, "each attempt's reply");
  const redelivered = await bo().redeliverCallback({ context: ctx(sue.sessionToken), id: delivered?.id ?? 0n });
  t.equal(redelivered.delivery?.id, delivered?.id);
  const [row] = await svc().sql<{ actor: string; merchant_id: string; after_json: string }>(
    "select actor, merchant_id, after_json from audit_log where action = 'callback.redeliver'",
  );
  t.same(
    row,
    { actor: "sue", merchant_id: "m-plat-manual", after_json: `{"attempts":0,"state":"pending","trace_id":${approvedPayout}}` },
    "with what it left: due again",
  );
});

t.test("dashboard and stuck work are drawn from the real transactions", async (t) => {
  await processSale(svc().edgeUrl, { merchant_id: "m-plat", frontend: "plat-usd", order_id: orderId("dec"), card_number: "4000000000000002" });
  const d = await bo().getDashboard({ context: ctx(admin.sessionToken) });
  const simB = d.volume.filter((v) => v.processor === "sim-b");
  t.ok(
    simB.some((v) => v.approved > 0),
    "approved sales by processor and hour",
  );
  t.ok(
    d.declines.some((x) => x.count > 0),
    "decline reasons",
  );
  t.ok((d.payoutsWaiting?.count ?? 0) >= 2, "payouts still waiting");
  t.ok((d.payoutsWaiting?.under1h ?? 0) >= 2);
  t.ok(d.callbacks.some((c) => c.kind === CallbackKind.UPDATE_PAYOUT && c.attempts > 0));
  const scoped = await bo().getDashboard({ context: ctx(ann.sessionToken), merchantId: "m-plat-manual" });
  t.equal(scoped.volume.filter((v) => v.processor === "sim-b").length <= simB.length, true);
  const waiting = await processSale(svc().edgeUrl, { merchant_id: "m-plat", frontend: "plat-usd", order_id: orderId("3ds"), card_number: "4000000000003220" });
  t.equal(waiting.body.transaction_status, "pending_async");
  clock.advance(20 * 60_000);
  // 20 idle minutes ended sue's session: she signs in again.
  const token = await signInTotp(bo(), clock, sue);
  const stuck = await bo().listStuckWork({ context: ctx(token), olderThanSeconds: 60 });
  t.ok(
    stuck.stuckTransactions.some((x) => x.traceId === waiting.body.trace_id),
    "a challenge nobody answered for 20 minutes is stuck work",
  );
  t.ok(
    stuck.stuckTransactions.every((x) => x.status === TransactionStatus.PENDING || x.status === TransactionStatus.PENDING_ASYNC),
    "only non-final attempts",
  );
});
