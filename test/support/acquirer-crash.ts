/**
 * What the crash tests of the real connectors (test/e2e/acquirer-crash.test.ts) stand on: a platform stub, a
 * database the engines share, the acquirer simulator in this process (it outlives every engine the test kills, and
 * its ledger is read here), a relay for its Adyen webhooks, merchants with only a Checkout.com or only an Adyen
 * account, and reads of the engine's rows and the acquirer's ledger.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type AcquirerSim, startAcquirerSim } from "../../engine/payments/processors/acquirer-sim/server.ts";
import { ADYEN, CKO, dialectMerchants } from "./acquirer-sim-dialects.ts";
import { TEST_KEYS } from "./acquirer-sim.ts";
import { SECRET } from "./merchants.ts";
import type { PlatformStub } from "./platform-stub.ts";
import { platformWorld, type TestDatabase } from "./processes.ts";
import { SERVICE_TOKEN } from "./service.ts";
import { WebhookRelay } from "./webhook-relay.ts";

/** A merchant's platform: every callback to the stub, Validation included. */
const platform = (stubUrl: string) => ({ secret: SECRET, site_id: 7, platform_url: stubUrl, validation_url: `${stubUrl}/api/validation` });

/** An attempt as the engine's database holds it. */
export interface AttemptRow {
  trace_id: number;
  status: string;
  transaction_id: string | null;
  deposit_state: string | null;
  next_check_at: Date | null;
}

export interface CrashWorld {
  stub: PlatformStub;
  db: TestDatabase;
  sim: AcquirerSim;
  /** Where the simulator's Adyen webhooks go on their way to the edge. */
  relay: WebhookRelay;
  /** What an engine of this world runs with. */
  env: Record<string, string>;
  sql<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  attempt(orderId: string): Promise<AttemptRow | undefined>;
  /** The ledger's entries of a kind ("cko.payment", "idem", "webhook"), as written. */
  ledger(kind: string): Record<string, any>[];
  /** Adds a fault to the simulator (faults.ts). */
  fault(f: Record<string, unknown>): Promise<number>;
}

/**
 * The world, stopped at the test's teardown. The Checkout.com account sends no webhooks (an account without a
 * webhook workflow): only a lookup can settle its payments. The Adyen account's webhooks go through the relay,
 * which holds them until the test lets them on; the simulator retries them quickly.
 */
export async function crashWorld(t: { teardown(fn: () => unknown): void }): Promise<CrashWorld> {
  const { stub, db, env } = await platformWorld(t);
  for (const m of ["m-cko", "m-adyen"]) stub.setSecret(m, SECRET);
  const relay = await new WebhookRelay().start();
  t.teardown(() => relay.stop());
  const simDir = mkdtempSync(join(tmpdir(), "acquirer-crash-"));
  const sim = await startAcquirerSim({
    dataDir: simDir,
    port: 0,
    keys: TEST_KEYS,
    testMode: true,
    accounts: { checkout: [{ secret_key: CKO.secret_key }], adyen: [{ ...ADYEN, webhook_url: `${relay.url}/webhooks/m-adyen/adyen-eu` }] },
    // A webhook held at the relay through an engine's start must not be given up and sent again meanwhile.
    webhookTiming: { firstDelayMs: 50, maxDelayMs: 500, timeoutMs: 600_000 },
  });
  t.teardown(async () => {
    await sim.close();
    rmSync(simDir, { recursive: true, force: true });
  });
  const file = join(db.dir, "acquirer-merchants.json");
  writeFileSync(file, JSON.stringify(dialectMerchants(sim.url, platform(stub.url))));
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.teardown(() => client.end());
  const sql = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await client.query<R>(text, values)).rows;
  return {
    stub,
    db,
    sim,
    relay,
    env: {
      ...env,
      CASHIER_MERCHANTS_FILE: file,
      ACQUIRER_SIM_URL: sim.url,
      ACQUIRER_SIM_KEYS: `sim-a=${TEST_KEYS["sim-a"]},sim-b=${TEST_KEYS["sim-b"]}`,
      CASHIER_SERVICE_TOKENS: SERVICE_TOKEN,
      BACKOFFICE_PORT: "0",
    },
    sql,
    attempt: async (orderId) =>
      (
        await sql<AttemptRow>(
          `select t.trace_id, t.status, t.transaction_id, t.deposit_state, t.next_check_at
             from transaction t join payment_order o on o.id = t.order_ref where o.order_id = $1`,
          [orderId],
        )
      )[0],
    ledger: (kind) =>
      readFileSync(sim.ledgerFile, "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, any>)
        .filter((e) => e.t === kind),
    fault: async (f) =>
      (await fetch(`${sim.url}/admin/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(f) })).status,
  };
}
