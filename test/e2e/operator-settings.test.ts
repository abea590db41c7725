/**
 * Settings and search through the console against the running service: an
 * admin's merchant change goes through AdminService's own validation and is
 * audited with the merchant before and after; a secret rotation is audited
 * without the secret; an operator's role change ends its sessions; a search
 * over several merchants in scope pages through every row once, newest first.
 */
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { PayoutApproval } from "../../gen/cashier/admin/v1/merchant_pb.js";
import { OperatorRole } from "../../gen/cashier/admin/v1/operator_pb.js";
import { movableClock } from "../support/clock.ts";
import { OTHER_SECRET } from "../support/merchants.ts";
import { backofficeClient, ctx, enrolOperator } from "../support/operators.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

const code = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => ConnectError.from(err).code,
  );

t.test("merchant changes and rotations are audited with before and after, never the secret", async (t) => {
  const admin = await enrolOperator(svc(), bo(), clock, "settings-admin", "admin");
  const s = admin.sessionToken;
  const r = await bo().updateMerchant({
    context: ctx(s),
    update: { merchant: { merchantId: "m-single", payoutApproval: PayoutApproval.MANUAL }, updateMask: { paths: ["payout_approval"] } },
  });
  t.equal(r.merchant?.payoutApproval, PayoutApproval.MANUAL);
  const bad = await code(
    bo().updateMerchant({
      context: ctx(s),
      update: { merchant: { merchantId: "m-single", platformUrl: "not a url" }, updateMask: { paths: ["platform_url"] } },
    }),
  );
  t.equal(bad, Code.InvalidArgument, "AdminService's validation applies");
  const secret = "a-brand-new-secret-0123456789";
  const rot = await bo().rotateMerchantSecret({ context: ctx(s), rotation: { merchantId: "m-single", newSecret: secret, overlapSeconds: 3600 } });
  t.ok(rot.merchant?.previousSecretExpireTime);
  const rows = await svc().sql<{ action: string; outcome: string; before_json: string; after_json: string }>(
    "select action, outcome, before_json, after_json from audit_log where merchant_id = 'm-single' order by id",
  );
  t.same(
    rows.map((x) => [x.action, x.outcome]),
    [
      ["merchant.update", "success"],
      ["merchant.update", "failure"],
      ["merchant.rotate_secret", "success"],
    ],
  );
  t.match(rows[0].before_json, /"payoutApproval":"PAYOUT_APPROVAL_AUTO"/);
  t.match(rows[0].after_json, /"payoutApproval":"PAYOUT_APPROVAL_MANUAL"/);
  const all = JSON.stringify(await svc().sql("select * from audit_log"));
  t.notOk(all.includes(secret), "the new secret is nowhere in the log");
  t.notOk(all.includes(OTHER_SECRET));
});

t.test("a role change ends the operator's sessions; no one changes or disables itself", async (t) => {
  const admin = await enrolOperator(svc(), bo(), clock, "boss", "admin");
  const op = await enrolOperator(svc(), bo(), clock, "helper", "payouts");
  const changed = await bo().updateOperator({ context: ctx(admin.sessionToken), login: "helper", role: OperatorRole.VIEWER, merchantIds: ["m-test"] });
  t.equal(changed.operator?.role, OperatorRole.VIEWER);
  t.equal(await code(bo().getConsoleSession({ context: ctx(op.sessionToken) })), Code.Unauthenticated, "signed out by the change");
  t.equal(await code(bo().disableOperator({ context: ctx(admin.sessionToken), login: "boss" })), Code.InvalidArgument);
  t.equal(
    await code(bo().updateOperator({ context: ctx(admin.sessionToken), login: "boss", role: OperatorRole.VIEWER, merchantIds: [] })),
    Code.InvalidArgument,
  );
  const list = await bo().listOperators({ context: ctx(admin.sessionToken) });
  t.ok(list.operators.some((o) => o.login === "helper" && o.role === OperatorRole.VIEWER));
});

t.test("a search over several merchants in scope pages through every row once, newest first", async (t) => {
  const made: number[] = [];
  for (let i = 0; i < 3; i++) {
    made.push((await processSale(svc().edgeUrl, { order_id: orderId("multi") })).body.trace_id);
    made.push((await processSale(svc().edgeUrl, { merchant_id: "m-other", frontend: "other-usd", order_id: orderId("multi") }, OTHER_SECRET)).body.trace_id);
  }
  const op = await enrolOperator(svc(), bo(), clock, "two-shops", "viewer", ["m-test", "m-other"]);
  const seen: number[] = [];
  let pageToken = "";
  for (let i = 0; i < 50; i++) {
    const page = await bo().searchTransactions({ context: ctx(op.sessionToken), filter: { pageSize: 2, pageToken } });
    t.ok(page.transactions.length <= 2);
    seen.push(...page.transactions.map((x) => x.traceId));
    for (const x of page.transactions) t.ok(["m-test", "m-other"].includes(x.merchantId));
    pageToken = page.nextPageToken;
    if (!pageToken) break;
  }
  t.same(
    seen,
    [...seen].sort((a, b) => b - a),
    "newest first",
  );
  t.equal(new Set(seen).size, seen.length, "no row twice");
  for (const id of made) t.ok(seen.includes(id), `trace ${id} is found`);
});
