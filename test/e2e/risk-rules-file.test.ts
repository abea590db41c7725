/**
 * Risk rules from the merchants file against the running service: the start
 * stores the file's rule as the merchant's, marked as the file's and audited
 * by merchants-file; a sale it refuses is declined with 9009 before any
 * processor, its history naming the rule; the console lists the rule but
 * refuses to change or delete it (FAILED_PRECONDITION), and its own rules
 * stand beside it.
 */
import t from "tap";
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ConsoleRiskService } from "../../gen/cashier/admin/v1/console_risk_service_pb.js";
import { movableClock } from "../support/clock.ts";
import { MERCHANTS } from "../support/merchants.ts";
import { backofficeClient, ctx, type EnrolledOperator, enrolOperator } from "../support/operators.ts";
import { SERVICE_TOKEN, useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const FILE_RULE = { name: "One sale an hour", kind: "velocity", transaction_type: "sale", key: "customer", window_seconds: 3600, max_count: 1 };
const merchants = { merchants: MERCHANTS.merchants.map((m) => (m.merchant_id === "m-test" ? { ...m, risk_rules: [FILE_RULE] } : m)) };

const clock = movableClock();
const svc = useService(t, () => ({}), { now: clock.now, merchants });

function risk() {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${SERVICE_TOKEN}`);
    return next(req);
  };
  return createClient(ConsoleRiskService, createGrpcTransport({ baseUrl: svc().engineUrl, interceptors: [auth] }));
}

let admin: EnrolledOperator;
const PIN = `rskf-${process.pid}`;

t.before(async () => {
  admin = await enrolOperator(svc(), backofficeClient(svc().engineUrl), clock, "rskf-ann", "admin");
});

async function code(p: Promise<unknown>): Promise<[Code | undefined, string]> {
  try {
    await p;
    return [undefined, ""];
  } catch (err) {
    const e = ConnectError.from(err);
    return [e.code, e.rawMessage];
  }
}

t.test("the file's rule is the merchant's, marked as the file's, its start audited", async (t) => {
  const { rules } = await risk().listRiskRules({ context: ctx(admin.sessionToken), merchantId: "m-test" });
  t.same(
    rules.map((r) => [r.spec?.name, r.spec?.kind, r.spec?.maxCount, r.fromMerchantsFile, r.updatedBy]),
    [["One sale an hour", "velocity", 1n, true, "merchants-file"]],
  );
  const rows = await svc().sql<{ actor: string; action: string; target: string; after_json: string }>(
    "select actor, action, target, after_json from audit_log where actor = 'merchants-file' order by id",
  );
  t.same(
    rows.map((r) => [r.actor, r.action, r.target]),
    [["merchants-file", "risk.edit", `risk_rule:${rules[0].id}`]],
  );
  t.match(rows[0].after_json, /"source":"file"/);
});

t.test("a sale the file's rule refuses is declined with 9009, before any processor", async (t) => {
  const first = await processSale(svc().edgeUrl, { order_id: orderId("rskf"), pin: PIN });
  t.equal(first.body.transaction_status, "approved");
  const second = await processSale(svc().edgeUrl, { order_id: orderId("rskf"), pin: PIN });
  t.same([second.body.transaction_status, second.body.error_code], ["declined", 9009]);
  const history = (await svc().client.getTransaction({ traceId: second.body.trace_id })).transaction?.history.map((h) => h.cause) ?? [];
  t.same(
    history.filter((c) => c.startsWith("processor:")),
    [],
    "no processor step",
  );
  t.ok(
    history.some((c) => /^risk:\d+:One sale an hour$/.test(c)),
    "the history names the file's rule",
  );
});

t.test("the console may not change or delete the file's rule, and keeps its own beside it", async (t) => {
  const [fileRule] = (await risk().listRiskRules({ context: ctx(admin.sessionToken), merchantId: "m-test" })).rules;
  const spec = { name: "Edited", kind: "velocity", transactionType: "sale", key: "customer", windowSeconds: 3600n, maxCount: 5n };
  const [saveCode, saveWhy] = await code(risk().saveRiskRule({ context: ctx(admin.sessionToken), merchantId: "m-test", id: fileRule.id, spec }));
  t.equal(saveCode, Code.FailedPrecondition);
  t.match(saveWhy, /comes from the merchants file/);
  const [deleteCode] = await code(risk().deleteRiskRule({ context: ctx(admin.sessionToken), merchantId: "m-test", id: fileRule.id }));
  t.equal(deleteCode, Code.FailedPrecondition);
  const own = await risk().saveRiskRule({ context: ctx(admin.sessionToken), merchantId: "m-test", id: 0n, spec: { ...spec, name: "Console's" } });
  t.equal(own.rule?.fromMerchantsFile, false);
  const names = (await risk().listRiskRules({ context: ctx(admin.sessionToken), merchantId: "m-test" })).rules.map((r) => [r.spec?.name, r.fromMerchantsFile]);
  t.same(names, [
    ["One sale an hour", true],
    ["Console's", false],
  ]);
  const refused = await svc().sql<{ n: string }>(
    "select count(*) as n from audit_log where action = 'risk.edit' and outcome = 'failure' and actor = 'rskf-ann'",
  );
  t.equal(Number(refused[0].n), 2, "both refusals audited");
});
