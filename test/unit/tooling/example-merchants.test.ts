/**
 * docs/examples/merchants.json cannot rot: the engine's own merchants-file reader takes it (each account checked by
 * its connector's settings schema and credential names), its accounts point at the simulator's dialects on
 * 127.0.0.1:8090, and the ACQUIRER_SIM_ACCOUNTS that docs/processors.md ("Trying the connectors locally") gives the
 * simulator holds the keys of exactly those accounts, as the simulator's own parser reads them.
 */
import { readFileSync } from "node:fs";
import t from "tap";
import { readMerchantsFile } from "../../../engine/payments/app/bootstrap-merchants.ts";
import { callbackUrlCheck } from "../../../engine/payments/callbacks/address-guard.ts";
import { parseAccounts } from "../../../engine/payments/processors/acquirer-sim/accounts.ts";

const root = new URL("../../..", import.meta.url).pathname;
const EXAMPLE = `${root}docs/examples/merchants.json`;

t.test("the engine's merchants-file reader takes the example: one merchant, a checkout and an adyen account", async (t) => {
  const specs = await readMerchantsFile(EXAMPLE, callbackUrlCheck({ allowPrivate: false }));
  t.equal(specs.length, 1);
  const [shop] = specs;
  t.same(shop.processors, ["cko-main", "adyen-eu"], "the cascade: Checkout.com, then Adyen");
  const accounts = shop.processorAccounts ?? [];
  t.same(
    accounts.map((a) => [a.name, a.connector, a.url]),
    [
      ["cko-main", "checkout", "http://127.0.0.1:8090/checkout"],
      ["adyen-eu", "adyen", "http://127.0.0.1:8090/adyen/v71"],
    ],
  );
  t.ok(shop.frontends.length > 0, "a frontend to sell on");
});

t.test("docs/processors.md's ACQUIRER_SIM_ACCOUNTS holds the example accounts' keys, as the simulator reads it", async (t) => {
  const doc = readFileSync(`${root}docs/processors.md`, "utf8");
  const section = doc.slice(doc.indexOf("## Trying the connectors locally"));
  const m = /ACQUIRER_SIM_ACCOUNTS='([^']+)'/.exec(section);
  if (!m) throw new Error("docs/processors.md's 'Trying the connectors locally' gives no ACQUIRER_SIM_ACCOUNTS='...'");
  const sim = parseAccounts("ACQUIRER_SIM_ACCOUNTS", m[1]);
  const [shop] = await readMerchantsFile(EXAMPLE, callbackUrlCheck({ allowPrivate: false }));
  const byConnector = (c: string) => (shop.processorAccounts ?? []).filter((a) => a.connector === c);
  const [cko] = byConnector("checkout");
  const [adyen] = byConnector("adyen");
  t.same(sim.checkout, [{ secret_key: cko.credentials.secret_key, webhook_secret: cko.credentials.webhook_secret, webhook_url: undefined }]);
  t.same(sim.adyen, [
    {
      api_key: adyen.credentials.api_key,
      merchant_account: (adyen.settings as { merchant_account: string }).merchant_account,
      hmac_key: adyen.credentials.hmac_key,
      webhook_url: undefined,
    },
  ]);
});

t.test("the commands of that section start the simulator and Cashier on the example", async (t) => {
  const doc = readFileSync(`${root}docs/processors.md`, "utf8");
  const section = doc.slice(doc.indexOf("## Trying the connectors locally"), doc.indexOf("## Going live"));
  t.match(section, /npm run acquirer-sim/);
  t.match(section, /CASHIER_MERCHANTS_FILE=docs\/examples\/merchants\.json ACQUIRER_SIM_URL=http:\/\/127\.0\.0\.1:8090/);
  t.match(section, /npm start/);
});
