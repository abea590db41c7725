/**
 * The engine's registry without a service: the RPC interceptor labels by
 * method and code, processor outcomes count, the pool is read at scrape time,
 * and the callback gauge yields nothing (never an error) while its table is
 * missing or the database does not answer.
 */
import t from "tap";
import { status } from "@grpc/grpc-js";
import { createEngineMetrics, recordProcessorOutcome, type PoolLike } from "../../../../engine/runtime/metrics.ts";
import { Metadata } from "@grpc/grpc-js";
import { compose, RpcError, type Call } from "../../../../engine/rpc/interceptors.ts";

function fakePool(query: PoolLike["query"]): PoolLike {
  return { totalCount: 5, idleCount: 3, waitingCount: 0, options: { max: 20 }, query };
}

const missingTable = () => Promise.reject(Object.assign(new Error('relation "callback" does not exist'), { code: "42P01" }));

t.test("calls are counted and timed by method and code name", async (t) => {
  const m = createEngineMetrics(async () => fakePool(missingTable), { defaults: false });
  const method = "/cashier.engine.v1.EngineService/Process";
  m.record(method, status.OK, 12);
  m.record(method, status.OK, 30);
  m.record(method, status.UNAUTHENTICATED, 0.2);
  const text = await m.registry.metrics();
  t.match(text, 'cashier_rpc_requests_total{method="cashier.engine.v1.EngineService/Process",code="OK"} 2');
  t.match(text, 'cashier_rpc_requests_total{method="cashier.engine.v1.EngineService/Process",code="UNAUTHENTICATED"} 1');
  t.match(text, 'cashier_rpc_duration_seconds_bucket{le="0.025",method="cashier.engine.v1.EngineService/Process",code="OK"} 1');
  t.match(text, 'cashier_rpc_duration_seconds_count{method="cashier.engine.v1.EngineService/Process",code="OK"} 2');
});

t.test("the interceptor records each call's end: OK, or the code it was refused with, and lets the refusal through", async (t) => {
  const m = createEngineMetrics(async () => fakePool(missingTable), { defaults: false });
  const call = (): Call => ({
    method: "/cashier.admin.v1.AdminService/GetMerchant",
    metadata: new Metadata(),
    deadline: Infinity,
    input: {} as Call["input"],
    bytes: new Uint8Array(),
  });
  const ok = compose([m.interceptor], async () => ({}) as never);
  const refused = compose([m.interceptor], async () => {
    throw new RpcError(status.NOT_FOUND, "no such merchant");
  });
  await ok(call());
  await t.rejects(refused(call()), { code: status.NOT_FOUND, message: "no such merchant" });
  await t.rejects(refused(call()), { code: status.NOT_FOUND });
  const text = await m.registry.metrics();
  t.match(text, 'cashier_rpc_requests_total{method="cashier.admin.v1.AdminService/GetMerchant",code="OK"} 1');
  t.match(text, 'cashier_rpc_requests_total{method="cashier.admin.v1.AdminService/GetMerchant",code="NOT_FOUND"} 2');
});

t.test("recordProcessorOutcome shows in every engine registry", async (t) => {
  const m = createEngineMetrics(async () => fakePool(missingTable), { defaults: false });
  recordProcessorOutcome("sim-a", "sale", "approved");
  recordProcessorOutcome("sim-a", "sale", "approved");
  t.match(await m.registry.metrics(), 'cashier_processor_outcomes_total{processor="sim-a",type="sale",outcome="approved"} 2');
});

t.test("a missing callback table yields no series and the scrape still answers", async (t) => {
  const m = createEngineMetrics(async () => fakePool(missingTable), { defaults: false });
  const text = await m.registry.metrics();
  t.notMatch(text, /^cashier_callbacks\{/m);
  t.match(text, "cashier_db_pool_connections 5");
  t.match(text, "cashier_db_pool_idle_connections 3");
  t.match(text, "cashier_db_pool_waiting_requests 0");
  t.match(text, "cashier_db_pool_max_connections 20");
});

t.test("callback counts by kind and state; vanished pairs disappear", async (t) => {
  let rows = [
    { kind: "notification", state: "pending", n: 2 },
    { kind: "update_payout", state: "delivered", n: 7 },
  ];
  const m = createEngineMetrics(
    async () =>
      fakePool(async (sql) => {
        t.match(sql, /from callback group by kind, state/);
        return { rows };
      }),
    { defaults: false },
  );
  let text = await m.registry.metrics();
  t.match(text, 'cashier_callbacks{kind="notification",state="pending"} 2');
  t.match(text, 'cashier_callbacks{kind="update_payout",state="delivered"} 7');
  rows = [{ kind: "update_payout", state: "delivered", n: 8 }];
  text = await m.registry.metrics();
  t.notMatch(text, /state="pending"/);
  t.match(text, 'cashier_callbacks{kind="update_payout",state="delivered"} 8');
});

t.test("a database that never answers does not hang the scrape", async (t) => {
  const m = createEngineMetrics(async () => fakePool(() => new Promise(() => {})), { defaults: false });
  const started = Date.now();
  const text = await m.registry.metrics();
  t.ok(Date.now() - started < 5000, "answers within the collect timeout");
  t.notMatch(text, /^cashier_callbacks\{/m);
});
