/**
 * The roles of the Backoffice against the running engine over gRPC: every
 * (role, action) pair is tried with a real call and is either let through or
 * refused with PERMISSION_DENIED naming the action (and audited); the
 * expected table is written here from the roles' definitions (viewer reads,
 * support adds redelivery and check now, payouts adds payout decisions, holds,
 * refunds, sale cancels and the Virtual Terminal's MOTO sale, admin
 * everything), not read from the code. An operator scoped to one merchant
 * sees and acts on nothing of another: those answer NOT_FOUND. Card numbers come back masked.
 */
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { ConsoleErrorReason, ConsoleErrorSchema } from "../../gen/cashier/admin/v1/console_pb.js";
import { PayoutDecision, PayoutReason } from "../../gen/cashier/admin/v1/console_work_service_pb.js";
import { movableClock } from "../support/clock.ts";
import { useService } from "../support/service.ts";
import { type BackofficeClient, backofficeClient, ctx, enrolOperator } from "../support/operators.ts";
import { orderId, processSale } from "../support/wire.ts";
import { OTHER_SECRET } from "../support/merchants.ts";

const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

type Call = (c: BackofficeClient, token: string) => Promise<unknown>;

/** One real call per action, with arguments that change nothing when the call is let through. */
const CALLS: Record<string, Call> = {
  "transaction.read": (c, s) => c.searchTransactions({ context: ctx(s), filter: { merchantId: "m-test" } }),
  "payout.read": (c, s) => c.listPayoutQueue({ context: ctx(s) }),
  "merchant.read": (c, s) => c.getMerchant({ context: ctx(s), merchantId: "m-test" }),
  "dashboard.read": (c, s) => c.getDashboard({ context: ctx(s) }),
  "callback.redeliver": (c, s) => c.redeliverCallback({ context: ctx(s), id: 987_654n }),
  "transaction.check": (c, s) => c.checkTransactionNow({ context: ctx(s), traceId: 987_654 }),
  "payout.decide": (c, s) => c.decidePayout({ context: ctx(s), traceId: 987_654, decision: PayoutDecision.APPROVE, reason: PayoutReason.CHECKS_PASSED }),
  "payout.hold": (c, s) => c.holdPayout({ context: ctx(s), traceId: 987_654, reason: "role walk" }),
  "transaction.refund": (c, s) =>
    c.refundSale({ context: ctx(s), traceId: 987_654, amount: { amountMinor: 100n, currency: "EUR" }, reason: "role walk", requestId: "role-walk-refund" }),
  "transaction.cancel": (c, s) => c.cancelSale({ context: ctx(s), traceId: 987_654, reason: "role walk" }),
  // A merchant that does not exist: NOT_FOUND when let through, nothing charged.
  "transaction.moto": (c, s) =>
    c.takeMotoPayment({
      context: ctx(s),
      merchantId: "m-none",
      amount: { amountMinor: 100n, currency: "EUR" },
      reason: "role walk",
      requestId: "role-walk-moto",
    }),
  "merchant.update": (c, s) => c.setFourEyesThresholds({ context: ctx(s), merchantId: "m-single", thresholds: [] }),
  "merchant.rotate_secret": (c, s) => c.rotateMerchantSecret({ context: ctx(s), rotation: { merchantId: "m-none", newSecret: "a-new-secret-0123456789" } }),
  "operator.read": (c, s) => c.listOperators({ context: ctx(s) }),
  "operator.manage": (c, s) => c.resetOperator({ context: ctx(s), login: "no-such-operator" }),
  "audit.read": (c, s) => c.verifyAuditChain({ context: ctx(s) }),
  "audit.export": (c, s) => c.listAuditEntries({ context: ctx(s), export: true }),
};

const READS = ["transaction.read", "payout.read", "merchant.read", "dashboard.read"];
const EXPECTED: Record<string, string[]> = {
  viewer: READS,
  support: [...READS, "callback.redeliver", "transaction.check"],
  // Money moves from payouts up (docs/backoffice-operations.md, Money actions).
  payouts: [
    ...READS,
    "callback.redeliver",
    "transaction.check",
    "payout.decide",
    "payout.hold",
    "transaction.refund",
    "transaction.cancel",
    "transaction.moto",
  ],
  admin: Object.keys(CALLS),
};

async function outcome(p: Promise<unknown>): Promise<{ code: Code | undefined; action: string }> {
  try {
    await p;
    return { code: undefined, action: "" };
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, action: e.findDetails(ConsoleErrorSchema)[0]?.action ?? "" };
  }
}

