/**
 * Risk rules against the running service (engine, edge, Postgres, the
 * acquirer simulator): an admin's velocity rule lets a customer's first two
 * sales of the hour through and declines the third with error_code 9009 and
 * the catalogue's words, before any processor call, its history naming the
 * rule; a daily deposit limit declines the sale that would pass it and not the
 * one that reaches it exactly; the dry run counts what a stricter rule would
 * have refused over the stored sales; a viewer and a payouts operator may
 * read the rules but not change them (PERMISSION_DENIED naming risk.edit); a
 * bad rule is refused naming its field; each save, delete and refusal is
 * audited; a deleted rule refuses nothing more.
 */
import t from "tap";
import { Code, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ConsoleRiskService } from "../../gen/cashier/admin/v1/console_risk_service_pb.js";
import { movableClock } from "../support/clock.ts";
import { backofficeClient, ctx, type EnrolledOperator, enrolOperator } from "../support/operators.ts";
import { SERVICE_TOKEN, useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
const svc = useService(t, () => ({}), { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

function risk() {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${SERVICE_TOKEN}`);
    return next(req);
  };
  return createClient(ConsoleRiskService, createGrpcTransport({ baseUrl: svc().engineUrl, interceptors: [auth] }));
}

const ops: Record<"admin" | "viewer" | "payouts", EnrolledOperator> = {} as never;
const as = (op: EnrolledOperator) => ctx(op.sessionToken);
const PIN = `rsk-${process.pid}`;
const PIN2 = `rsk2-${process.pid}`;

async function causes(traceId: number): Promise<string[]> {
  const got = await svc().client.getTransaction({ traceId });
  return got.transaction?.history.map((h) => h.cause) ?? [];
}

const sale = (over: Record<string, unknown>) => processSale(svc().edgeUrl, { order_id: orderId("rsk"), ...over });
const velocity = { name: "Two sales an hour", kind: "velocity", transactionType: "sale", key: "customer", windowSeconds: 3600n, maxCount: 2n };

t.before(async () => {
  ops.admin = await enrolOperator(svc(), bo(), clock, "rsk-ann", "admin");
  ops.viewer = await enrolOperator(svc(), bo(), clock, "rsk-vic", "viewer");
  ops.payouts = await enrolOperator(svc(), bo(), clock, "rsk-pat", "payouts");
});

let velocityId = 0n;

t.test("a velocity rule declines the third sale of the hour with 9009, before any processor", async (t) => {
  const saved = await risk().saveRiskRule({ context: as(ops.admin), merchantId: "m-test", id: 0n, spec: velocity });
  velocityId = saved.rule?.id ?? 0n;
  t.ok(velocityId > 0n);
  t.same([saved.rule?.spec?.name, saved.rule?.updatedBy], ["Two sales an hour", "backoffice:rsk-ann"]);

  for (const n of [1, 2]) {
    const ok = await sale({ pin: PIN });
    t.equal(ok.body.transaction_status, "approved", `sale ${n} of the hour passes`);
  }
  const refused = await sale({ pin: PIN });
  t.same(
    [refused.http, refused.body.transaction_status, refused.body.error_code, refused.body.error_details],
    [200, "declined", 9009, "Declined by the merchant's risk rules"],
  );
  t.notMatch(refused.text, "Two sales", "the rule's name is not the platform's to read");
  const history = await causes(refused.body.trace_id);
  t.same(
    history.filter((c) => c.startsWith("processor:")),
    [],
    "no processor step",
  );
  t.ok(history.includes(`risk:${velocityId}:Two sales an hour`), "the history names the rule by id and name");
  const other = await sale({ pin: `${PIN}-other` });
  t.equal(other.body.transaction_status, "approved", "another customer is counted apart");
});

t.test("a daily deposit limit refuses the sale that would pass it", async (t) => {
  const limit = await risk().saveRiskRule({
    context: as(ops.admin),
    merchantId: "m-test",
    id: 0n,
    spec: { name: "20 USD a day", kind: "deposit_limit", period: "day", currency: "USD", maxAmountMinor: 2000n },
  });
  const first = await sale({ pin: PIN2, amount: 1500 });
  t.equal(first.body.transaction_status, "approved");
  const over = await sale({ pin: PIN2, amount: 501 });
  t.same([over.body.transaction_status, over.body.error_code], ["declined", 9009], "15.00 + 5.01 is over 20.00");
  t.ok((await causes(over.body.trace_id)).includes(`risk:${limit.rule?.id}:20 USD a day`));
  await risk().deleteRiskRule({ context: as(ops.admin), merchantId: "m-test", id: limit.rule?.id ?? 0n });
});

t.test("the dry run counts what a rule would have refused over the last 7 days", async (t) => {
  const oneAnHour = { ...velocity, name: "One an hour", maxCount: 1n };
  const run = await risk().dryRunRiskRule({ context: as(ops.admin), merchantId: "m-test", spec: oneAnHour });
  // PIN: 3 sales (2 refused); PIN2: 2 (1 refused); the other customer's 1: none.
  t.same([run.refusedCount, run.examinedCount], [3, 6]);
  t.ok(run.since, "from when");
  t.same(
    (await risk().listRiskRules({ context: as(ops.viewer), merchantId: "m-test" })).rules.map((r) => r.spec?.name),
    ["Two sales an hour"],
    "nothing saved",
  );
});

t.test("who may change rules, bad fields, audit rows, a deleted rule refuses nothing", async (t) => {
  for (const op of [ops.viewer, ops.payouts]) {
    const denied = await refusal(risk().saveRiskRule({ context: as(op), merchantId: "m-test", id: 0n, spec: velocity }));
    t.same([denied.code, denied.action], [Code.PermissionDenied, "risk.edit"], "only an admin saves");
    const del = await refusal(risk().deleteRiskRule({ context: as(op), merchantId: "m-test", id: velocityId }));
    t.equal(del.code, Code.PermissionDenied, "nor deletes");
    const dry = await refusal(risk().dryRunRiskRule({ context: as(op), merchantId: "m-test", spec: velocity }));
    t.equal(dry.code, Code.PermissionDenied, "nor dry-runs");
  }
  const bad = await refusal(
    risk().saveRiskRule({
      context: as(ops.admin),
      merchantId: "m-test",
      id: 0n,
      spec: { ...velocity, windowSeconds: 0n, currency: "usd", maxAmountMinor: 5n },
    }),
  );
  t.same([bad.code, bad.fields], [Code.InvalidArgument, ["spec.window_seconds", "spec.currency"]], "each field at fault");
  const missing = await refusal(risk().saveRiskRule({ context: as(ops.admin), merchantId: "m-test", id: 999_999n, spec: velocity }));
  t.equal(missing.code, Code.NotFound, "replacing a rule that is not there");
  const elsewhere = await refusal(risk().listRiskRules({ context: as(ops.admin), merchantId: "m-nope" }));
  t.equal(elsewhere.code, Code.NotFound);

  await risk().deleteRiskRule({ context: as(ops.admin), merchantId: "m-test", id: velocityId });
  const after = await sale({ pin: PIN });
  t.equal(after.body.transaction_status, "approved", "the deleted rule refuses nothing");

  const audit = await svc().sql<{ actor: string; outcome: string; target: string }>(
    "select actor, outcome, target from audit_log where action = 'risk.edit' order by id",
  );
  t.same(
    audit.map((r) => `${r.actor} ${r.outcome}`),
    [
      "rsk-ann success", // the velocity rule saved
      "rsk-ann success", // the limit saved
      "rsk-ann success", // and deleted
      ...["rsk-vic", "rsk-vic", "rsk-vic", "rsk-pat", "rsk-pat", "rsk-pat"].map((a) => `${a} failure`), // denied
      "rsk-ann failure", // fields at fault
      "rsk-ann failure", // no such rule
      "rsk-ann success", // the velocity rule deleted
    ],
    "saves, deletes and every refused change audited",
  );
  t.equal(audit[0]?.target, `risk_rule:${velocityId}`);
});
