/**
 * Per-merchant processor accounts from the merchants file: a merchant whose
 * sim-a account points at an acquirer of its own (a second simulator, with
 * its own keys) is charged there; a wrong key is refused by that acquirer and
 * the sale ends declined (E); a disabled account refuses by name; merchants
 * without an account use the engine's own simulator. The key is stored only
 * sealed.
 */
import t from "tap";
import { startTestSim, TEST_KEYS, type TestSim } from "../support/acquirer-sim.ts";
import { MERCHANTS, SECRET } from "../support/merchants.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

let own: TestSim;
t.before(async () => {
  own = await startTestSim();
});
t.teardown(() => own.stop());

const merchant = (id: string, account: Record<string, unknown>) => ({
  merchant_id: id,
  secret: SECRET,
  processors: ["sim-a"],
  frontends: [{ name: `${id}-usd`, base_currency: "USD" }],
  processor_accounts: [{ processor: "sim-a", url: own.sim.url, ...account }],
});

const svc = useService(t, {}, () => ({
  merchants: {
    merchants: [
      ...MERCHANTS.merchants,
      merchant("m-own", { api_key: TEST_KEYS["sim-a"] }),
      merchant("m-badkey", { api_key: "not-the-acquirers-key" }),
      merchant("m-off", { api_key: TEST_KEYS["sim-a"], enabled: false }),
    ],
  },
}));

const sale = (merchantId: string) => processSale(svc().edgeUrl, { merchant_id: merchantId, frontend: `${merchantId}-usd`, order_id: orderId(merchantId) });

t.test("a merchant's own account: the sale is taken by its acquirer, found there by trace_id", async (t) => {
  const r = await sale("m-own");
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "approved");
  const found = await own.connector("sim-a").find(r.body.trace_id);
  t.equal(found.kind, "approved", "the merchant's acquirer has the payment under our trace_id");
  t.equal(found.kind === "approved" && found.transactionId, r.body.transaction_id, "with the id the platform was given");
});

t.test("a merchant without an account uses the engine's own simulator", async (t) => {
  const r = await processSale(svc().edgeUrl, { order_id: orderId("default") });
  t.equal(r.body.transaction_status, "approved");
  const found = await own.connector("sim-a").find(r.body.trace_id);
  t.equal(found.kind, "unavailable", "the merchant's acquirer never saw it");
});

t.test("a key the acquirer refuses: declined (E, 9001), nothing taken", async (t) => {
  const r = await sale("m-badkey");
  t.equal(r.http, 200);
  t.equal(r.body.transaction_status, "declined");
  t.equal(r.body.error_code, 9001);
});

t.test("a disabled account refuses by name: 400, status 17", async (t) => {
  const r = await sale("m-off");
  t.equal(r.http, 400);
  t.equal(r.body.status, 17);
  t.match(r.body.description, /processor sim-a is disabled for merchant m-off/);
});

t.test("the key is stored only sealed, and no log line carries it", async (t) => {
  const rows = await svc().sql<{ merchant_id: string; endpoint_url: string; credentials_sealed: string }>(
    "select merchant_id, endpoint_url, credentials_sealed from processor_account order by merchant_id",
  );
  t.same(
    rows.map((r) => r.merchant_id),
    ["m-badkey", "m-off", "m-own"],
  );
  for (const r of rows) {
    t.equal(r.endpoint_url, own.sim.url);
    t.notMatch(r.credentials_sealed, TEST_KEYS["sim-a"], `${r.merchant_id}: no key in clear`);
    t.notMatch(r.credentials_sealed, "not-the-acquirers-key");
  }
  t.notMatch(svc().logs(), TEST_KEYS["sim-a"], "the logs never show it");
});