t.test("every (role, action) pair: allowed, or PERMISSION_DENIED naming the action", async (t) => {
  for (const role of ["viewer", "support", "payouts", "admin"] as const) {
    const op = await enrolOperator(svc(), bo(), clock, `walk-${role}`, role);
    for (const action of Object.keys(CALLS)) {
      const r = await outcome(CALLS[action](bo(), op.sessionToken));
      if (EXPECTED[role].includes(action)) {
        t.not(r.code, Code.PermissionDenied, `${role} may ${action}`);
        t.not(r.code, Code.Unauthenticated, `${role} ${action}: the session holds`);
      } else {
        t.equal(r.code, Code.PermissionDenied, `${role} may not ${action}`);
        t.equal(r.action, action, `${role} ${action}: the refusal names the action`);
      }
    }
  }
  const denied = await svc().sql<{ n: string }>("select count(*) as n from audit_log where outcome = 'failure' and detail like 'role % does not allow %'");
  t.equal(Number(denied[0].n), 13 + 11 + 6, "each refused action is in the audit log");
  const targets = await svc().sql<{ action: string; target: string }>(
    "select action, target from audit_log where actor = 'walk-viewer' and outcome = 'failure' and action in ('payout.decide', 'callback.redeliver', 'transaction.check', 'operator.manage') order by id",
  );
  t.same(
    targets.map((r) => `${r.action} ${r.target}`),
    ["callback.redeliver callback:987654", "transaction.check trace_id:987654", "payout.decide trace_id:987654", "operator.manage operator:no-such-operator"],
    "a refusal by role names what was tried on",
  );
  const viewer = await enrolOperator(svc(), bo(), clock, "bulk-viewer", "viewer");
  const bulk = await outcome(bo().bulkApprovePayouts({ context: ctx(viewer.sessionToken), traceIds: [987_654, 987_655], reason: PayoutReason.CHECKS_PASSED }));
  t.equal(bulk.code, Code.PermissionDenied);
  const [row] = await svc().sql<{ target: string }>("select target from audit_log where actor = 'bulk-viewer' and outcome = 'failure'");
  t.equal(row?.target, "trace_id:987654,trace_id:987655", "a refused bulk approval names the payouts it was asked for");
});

t.test("a session is needed for every call but enrolment and sign-in", async (t) => {
  for (const action of Object.keys(CALLS)) {
    const r = await outcome(CALLS[action](bo(), ""));
    t.equal(r.code, Code.Unauthenticated, action);
  }
  const edge = backofficeClient(svc().engineUrl, svc().engine.edgeToken);
  t.equal((await outcome(edge.signIn({ context: ctx(), login: "x", password: "y" }))).code, Code.Unauthenticated, "the edge's token opens no Backoffice call");
  const own = backofficeClient(svc().engineUrl, svc().engine.backofficeToken);
  t.equal((await outcome(own.signIn({ context: ctx(), login: "nobody", password: "a long wrong password" }))).action, "", "the Backoffice's token does");
  // The three console services stand behind the same tokens: the edge's opens none of them, the Backoffice's each.
  const reasonOf = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => undefined,
      (err: unknown) => ConnectError.from(err),
    );
    return { code: e?.code, reason: e?.findDetails(ConsoleErrorSchema)[0]?.reason };
  };
  for (const [service, call] of [
    ["ConsoleAuthService", (c: BackofficeClient) => c.getConsoleSession({ context: ctx() })],
    ["ConsoleWorkService", (c: BackofficeClient) => c.listPayoutQueue({ context: ctx() })],
    ["ConsoleSettingsService", (c: BackofficeClient) => c.listOperators({ context: ctx() })],
  ] as const) {
    t.same(await reasonOf(call(edge)), { code: Code.Unauthenticated, reason: undefined }, `the edge's token opens no ${service} call`);
    t.same(
      await reasonOf(call(own)),
      { code: Code.Unauthenticated, reason: ConsoleErrorReason.SESSION_REQUIRED },
      `the Backoffice's token opens ${service}: the call asks for a session`,
    );
  }
});

