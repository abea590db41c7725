/**
 * AdminService's state-changing calls are audited like the Backoffice's, over
 * real gRPC against the running engine and its Postgres: each payout decision,
 * merchant, frontend, secret and processor-account change, redelivery and
 * operator change leaves one row with the actor (operator:<name> where the
 * call names an operator, else service:admin), the caller's address, the
 * action and the before/after values, written by the change's own database
 * transaction; a refused call leaves a failure row; read-only calls none; no
 * secret is in any row; after a mix of console and AdminService actions
 * `npm run audit-check` finds the chain intact.
 */
import t, { type Test } from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { PayoutDecision, PayoutReason } from "../../gen/cashier/admin/v1/console_work_service_pb.js";
import { PayoutApproval } from "../../gen/cashier/admin/v1/merchant_pb.js";
import { OperatorRole } from "../../gen/cashier/admin/v1/operator_pb.js";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { movableClock } from "../support/clock.ts";
import { SECRET } from "../support/merchants.ts";
import { backofficeClient, ctx, enrolOperator, type EnrolledOperator, runAuditCheck, refuseAudit } from "../support/operators.ts";
import { usePlatformService } from "../support/platform-service.ts";
import { until } from "../support/until.ts";
import { orderId, processSale } from "../support/wire.ts";

const clock = movableClock();
const { svc } = usePlatformService(t, {}, { now: clock.now });
const admin = () => svc().admin;
const bo = () => backofficeClient(svc().engineUrl);

const NEW_SECRET = "audit-merchant-secret-0123456789";
const ROTATED_SECRET = "audit-rotated-secret-9876543210";
const API_KEY = "audit-api-key-abcdefghijklmnop";
const LOCAL = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;

interface Row {
  id: number;
  actor: string;
  action: string;
  outcome: string;
  merchant_id: string;
  target: string;
  client_address: string;
  before_json: string;
  after_json: string;
  detail: string;
  xid: string;
}

/** The audit rows written since `after`, oldest first. */
const rowsSince = (after: number) =>
  svc().sql<Row>(
    `select id, actor, action, outcome, merchant_id, target, client_address, before_json, after_json, detail, xmin::text as xid
       from audit_log where id > $1 order by id`,
    [after],
  );
const lastId = async () => (await svc().sql<{ id: number | null }>("select max(id)::int as id from audit_log"))[0].id ?? 0;

/** Runs `fn` and returns the one audit row it wrote. */
async function oneRow(t: Test, what: string, fn: () => Promise<unknown>): Promise<Row> {
  const from = await lastId();
  await fn().catch(() => undefined);
  const rows = await rowsSince(from);
  t.equal(rows.length, 1, `${what}: one audit row`);
  return rows[0];
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => ConnectError.from(e).code,
  );

async function payout(): Promise<number> {
  const r = await processSale(svc().edgeUrl, {
    merchant_id: "m-plat-manual",
    frontend: "manual-usd",
    order_id: orderId("aud"),
    transaction_type: "payout",
    cvv: undefined,
    amount: 700,
    pin: "cust-aud",
  });
  t.equal(r.body.transaction_status, "requested");
  return r.body.trace_id as number;
}

/** The database transaction that wrote a payout's step with `cause`. */
const eventXid = async (traceId: number, cause: string) =>
  (await svc().sql<{ xid: string }>("select xmin::text as xid from transaction_event where trace_id = $1 and cause = $2", [traceId, cause]))[0]?.xid;

let lead: EnrolledOperator;
t.before(async () => {
  lead = await enrolOperator(svc(), bo(), clock, "lead", "admin");
});

