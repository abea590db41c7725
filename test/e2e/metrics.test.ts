/**
 * What Prometheus scrapes after real traffic: the engine's /metrics (its own
 * port) and the edge's /metrics (a port of its own too, never the public one) carry the RPC, HTTP,
 * pool, refused-token and default series with non-zero counts and bounded labels (the route
 * pattern, never the raw path), and no card number ever appears in them.
 */
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { ProcessRequestSchema } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { createEngineClient } from "../../edge/engine-client.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const service = useService(t);
const CARDS = ["4111111111111111", "4000000000000002", "5555555555554444"];

/** The value of one series, given its exact name and labels as printed. */
function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  t.match(res.headers.get("content-type"), /^text\/plain; version=0\.0\.4/);
  return res.text();
}

const grpcSale = (card: string) =>
  create(ProcessRequestSchema, {
    merchantId: "m-test",
    orderId: orderId("metrics"),
    transactionType: TransactionType.SALE,
    amount: { amountMinor: 1050n, currency: "USD" },
    card: { number: card, cvv: "123", expiry: "12/2030" },
    customer: { pin: "cust-1", email: "a@example.com", firstName: "A", lastName: "B", country: "GB" },
    frontend: "test-usd",
    returnUrl: "https://merchant.example/return",
    version: "1.0",
  });

let engineText = "";
let edgeText = "";

t.before(async () => {
  const svc = service();
  // HTTP: two approved, one declined (all status 0), one refused at the edge, one unknown path holding a card number.
  t.equal((await processSale(svc.edgeUrl, { card_number: CARDS[0] })).http, 200);
  t.equal((await processSale(svc.edgeUrl, { card_number: CARDS[2] })).http, 200);
  t.equal((await processSale(svc.edgeUrl, { card_number: CARDS[1] })).body.transaction_status, "declined");
  t.equal((await processSale(svc.edgeUrl, { amount: "10.50" })).http, 400);
  t.equal((await fetch(`${svc.edgeUrl}/api/transactions/${CARDS[0]}`)).status, 404);
  // gRPC: two approved, one refused for its token.
  for (const card of [CARDS[0], CARDS[2]]) t.equal((await svc.client.process(grpcSale(card))).transaction?.status, TransactionStatus.APPROVED);
  const refused = await createEngineClient(svc.engineUrl, "wrong")
    .process(grpcSale(CARDS[0]))
    .catch((e: unknown) => ConnectError.from(e));
  t.equal((refused as ConnectError).code, Code.Unauthenticated);
  engineText = await scrape(`http://127.0.0.1:${svc.engine.metricsPort}/metrics`);
  edgeText = await scrape(`http://127.0.0.1:${svc.edge.metricsPort}/metrics`);
});

t.test("engine: RPC calls by method and code, with their latency", async (t) => {
  const ok = 'method="cashier.engine.v1.EngineService/Process",code="OK"';
  // 3 through the edge + 2 direct; a refusal through the edge is one Process call too (its reply is signed in it).
  t.ok(value(engineText, `cashier_rpc_requests_total{${ok}}`) >= 5, "Process OK counted");
  t.equal(value(engineText, 'cashier_rpc_requests_total{method="cashier.engine.v1.EngineService/Process",code="UNAUTHENTICATED"}'), 1);
  t.equal(value(engineText, 'cashier_rpc_auth_refusals_total{reason="wrong"}'), 1, "the refused token, counted by why");
  t.ok(value(engineText, `cashier_rpc_duration_seconds_count{${ok}}`) >= 5);
  t.ok(value(engineText, `cashier_rpc_duration_seconds_sum{${ok}}`) > 0);
  t.ok(value(engineText, `cashier_rpc_duration_seconds_bucket{le="+Inf",${ok}}`) >= 5);
});

t.test("engine: database pool, processor outcomes, callbacks and defaults", async (t) => {
  t.ok(value(engineText, "cashier_db_pool_connections") >= 1, "the pool holds connections");
  t.ok(value(engineText, "cashier_db_pool_max_connections") >= 1);
  t.ok(value(engineText, "cashier_db_pool_idle_connections") >= 0);
  t.ok(value(engineText, "cashier_db_pool_waiting_requests") >= 0);
  t.match(engineText, "# TYPE cashier_processor_outcomes_total counter");
  t.ok(value(engineText, 'cashier_processor_outcomes_total{processor="sim-a",type="sale",outcome="approved"}') >= 1, "processor outcomes counted");
  t.match(engineText, "# TYPE cashier_callbacks gauge");
  const [{ exists }] = await service().sql<{ exists: boolean }>("select to_regclass('callback') is not null as exists");
  if (exists) {
    const rows = await service().sql<{ kind: string; state: string; n: number }>("select kind, state, count(*)::int as n from callback group by kind, state");
    for (const r of rows) t.equal(value(engineText, `cashier_callbacks{kind="${r.kind}",state="${r.state}"}`), r.n, `callbacks ${r.kind}/${r.state}`);
  } else {
    t.notMatch(engineText, /^cashier_callbacks\{/m, "no callback table yet: no series, no error");
  }
  t.ok(value(engineText, "process_cpu_user_seconds_total") > 0, "default process metrics");
  t.ok(value(engineText, "nodejs_heap_size_used_bytes") > 0, "default Node metrics");
});

t.test("edge: HTTP requests by route pattern, method and status", async (t) => {
  const approved = 'route="/api/process",method="POST",status="200"';
  t.ok(value(edgeText, `cashier_http_requests_total{${approved}}`) >= 3);
  t.ok(value(edgeText, 'cashier_http_requests_total{route="/api/process",method="POST",status="400"}') >= 1);
  t.equal(value(edgeText, 'cashier_http_requests_total{route="unmatched",method="GET",status="404"}'), 1, "an unknown path is one label");
  t.ok(value(edgeText, `cashier_http_duration_seconds_count{${approved}}`) >= 3);
  t.ok(value(edgeText, `cashier_http_duration_seconds_sum{${approved}}`) > 0);
  t.ok(value(edgeText, "process_cpu_user_seconds_total") > 0, "default metrics");
  t.notMatch(edgeText, /\/api\/transactions/, "the raw path is no label");
});

t.test("no card number appears in either body", async (t) => {
  for (const card of CARDS) {
    t.notOk(engineText.includes(card), `engine: no ${card}`);
    t.notOk(edgeText.includes(card), `edge: no ${card}`);
  }
});

t.test("the edge's public port serves no /metrics: its scrape is on a listener of its own", async (t) => {
  const res = await fetch(`${service().edgeUrl}/metrics`);
  t.equal(res.status, 404);
  t.notMatch(await res.text(), /cashier_http_requests_total/);
  t.not(service().edge.metricsPort, new URL(service().edgeUrl).port, "another port");
  const base = `http://127.0.0.1:${service().edge.metricsPort}`;
  t.equal((await fetch(`${base}/`)).status, 404);
  t.equal((await fetch(`${base}/metrics`, { method: "POST" })).status, 405);
});

t.test("the engine's metrics port serves /metrics only", async (t) => {
  const base = `http://127.0.0.1:${service().engine.metricsPort}`;
  t.equal((await fetch(`${base}/`)).status, 404);
  t.equal((await fetch(`${base}/metrics`, { method: "POST" })).status, 405);
});
