/**
 * Per-merchant processor accounts from the merchants file: a merchant whose
 * sim-a account points at an acquirer of its own (a second simulator, with
 * its own keys) is charged there; a wrong key is refused by that acquirer and
 * the sale ends declined (E); a disabled account refuses by name; merchants
 * without an account use the engine's own simulator. The key is stored only
 * sealed.
 */
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { toJsonString } from "@bufbuild/protobuf";
import { SetProcessorAccountResponseSchema } from "../../gen/cashier/admin/v1/admin_service_pb.js";
import { startTestSim, TEST_KEYS, type TestSim } from "../support/acquirer-sim.ts";
import { MERCHANTS, SECRET } from "../support/merchants.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";
import { refusal } from "../support/refusal.ts";

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
      { merchant_id: "m-admin", secret: SECRET, processors: ["sim-a"], frontends: [{ name: "m-admin-usd", base_currency: "USD" }] },
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

t.test("AdminService: an operator sets an account (the key write-only) and the next sale goes there", async (t) => {
  const admin = svc().admin;
  const refused = async (req: Parameters<typeof admin.setProcessorAccount>[0]) => {
    try {
      await admin.setProcessorAccount(req);
      return "accepted";
    } catch (err) {
      const e = ConnectError.from(err);
      return `${Code[e.code]} ${e.rawMessage}`;
    }
  };
  const account = { processor: "sim-a", endpointUrl: own.sim.url, enabled: true };
  t.equal(
    await refused({ merchantId: "m-admin", account: { ...account, endpointUrl: "ftp://x" }, apiKey: TEST_KEYS["sim-a"] }),
    "InvalidArgument account.endpoint_url: must be an http(s) URL",
  );
  t.equal(await refused({ merchantId: "m-admin", account, apiKey: "short" }), "InvalidArgument api_key: must be 8 to 512 characters");
  t.equal(
    await refused({ merchantId: "m-admin", account: { ...account, processor: "sim-x" }, apiKey: TEST_KEYS["sim-a"] }),
    "InvalidArgument account.processor: must be one of sim-a, sim-b, checkout, adyen",
  );
  t.equal(await refused({ merchantId: "m-admin", apiKey: TEST_KEYS["sim-a"] }), "InvalidArgument account: is required");
  t.equal(await refused({ merchantId: "m-nobody", account, apiKey: TEST_KEYS["sim-a"] }), "NotFound no merchant m-nobody");

  const set = await admin.setProcessorAccount({ merchantId: "m-admin", account: { ...account, settings: { mid: "42" } }, apiKey: TEST_KEYS["sim-a"] });
  t.match(set.accounts, [{ processor: "sim-a", endpointUrl: own.sim.url, enabled: true, settings: { mid: "42" } }]);
  t.notMatch(toJsonString(SetProcessorAccountResponseSchema, set), TEST_KEYS["sim-a"], "the key is never returned");
  const listed = await admin.listProcessorAccounts({ merchantId: "m-admin" });
  t.equal(listed.accounts.length, 1);

  const r = await sale("m-admin");
  t.equal(r.body.transaction_status, "approved");
  t.equal((await own.connector("sim-a").find(r.body.trace_id)).kind, "approved", "taken by the account's acquirer");

  await admin.setProcessorAccount({ merchantId: "m-admin", account: { ...account, enabled: false }, apiKey: TEST_KEYS["sim-a"] });
  const off = await sale("m-admin");
  t.equal(off.body.status, 17, "disabled by the operator: refused by name");
});

t.test("AdminService, CONTRACT 11: an account names its connector; its settings are checked by it; its credentials never come back", async (t) => {
  const admin = svc().admin;
  const said = async (req: Parameters<typeof admin.setProcessorAccount>[0]) => {
    const r = await refusal(admin.setProcessorAccount(req));
    return r.code === undefined ? "accepted" : `${Code[r.code]} ${r.message}`;
  };
  const secrets = { secret_key: "sk_sbox_secret-0123456789", webhook_secret: "whsec-secret-0123456789" };
  const cko = { processor: "cko-main", connector: "checkout", endpointUrl: "https://api.sandbox.checkout.com", enabled: true };
  t.equal(
    await said({ merchantId: "m-admin", account: { ...cko, settings: {} }, credentials: secrets }),
    "InvalidArgument account.settings.processing_channel_id: is required",
  );
  t.equal(
    await said({
      merchantId: "m-admin",
      account: { ...cko, settings: { processing_channel_id: `pc_${"a".repeat(26)}` } },
      credentials: { secret_key: secrets.secret_key },
    }),
    "InvalidArgument credentials.webhook_secret: is required",
  );
  const set = await admin.setProcessorAccount({
    merchantId: "m-admin",
    account: { ...cko, settings: { processing_channel_id: `pc_${"a".repeat(26)}` } },
    credentials: secrets,
  });
  t.match(
    set.accounts.find((a) => a.processor === "cko-main"),
    { processor: "cko-main", connector: "checkout", settings: { processing_channel_id: `pc_${"a".repeat(26)}` } },
  );
  const wire = toJsonString(SetProcessorAccountResponseSchema, set);
  for (const s of Object.values(secrets)) t.notMatch(wire, s, "no credential is returned");
  const rows = await svc().sql<{ connector: string; credentials_sealed: string; credentials_form: string }>(
    "select connector, credentials_sealed, credentials_form from processor_account where merchant_id = 'm-admin' and processor = 'cko-main'",
  );
  t.match(rows, [{ connector: "checkout", credentials_form: "json" }]);
  for (const s of Object.values(secrets)) {
    t.notMatch(rows[0].credentials_sealed, s, "sealed");
    t.notMatch(svc().logs(), s, "never logged");
  }
});