t.test("payout decisions: one row each, by operator:<name>, written with the decision; refusals are failures", async (t) => {
  const rejected = await payout();
  const rej = await oneRow(t, "reject", () => admin().rejectPayout({ traceId: rejected, operator: "ops-bot", reason: "kyc missing" }));
  t.match(rej, { actor: "operator:ops-bot", action: "payout.reject", outcome: "success", merchant_id: "m-plat-manual", target: `trace_id:${rejected}` });
  t.match(rej.client_address, LOCAL, "the caller's address");
  t.match(rej.before_json, /"status":"requested"/);
  t.match(rej.after_json, /"payout_letter":"J".*"reason":"kyc missing"|"reason":"kyc missing".*"payout_letter":"J"/);
  t.equal(rej.xid, await eventXid(rejected, "operator:reject:ops-bot"), "the rejection and its row: one database transaction");

  const approved = await payout();
  const app = await oneRow(t, "approve", () => admin().approvePayout({ traceId: approved, operator: "ops-bot" }));
  t.match(app, { actor: "operator:ops-bot", action: "payout.approve", outcome: "success" });
  t.match(app.after_json, /"payout_letter":"A"/, "the audited after is the approval itself");
  t.equal(app.xid, await eventXid(approved, "operator:approve:ops-bot"));

  const cancelled = await payout();
  const can = await oneRow(t, "cancel", () => admin().cancelPayout({ traceId: cancelled, operator: "ops-bot", reason: "asked" }));
  t.match(can, { actor: "operator:ops-bot", action: "payout.cancel", outcome: "success" });
  t.match(can.after_json, /"status":"cancelled"/);
  t.equal(can.xid, await eventXid(cancelled, "operator:cancel:ops-bot"));

  const again = await oneRow(t, "reject a rejected payout", async () =>
    t.equal(await codeOf(admin().rejectPayout({ traceId: rejected, operator: "ops-bot", reason: "" })), Code.FailedPrecondition),
  );
  t.match(again, { actor: "operator:ops-bot", action: "payout.reject", outcome: "failure", after_json: "" });
  t.match(again.before_json, /"status":"declined"/);
  t.match(again.detail, /cannot be rejected/);

  const nobody = await oneRow(t, "a decision naming no operator", async () =>
    t.equal(await codeOf(admin().approvePayout({ traceId: await payout(), operator: "" })), Code.InvalidArgument),
  );
  t.match(nobody, { actor: "service:admin", action: "payout.approve", outcome: "failure" });
  const none = await oneRow(t, "trace_id 0", () => admin().cancelPayout({ traceId: 0, operator: "ops-bot", reason: "" }));
  t.match(none, { action: "payout.cancel", outcome: "failure", detail: /trace_id/ });

  // When the row cannot be written, the decision is not kept either.
  const kept = await payout();
  await refuseAudit(t, svc(), `trace_id:${kept}`);
  t.ok(await codeOf(admin().rejectPayout({ traceId: kept, operator: "ops-bot", reason: "" })), "the rejection fails with its row");
  const [state] = await svc().sql<{ status: string }>("select status from transaction where trace_id = $1", [kept]);
  t.equal(state.status, "requested", "the payout stays requested");
});

