/**
 * The SSRF guard of CONTRACT section 6: with CASHIER_CALLBACK_ALLOW_PRIVATE
 * unset, no callback reaches a loopback, private, link-local or metadata
 * address. The platform stub listens on loopback and must receive nothing;
 * every refusal is kept where operators see it.
 */
import t from "tap";
import { CallbackKind, CallbackState } from "../../gen/cashier/engine/v1/callback_pb.js";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { PLATFORM_SECRETS, platformMerchants } from "../support/platform-merchants.ts";
import { useService } from "../support/service.ts";
import { until } from "../support/until.ts";
import { processSale } from "../support/wire.ts";

let stub: PlatformStub;
t.before(async () => {
  stub = await startPlatformStub({ secrets: PLATFORM_SECRETS });
});
t.teardown(() => stub.close());

const svc = useService(t, { CASHIER_WORKER_POLL_MS: "100" }, () => ({ merchants: platformMerchants(stub.url) }));

t.test("the start warns of each merchant address its callbacks will refuse", async (t) => {
  const warnings = svc()
    .logs()
    .split("\n")
    .filter((l) => l.includes("names a loopback, private or metadata address"))
    .map((l) => JSON.parse(l) as { merchant_id: string; field: string; level: string });
  t.ok(
    warnings.some((w) => w.merchant_id === "m-plat" && w.field === "validation_url"),
    "m-plat's validation_url, on 127.0.0.1",
  );
  t.ok(
    warnings.every((w) => w.level === "warn"),
    "as warnings",
  );
});

t.test("Validation to a loopback address is refused: declined 9003, nothing sent", async (t) => {
  const r = await processSale(svc().edgeUrl, { merchant_id: "m-plat", frontend: "plat-usd" });
  t.equal(r.body.transaction_status, "declined");
  t.equal(r.body.error_code, 9003);
  t.match(r.body.error_details, /address refused/);
  const got = await svc().client.getTransaction({ traceId: r.body.trace_id });
  t.equal(got.callbacks[0].kind, CallbackKind.VALIDATION);
  t.equal(got.callbacks[0].attempts[0].outcome, "refused-address");
});

t.test("notifications and RecordFailedDeposit to private, link-local and metadata addresses are refused and kept as failed", async (t) => {
  // localhost is a name: refused after DNS, not by its spelling.
  const targets = [
    "http://localhost:9/notify",
    "http://127.0.0.1:9/notify",
    "http://10.1.2.3/notify",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]:9/notify",
    `${stub.url}/notify`,
  ];
  const traces: number[] = [];
  for (const url of targets) {
    const r = await processSale(svc().edgeUrl, { merchant_id: "m-plat-quiet", frontend: "quiet-usd", card_number: "4000000000000077", notification_url: url });
    traces.push(r.body.trace_id);
  }
  const declined = await processSale(svc().edgeUrl, { merchant_id: "m-plat-quiet", frontend: "quiet-usd", card_number: "4000000000000002" });
  traces.push(declined.body.trace_id);
  let failed: number[] = [];
  await until(
    async () => {
      const list = await svc().admin.listDeliveries({ merchantId: "m-plat-quiet", state: CallbackState.FAILED, pageSize: 50 });
      failed = list.deliveries.filter((d) => traces.includes(d.traceId) && d.attempts[0]?.outcome === "refused-address").map((d) => d.traceId);
      return failed.length === traces.length;
    },
    15_000,
    200,
  );
  t.same(failed.sort(), [...traces].sort(), "every callback failed at once with refused-address, not retried");
  t.same(stub.received(), [], "the stub on loopback received nothing");
});
