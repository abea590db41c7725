/**
 * A Backoffice decision and its audit row are one database transaction,
 * against the running service and its Postgres: the row and the decision's
 * status change carry the same transaction id (xmin); when the audit insert
 * fails inside it (a trigger in this test's database refuses it), the
 * decision is rolled back and the payout stays requested with its card; many
 * decisions at once leave a chain `npm run audit-check` finds intact. The
 * same holds for a merchant's settings and a callback's redelivery.
 */
import t from "tap";
import { ConnectError } from "@connectrpc/connect";
import { PayoutDecision, PayoutReason } from "../../gen/cashier/admin/v1/console_work_service_pb.js";
import { PayoutApproval } from "../../gen/cashier/admin/v1/merchant_pb.js";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { movableClock } from "../support/clock.ts";
import { backofficeClient, ctx, enrolOperator, type EnrolledOperator, runAuditCheck, refuseAudit } from "../support/operators.ts";
import { usePlatformService } from "../support/platform-service.ts";
import { until } from "../support/until.ts";
import { orderId, processSale } from "../support/wire.ts";

const clock = movableClock();
const { svc } = usePlatformService(t, {}, { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

let ann: EnrolledOperator;
let ben: EnrolledOperator;
let lead: EnrolledOperator;
t.before(async () => {
  lead = await enrolOperator(svc(), bo(), clock, "lead", "admin");
  ann = await enrolOperator(svc(), bo(), clock, "ann", "payouts");
  ben = await enrolOperator(svc(), bo(), clock, "ben", "payouts");
});

async function payout(amount = 500): Promise<number> {
  const r = await processSale(svc().edgeUrl, {
    merchant_id: "m-plat-manual",
    frontend: "manual-usd",
    order_id: orderId("atx"),
    transaction_type: "payout",
    cvv: undefined,
    amount,
    pin: "cust-atx",
  });
  t.equal(r.body.transaction_status, "requested");
  return r.body.trace_id as number;
}

/** With a reason that fits the decision (an approval: checks passed; a rejection or cancellation: the customer asked). */
const decide = (who: EnrolledOperator, traceId: number, decision: PayoutDecision) =>
  bo().decidePayout({
    context: ctx(who.sessionToken),
    traceId,
    decision,
    reason: decision === PayoutDecision.APPROVE ? PayoutReason.CHECKS_PASSED : PayoutReason.CUSTOMER_REQUEST,
    note: "looked at it",
  });

/** The id of the database transaction that wrote the decision's status change, and of the one that wrote its audit row. */
async function writers(traceId: number, cause: string, action: string) {
  const [event] = await svc().sql<{ xid: string }>("select xmin::text as xid from transaction_event where trace_id = $1 and cause = $2", [traceId, cause]);
  const rows = await svc().sql<{ xid: string; outcome: string }>("select xmin::text as xid, outcome from audit_log where target = $1 and action = $2", [
    `trace_id:${traceId}`,
    action,
  ]);
  return { event: event?.xid, audit: rows };
}

const fails = (p: Promise<unknown>) =>
  p.then(
    () => false,
    () => true,
  );

t.test("a rejection and an approval commit in the same transaction as their audit rows", async (t) => {
  const rejected = await payout();
  t.equal((await decide(ann, rejected, PayoutDecision.REJECT)).transaction?.status, TransactionStatus.DECLINED);
  const r = await writers(rejected, "backoffice:reject:ann", "payout.reject");
  t.ok(r.event, "the rejection is in the history");
  t.equal(r.audit.length, 1, "one audit row");
  t.equal(r.audit[0].xid, r.event, "written by the same database transaction");

  const approved = await payout();
  const done = await decide(ben, approved, PayoutDecision.APPROVE);
  t.not(done.transaction?.status, TransactionStatus.REQUESTED);
  const a = await writers(approved, "backoffice:approve:ben", "payout.approve");
  t.ok(a.event, "the approval (A) is in the history");
  t.equal(a.audit.length, 1);
  t.equal(a.audit[0].xid, a.event, "the approval's step and its audit row: one transaction");
  const [row] = await svc().sql<{ after_json: string }>("select after_json from audit_log where target = $1 and action = 'payout.approve'", [
    `trace_id:${approved}`,
  ]);
  t.match(row.after_json, /"payout_letter":"A"/, "the audited after is the approval itself");
});

t.test("when the audit insert fails, the decision is rolled back and the payout stays requested", async (t) => {
  const traceId = await payout();
  // A real failure inside the transaction: this database refuses the audit row for this one payout.
  await refuseAudit(t, svc(), `trace_id:${traceId}`);
  const lastId = async () => (await svc().sql<{ id: number | null }>("select max(id)::int as id from audit_log"))[0].id;
  const before = await lastId();

  for (const decision of [PayoutDecision.REJECT, PayoutDecision.CANCEL, PayoutDecision.APPROVE]) {
    const err = await decide(ann, traceId, decision).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    t.ok(err, `decision ${PayoutDecision[decision]} fails`);
    const [state] = await svc().sql<{ status: string; held: boolean; events: number; callbacks: number }>(
      `select t.status, o.card_sealed is not null as held,
              (select count(*)::int from transaction_event e where e.trace_id = t.trace_id and e.cause like 'backoffice:%') as events,
              (select count(*)::int from callback c where c.trace_id = t.trace_id) as callbacks
         from transaction t join payment_order o on o.id = t.order_ref where t.trace_id = $1`,
      [traceId],
    );
    t.same(state, { status: "requested", held: true, events: 0, callbacks: 0 }, "nothing of the decision was kept");
  }
  t.equal(await lastId(), before, "no audit row either");

  await svc().sql("drop trigger refuse_audit_for_test on audit_log");
  t.equal((await decide(ann, traceId, PayoutDecision.REJECT)).transaction?.status, TransactionStatus.DECLINED, "decidable once the log takes rows again");
  const r = await writers(traceId, "backoffice:reject:ann", "payout.reject");
  t.equal(r.audit.length, 1);
  t.equal(r.audit[0].xid, r.event);
});

t.test("a merchant's settings change and its audit row commit together, or neither does", async (t) => {
  const change = (approval: PayoutApproval) =>
    bo().updateMerchant({
      context: ctx(lead.sessionToken),
      update: { merchant: { merchantId: "m-plat", payoutApproval: approval }, updateMask: { paths: ["payout_approval"] } },
    });
  const approval = async () =>
    (await svc().sql<{ a: string; xid: string }>("select payout_approval as a, xmin::text as xid from merchant where id = 'm-plat'"))[0];
  const was = await approval();
  const flipped = was.a === "manual" ? PayoutApproval.AUTO : PayoutApproval.MANUAL;
  const back = was.a === "manual" ? PayoutApproval.MANUAL : PayoutApproval.AUTO;

  await refuseAudit(t, svc(), "merchant:m-plat");
  t.ok(await fails(change(flipped)), "the change fails with its audit row");
  t.same(await approval(), was, "the merchant is as it was");
  await svc().sql("drop trigger refuse_audit_for_test on audit_log");

  t.equal((await change(flipped)).merchant?.payoutApproval, flipped);
  const now = await approval();
  const [row] = await svc().sql<{ xid: string }>(
    "select xmin::text as xid from audit_log where target = 'merchant:m-plat' and action = 'merchant.update' order by id desc limit 1",
  );
  t.equal(row.xid, now.xid, "the change and its audit row: one transaction");
  await change(back);

  // A secret rotation: the new secret is not kept without its audit row.
  const sealed = async () => (await svc().sql<{ s: string }>("select secret_sealed as s from merchant where id = 'm-plat'"))[0].s;
  const secretBefore = await sealed();
  await refuseAudit(t, svc(), "merchant:m-plat");
  t.ok(
    await fails(
      bo().rotateMerchantSecret({
        context: ctx(lead.sessionToken),
        rotation: { merchantId: "m-plat", newSecret: "a-rotated-secret-0123456789", overlapSeconds: 60 },
      }),
    ),
    "the rotation fails with its audit row",
  );
  t.equal(await sealed(), secretBefore, "the secret is as it was");
});

t.test("a redelivery and its audit row commit together, or neither does", async (t) => {
  const traceId = await payout();
  await decide(ann, traceId, PayoutDecision.REJECT);
  const cb = await until(async () => {
    const [c] = await svc().sql<{ id: string; state: string }>(
      "select id::text as id, state from callback where trace_id = $1 and state <> 'pending' order by id limit 1",
      [traceId],
    );
    return c;
  }, 10_000);
  t.ok(cb, "the rejection's callback was delivered");
  if (!cb) return;
  const row = async () => (await svc().sql<{ state: string; attempts: number }>("select state, attempts from callback where id = $1", [cb.id]))[0];
  const was = await row();
  await refuseAudit(t, svc(), `callback:${cb.id}`);
  t.ok(await fails(bo().redeliverCallback({ context: ctx(lead.sessionToken), id: BigInt(cb.id) })), "the redelivery fails with its audit row");
  t.same(await row(), was, "the callback was not made due again");
  await svc().sql("drop trigger refuse_audit_for_test on audit_log");
  await bo().redeliverCallback({ context: ctx(lead.sessionToken), id: BigInt(cb.id) });
  const audited = await svc().sql("select 1 from audit_log where target = $1 and action = 'callback.redeliver' and outcome = 'success'", [`callback:${cb.id}`]);
  t.equal(audited.length, 1);
});

t.test("a four-eyes first approval and its audit row commit together; the same operator's second is audited as a failure", async (t) => {
  await bo().setFourEyesThresholds({ context: ctx(lead.sessionToken), merchantId: "m-plat-manual", thresholds: [{ amountMinor: 5000n, currency: "USD" }] });
  const traceId = await payout(10_000);
  const firsts = async () =>
    svc().sql<{ login: string; xid: string }>("select login, xmin::text as xid from payout_first_approval where trace_id = $1", [traceId]);

  await refuseAudit(t, svc(), `trace_id:${traceId}`);
  t.ok(await fails(decide(ann, traceId, PayoutDecision.APPROVE)), "the first approval fails with its audit row");
  t.same(await firsts(), [], "no first approval was kept");
  await svc().sql("drop trigger refuse_audit_for_test on audit_log");

  t.equal((await decide(ann, traceId, PayoutDecision.APPROVE)).awaitingSecondApproval, true);
  const [first] = await firsts();
  t.equal(first.login, "ann");
  const [row] = await svc().sql<{ xid: string }>("select xmin::text as xid from audit_log where target = $1 and action = 'payout.approve.first'", [
    `trace_id:${traceId}`,
  ]);
  t.equal(row?.xid, first.xid, "the first approval and its audit row: one transaction");

  t.ok(await fails(decide(ann, traceId, PayoutDecision.APPROVE)), "the same operator cannot approve twice");
  const refused = await svc().sql("select 1 from audit_log where target = $1 and action = 'payout.approve' and outcome = 'failure'", [`trace_id:${traceId}`]);
  t.equal(refused.length, 1, "the refusal is audited");
  t.equal((await decide(ben, traceId, PayoutDecision.APPROVE)).awaitingSecondApproval, false, "another operator's approval goes through");
  await bo().setFourEyesThresholds({ context: ctx(lead.sessionToken), merchantId: "m-plat-manual", thresholds: [] });
});

t.test("many decisions at once leave an intact chain, a success row for each decision kept", async (t) => {
  const ids = await Promise.all(Array.from({ length: 12 }, () => payout()));
  // Each payout is decided by both operators at the same moment, in different ways: one wins, the other is audited as a failure
  // (or, when a cancellation comes right after an approval to A, both are decisions the history keeps).
  const kinds = [PayoutDecision.APPROVE, PayoutDecision.REJECT, PayoutDecision.CANCEL];
  const outcomes = await Promise.allSettled(ids.flatMap((id, i) => [decide(ann, id, kinds[i % 3]), decide(ben, id, kinds[(i + 1) % 3])]));
  t.equal(outcomes.filter((o) => o.status === "fulfilled").length, ids.length, "one decision per payout went through");
  for (const id of ids) {
    const rows = await svc().sql<{ actor: string; action: string; outcome: string }>(
      "select actor, action, outcome from audit_log where target = $1 and action like 'payout.%' order by id",
      [`trace_id:${id}`],
    );
    const events = await svc().sql<{ cause: string }>("select cause from transaction_event where trace_id = $1 and cause like 'backoffice:%' order by id", [
      id,
    ]);
    t.equal(rows.length, 2, `payout ${id}: one row per request`);
    // A success row for each decision the history kept (an approval at A may still be cancelled after it), a failure for the rest.
    t.same(
      rows
        .filter((r) => r.outcome === "success")
        .map((r) => `backoffice:${r.action.split(".")[1]}:${r.actor}`)
        .sort(),
      events.map((e) => e.cause).sort(),
      `payout ${id}: the audited successes are the decisions in its history`,
    );
  }
  const check = await runAuditCheck(svc());
  t.equal(check.code, 0, check.stdout);
  t.match(check.stdout, /audit chain intact/);
  const gaps = await svc().sql<{ n: number }>(
    "select count(*)::int as n from audit_log a where a.id > 1 and not exists (select 1 from audit_log b where b.id = a.id - 1)",
  );
  t.equal(gaps[0].n, 0, "ids without a gap");
});