t.test("merchant, frontend, secret and processor-account changes: before and after, committed with the change", async (t) => {
  const created = await oneRow(t, "create", () =>
    admin().createMerchant({
      merchant: { merchantId: "m-aud", siteId: 3, processors: ["sim-a"], frontends: [{ name: "aud-usd", baseCurrency: "USD", currencies: [] }] },
      secret: NEW_SECRET,
    }),
  );
  t.match(created, { actor: "service:admin", action: "merchant.create", outcome: "success", merchant_id: "m-aud", target: "merchant:m-aud", before_json: "" });
  t.match(created.client_address, LOCAL);
  t.match(created.after_json, /"merchantId":"m-aud"/);
  // (The new merchant is written under a savepoint of the row's transaction, so its xmin is a subtransaction's: the
  // refused-row case below shows they commit together.)
  const merchantXid = async () => (await svc().sql<{ xid: string }>("select xmin::text as xid from merchant where id = 'm-aud'"))[0]?.xid;

  const updated = await oneRow(t, "update", () =>
    admin().updateMerchant({ merchant: { merchantId: "m-aud", payoutApproval: PayoutApproval.MANUAL }, updateMask: { paths: ["payout_approval"] } }),
  );
  t.match(updated, { action: "merchant.update", outcome: "success" });
  t.notMatch(updated.before_json, /PAYOUT_APPROVAL_MANUAL/);
  t.match(updated.after_json, /"payoutApproval":"PAYOUT_APPROVAL_MANUAL"/);
  t.equal(updated.xid, await merchantXid());

  const rotated = await oneRow(t, "rotate", () => admin().rotateMerchantSecret({ merchantId: "m-aud", newSecret: ROTATED_SECRET, overlapSeconds: 60 }));
  t.match(rotated, { action: "merchant.rotate_secret", outcome: "success" });
  t.match(rotated.after_json, /previousSecretExpireTime/);

  const fe = await oneRow(t, "create frontend", () => admin().createFrontend({ merchantId: "m-aud", frontend: { name: "aud-eur", baseCurrency: "EUR" } }));
  t.match(fe, { action: "frontend.create", outcome: "success" });
  t.notMatch(fe.before_json, /aud-eur/);
  t.match(fe.after_json, /aud-eur/);
  const feUp = await oneRow(t, "update frontend", () =>
    admin().updateFrontend({ merchantId: "m-aud", frontend: { name: "aud-eur", baseCurrency: "EUR", currencies: ["EUR", "USD"] } }),
  );
  t.match(feUp, { action: "frontend.update", outcome: "success" });

  const acct = await oneRow(t, "processor account", () =>
    admin().setProcessorAccount({ merchantId: "m-aud", account: { processor: "sim-a", endpointUrl: "http://127.0.0.1:9/", enabled: true }, apiKey: API_KEY }),
  );
  t.match(acct, { action: "processor_account.set", outcome: "success", before_json: "[]" });
  t.match(acct.after_json, /"processor":"sim-a"/);

  // Refusals: each a failure row, nothing changed.
  const dup = await oneRow(t, "create again", async () =>
    t.equal(
      await codeOf(
        admin().createMerchant({
          merchant: { merchantId: "m-aud", processors: ["sim-a"], frontends: [{ name: "aud-usd", baseCurrency: "USD" }] },
          secret: NEW_SECRET,
        }),
      ),
      Code.AlreadyExists,
    ),
  );
  t.match(dup, { actor: "service:admin", action: "merchant.create", outcome: "failure", detail: /already exists/ });
  const missing = await oneRow(t, "update a missing merchant", () => admin().updateMerchant({ merchant: { merchantId: "m-nope", siteId: 4 } }));
  t.match(missing, { action: "merchant.update", outcome: "failure", merchant_id: "m-nope", detail: /no merchant/ });
  const short = await oneRow(t, "a short secret", () => admin().rotateMerchantSecret({ merchantId: "m-aud", newSecret: "short" }));
  t.match(short, { action: "merchant.rotate_secret", outcome: "failure", detail: /new_secret/ });
  t.match(short.before_json, /"merchantId":"m-aud"/);

  // Text Postgres cannot hold (a NUL) is still refused as the caller's mistake, and audited.
  const nul = await oneRow(t, "a NUL in the merchant id", async () =>
    t.equal(await codeOf(admin().updateMerchant({ merchant: { merchantId: "m-\u0000x", siteId: 4 } })), Code.InvalidArgument),
  );
  t.match(nul, { action: "merchant.update", outcome: "failure", merchant_id: /^m-.x$/ });
  const nulOp = await oneRow(t, "a NUL in the operator", async () =>
    t.equal(await codeOf(admin().disableOperator({ login: "aud-\u0000", operator: "x\u0000" })), Code.InvalidArgument),
  );
  t.match(nulOp, { actor: "service:admin", action: "operator.disable", outcome: "failure" });

  // When the row cannot be written, the change is not kept either (the create and the processor account included);
  // once the log takes rows again, the same call goes through.
  const createAud2 = () =>
    admin().createMerchant({
      merchant: { merchantId: "m-aud2", processors: ["sim-a"], frontends: [{ name: "aud2-usd", baseCurrency: "USD" }] },
      secret: NEW_SECRET,
    });
  await refuseAudit(t, svc(), "merchant:m-aud2");
  t.ok(await codeOf(createAud2()), "the create fails with its row");
  t.same(await svc().sql("select id from merchant where id = 'm-aud2'"), [], "no merchant without its audit row");
  await svc().sql("drop trigger refuse_audit_for_test on audit_log");
  t.equal(await codeOf(createAud2()), undefined, "the same create goes through with its row");

  const setSimB = () =>
    admin().setProcessorAccount({ merchantId: "m-aud", account: { processor: "sim-b", endpointUrl: "http://127.0.0.1:9/", enabled: true }, apiKey: API_KEY });
  const accounts = async () =>
    (await svc().sql<{ p: string }>("select processor as p from processor_account where merchant_id = 'm-aud' order by processor")).map((r) => r.p);
  await refuseAudit(t, svc(), "merchant:m-aud");
  t.ok(await codeOf(setSimB()), "the account fails with its row");
  t.same(await accounts(), ["sim-a"], "no account without its row");
  await svc().sql("drop trigger refuse_audit_for_test on audit_log");
  t.equal(await codeOf(setSimB()), undefined);
  t.same(await accounts(), ["sim-a", "sim-b"]);
});

