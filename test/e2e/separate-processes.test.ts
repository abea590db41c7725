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
/** Tokens as the engine takes them: 32 characters or more. */
const OPS_TOKEN = "ops-token-of-the-separate-processes-test";
const EDGE_TOKEN = "edge-token-of-the-separate-processes-test";

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
      CASHIER_SERVICE_TOKENS: OPS_TOKEN,
      CASHIER_EDGE_TOKEN: EDGE_TOKEN,
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
    { EDGE_PORT: "0", EDGE_METRICS_PORT: "0", ENGINE_URL: `http://127.0.0.1:${enginePort}`, CASHIER_EDGE_TOKEN: EDGE_TOKEN },
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
    { EDGE_PORT: "0", EDGE_METRICS_PORT: "0", ENGINE_URL: `http://127.0.0.1:${enginePort}`, CASHIER_EDGE_TOKEN: "not-a-token-the-engine-accepts-0123456789" },
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

t.test("a token under 32 characters stops the start, naming the setting and never the token", async (t) => {
  const edge = launch("edge/main.ts", { EDGE_PORT: "0", CASHIER_EDGE_TOKEN: "edge-token" }, "edge listening");
  await t.rejects(edge, /CASHIER_EDGE_TOKEN: the token has 10 characters; a bearer token needs at least 32/);
  const engine = launch("engine/main.ts", { ENGINE_PORT: "0", CASHIER_SERVICE_TOKENS: `${OPS_TOKEN},ops-token` }, "engine listening");
  const err = (await engine.then(
    () => new Error("started"),
    (e: Error) => e,
  )) as Error;
  t.match(err.message, /cashier failed to start: CASHIER_SERVICE_TOKENS: token 2 of 2 has 9 characters/);
  t.notMatch(err.message, /ops-token[^-]/, "the weak token is not echoed");
  t.notMatch(err.message, /embedded postgres started/, "stopped before anything started");
});
