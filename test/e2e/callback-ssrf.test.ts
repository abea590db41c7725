/**
 * The SSRF guard of CONTRACT section 6: with CASHIER_CALLBACK_ALLOW_PRIVATE
 * unset, no callback reaches a loopback, private, link-local or metadata
 * address. The platform stub listens on loopback and must receive nothing;
 * every refusal is kept where operators see it. (A save of such an address is
 * refused: callback-url-refusal.test.ts.)
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

/** The platform merchants without their callback addresses: a merchants file naming loopback ones is refused at start. */
function withoutAddresses(file: { merchants: object[] }) {
  return {
    merchants: file.merchants.map((m) => {
      const { platform_url: _p, validation_url: _v, update_payout_url: _u, ...rest } = m as Record<string, unknown>;
      return rest;
    }),
  };
}

const svc = useService(t, { CASHIER_WORKER_POLL_MS: "100" }, () => ({ merchants: withoutAddresses(platformMerchants(stub.url)) }));

// Addresses stored before the check at save (callback-url-refusal.test.ts), or by a name that resolved elsewhere
// when it was saved: the guard still refuses them at each call. Written before any request reads the merchants.
t.before(async () => {
  for (const m of platformMerchants(stub.url).merchants as {
    merchant_id: string;
    platform_url?: string;
    validation_url?: string;
    update_payout_url?: string;
  }[])
    await svc().sql("update merchant set platform_url = $2, validation_url = $3, update_payout_url = $4 where id = $1", [
      m.merchant_id,
      m.platform_url ?? null,
      m.validation_url ?? null,
      m.update_payout_url ?? null,
    ]);
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
