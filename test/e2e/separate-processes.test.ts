/**
 * Engine and edge as separate processes, as docker-compose runs them
 * (`npm run engine`, `npm run edge`): the edge finds the engine at ENGINE_URL
 * and authenticates with CASHIER_EDGE_TOKEN.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { MERCHANTS } from "../support/merchants.ts";
import { processSale } from "../support/wire.ts";
import { launch, stopProcess } from "../support/processes.ts";

const stop = stopProcess;

t.test("npm run engine + npm run edge serve Process together", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cashier-apart-"));
  chmodSync(dir, 0o755);
  const merchants = join(dir, "merchants.json");
  writeFileSync(merchants, JSON.stringify(MERCHANTS));
  const engine = await launch(
    "engine/main.ts",
    {
      CASHIER_DATA_DIR: dir,
      ENGINE_PORT: "0",
      METRICS_PORT: "0",
      CASHIER_MERCHANTS_FILE: merchants,
      CASHIER_SERVICE_TOKENS: "ops-token",
      CASHIER_EDGE_TOKEN: "edge-token",
      CASHIER_PUBLIC_URL: "https://pay.example.com",
    },
    "engine listening",
  );
  t.teardown(async () => {
    await stop(engine.child);
    rmSync(dir, { recursive: true, force: true });
  });
  const enginePort = engine.line.port as number;
  const edge = await launch(
    "edge/main.ts",
    { EDGE_PORT: "0", ENGINE_URL: `http://127.0.0.1:${enginePort}`, CASHIER_EDGE_TOKEN: "edge-token" },
    "edge listening",
  );
  t.teardown(() => stop(edge.child));
  const url = `http://127.0.0.1:${edge.line.port}`;

  const approved = await processSale(url);
  t.equal(approved.http, 200);
  t.equal(approved.body.transaction_status, "approved");
  const threeDs = await processSale(url, { card_number: "4000000000003220" });
  t.match(threeDs.body.redirect_url, /^https:\/\/pay\.example\.com\/3ds\//, "redirect_url under CASHIER_PUBLIC_URL");
  t.notMatch(engine.out(), /CASHIER_PUBLIC_URL is unset/, "with it set, no warning");

  const wrongToken = await launch(
    "edge/main.ts",
    { EDGE_PORT: "0", ENGINE_URL: `http://127.0.0.1:${enginePort}`, CASHIER_EDGE_TOKEN: "not-accepted" },
    "edge listening",
  );
  t.teardown(() => stop(wrongToken.child));
  const refused = await processSale(`http://127.0.0.1:${wrongToken.line.port}`);
  t.equal(refused.http, 500, "an edge with a token the engine refuses cannot process");
  t.equal(refused.body.status, -1);
});

t.test("the edge alone refuses to start without CASHIER_EDGE_TOKEN, saying why", async (t) => {
  await t.rejects(launch("edge/main.ts", { EDGE_PORT: "0", CASHIER_EDGE_TOKEN: "" }, "edge listening"), /CASHIER_EDGE_TOKEN is required/);
});