t.test("merchant scope: an operator of m-test sees nothing of m-other; cards are masked", async (t) => {
  const mine = await processSale(svc().edgeUrl, { order_id: orderId("scope"), card_number: "4111111111111111" });
  const theirs = await processSale(svc().edgeUrl, { merchant_id: "m-other", frontend: "other-usd", order_id: orderId("scope") }, OTHER_SECRET);
  t.equal(mine.http, 200);
  t.equal(theirs.http, 200);
  const op = await enrolOperator(svc(), bo(), clock, "scoped-admin", "admin", ["m-test"]);
  const s = op.sessionToken;

  const all = await bo().searchTransactions({ context: ctx(s), filter: {} });
  t.ok(all.transactions.length > 0);
  t.ok(
    all.transactions.every((x) => x.merchantId === "m-test"),
    "an empty merchant filter searches the scope only",
  );
  t.ok(
    all.transactions.every((x) => !x.card?.maskedNumber || /^\d{6}\*+\d{4}$/.test(x.card.maskedNumber)),
    "masked cards",
  );
  t.notOk(JSON.stringify(all, (_k, v) => (typeof v === "bigint" ? String(v) : v)).includes("4111111111111111"));

  const outside = [
    () => bo().searchTransactions({ context: ctx(s), filter: { merchantId: "m-other" } }),
    () => bo().getTransactionDetail({ context: ctx(s), traceId: theirs.body.trace_id }),
    () => bo().checkTransactionNow({ context: ctx(s), traceId: theirs.body.trace_id }),
    () => bo().getMerchant({ context: ctx(s), merchantId: "m-other" }),
    () => bo().setFourEyesThresholds({ context: ctx(s), merchantId: "m-other", thresholds: [] }),
    () => bo().getDashboard({ context: ctx(s), merchantId: "m-other" }),
    () => bo().listPayoutQueue({ context: ctx(s), merchantId: "m-other" }),
  ];
  for (const call of outside) t.equal((await outcome(call())).code, Code.NotFound, "outside the scope: not found");
  const detail = await bo().getTransactionDetail({ context: ctx(s), traceId: mine.body.trace_id });
  t.equal(detail.transaction?.merchantId, "m-test", "inside: found");
  const merchants = await bo().listMerchants({ context: ctx(s) });
  t.same(
    merchants.merchants.map((m) => m.merchantId),
    ["m-test"],
  );
  // A scoped admin cannot grant what it does not hold.
  const grant = await outcome(bo().createOperator({ context: ctx(s), create: { login: "wider", role: 4, merchantIds: [] } }));
  t.equal(grant.code, Code.InvalidArgument);
  const ok = await bo().createOperator({ context: ctx(s), create: { login: "narrow", role: 1, merchantIds: ["m-test"] } });
  t.ok(ok.enrolment?.token);
  // Operators outside its scope do not exist for it either: the same answer as a login nobody has.
  const lead = await enrolOperator(svc(), bo(), clock, "roles-lead", "admin");
  const theirsOp = await bo().createOperator({ context: ctx(lead.sessionToken), create: { login: "their-viewer", role: 1, merchantIds: ["m-other"] } });
  t.ok(theirsOp.enrolment?.token);
  for (const login of ["their-viewer", "no-such-operator"]) {
    for (const call of [
      () => bo().disableOperator({ context: ctx(s), login }),
      () => bo().resetOperator({ context: ctx(s), login }),
      () => bo().updateOperator({ context: ctx(s), login, role: 1, merchantIds: ["m-test"] }),
    ]) {
      const r = await outcome(call());
      t.equal(r.code, Code.NotFound, `${login}: not found`);
    }
  }
  t.equal((await bo().disableOperator({ context: ctx(s), login: "narrow" })).operator?.login, "narrow", "inside its scope: managed");

  // Every refusal past the role check is in the audit log, with what was tried on: a probe is visible too.
  const failures = await svc().sql<{ action: string; target: string; merchant_id: string }>(
    "select action, target, merchant_id from audit_log where actor = 'scoped-admin' and outcome = 'failure' order by id",
  );
  t.same(
    failures.map((r) => `${r.action} ${r.target}`),
    [
      `transaction.check trace_id:${theirs.body.trace_id}`,
      "merchant.four_eyes merchant:m-other",
      "operator.create operator:wider",
      ...["their-viewer", "no-such-operator"].flatMap((l) => [
        `operator.disable operator:${l}`,
        `operator.reset operator:${l}`,
        `operator.update operator:${l}`,
      ]),
    ],
    "the check and the four-eyes change out of its scope, the wider grant, and each operator out of its reach",
  );
  t.ok(
    failures.every((r) => r.merchant_id === ""),
    "no row files a refusal under a merchant out of its scope (that merchant's own operators would read it)",
  );
});