t.test("a redelivery is audited as the service's, a refused one as a failure", async (t) => {
  const traceId = await payout();
  await admin().rejectPayout({ traceId, operator: "ops-bot", reason: "" });
  const cb = await until(async () => {
    const [c] = await svc().sql<{ id: string }>("select id::text as id from callback where trace_id = $1 and state <> 'pending' order by id limit 1", [
      traceId,
    ]);
    return c;
  }, 10_000);
  t.ok(cb, "the rejection's callback was delivered");
  if (!cb) return;
  const row = await oneRow(t, "redeliver", () => admin().redeliverCallback({ id: BigInt(cb.id) }));
  t.match(row, { actor: "service:admin", action: "callback.redeliver", outcome: "success", merchant_id: "m-plat-manual", target: `callback:${cb.id}` });
  t.match(row.before_json, new RegExp(`"trace_id":${traceId}`));
  const nope = await oneRow(t, "redeliver a missing callback", () => admin().redeliverCallback({ id: 987_654_321n }));
  t.match(nope, { action: "callback.redeliver", outcome: "failure", detail: /no callback/ });
});

t.test("operator changes carry operator:<name> and the caller's address; refusals are failures", async (t) => {
  const made = await oneRow(t, "create operator", () =>
    admin().createOperator({ login: "aud-op", role: OperatorRole.VIEWER, merchantIds: [], operator: "hr-bot" }),
  );
  t.match(made, { actor: "operator:hr-bot", action: "operator.create", outcome: "success", target: "operator:aud-op" });
  t.match(made.client_address, LOCAL);
  const reset = await oneRow(t, "reset operator", () => admin().resetOperator({ login: "aud-op", operator: "hr-bot" }));
  t.match(reset, { actor: "operator:hr-bot", action: "operator.reset", outcome: "success" });
  t.notMatch(reset.after_json, /token|hash/i, "no credential in the row");
  const disabled = await oneRow(t, "disable operator", () => admin().disableOperator({ login: "aud-op", operator: "hr-bot" }));
  t.match(disabled, { action: "operator.disable", outcome: "success" });
  t.match(disabled.after_json, /disabled/);
  const missing = await oneRow(t, "disable a missing operator", () => admin().disableOperator({ login: "aud-nobody", operator: "hr-bot" }));
  t.match(missing, { actor: "operator:hr-bot", action: "operator.disable", outcome: "failure", target: "operator:aud-nobody" });
  const anonymous = await oneRow(t, "create naming no operator", () =>
    admin().createOperator({ login: "aud-op2", role: OperatorRole.VIEWER, merchantIds: [], operator: "" }),
  );
  t.match(anonymous, { actor: "service:admin", action: "operator.create", outcome: "failure", detail: /operator/ });
});

t.test("read-only calls write nothing", async (t) => {
  const from = await lastId();
  await admin().getMerchant({ merchantId: "m-aud" });
  await admin().listMerchants({});
  await admin().listProcessorAccounts({ merchantId: "m-aud" });
  await admin().listDeliveries({});
  await admin().listFailingDeliveries({});
  await admin().listStuckTransactions({});
  t.same(await rowsSince(from), []);
});

t.test("after console and AdminService actions the chain is intact, and no secret is in any row", async (t) => {
  const a = await payout();
  const b = await payout();
  await Promise.all([
    bo().decidePayout({ context: ctx(lead.sessionToken), traceId: a, decision: PayoutDecision.REJECT, reason: PayoutReason.DUPLICATE, note: "" }),
    admin().approvePayout({ traceId: b, operator: "ops-bot" }),
    bo().setFourEyesThresholds({ context: ctx(lead.sessionToken), merchantId: "m-aud", thresholds: [{ amountMinor: 9000n, currency: "USD" }] }),
    admin().updateMerchant({ merchant: { merchantId: "m-aud", siteId: 9 } }),
  ]);
  const status = (await svc().client.getTransaction({ traceId: a })).transaction?.status;
  t.equal(status, TransactionStatus.DECLINED);
  const actors = await svc().sql<{ actor: string }>("select distinct actor from audit_log order by actor");
  t.ok(
    ["lead", "operator:ops-bot", "service:admin"].every((x) => actors.some((r) => r.actor === x)),
    "console and AdminService rows side by side",
  );
  const check = await runAuditCheck(svc());
  t.equal(check.code, 0, check.stdout);
  t.match(check.stdout, /audit chain intact/);
  const dump = JSON.stringify(await svc().sql("select * from audit_log"));
  for (const secret of [NEW_SECRET, ROTATED_SECRET, API_KEY, SECRET]) t.notOk(dump.includes(secret), "no secret in the audit log");
});
