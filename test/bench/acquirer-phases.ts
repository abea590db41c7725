/**
 * The bench's real-connector phases: the same signed sale as the edge phase,
 * sent for a merchant whose only account is a `checkout` (resp. `adyen`)
 * connector, so that Process's figures through a real acquirer's API stand
 * beside the built-in simulator's in one run.
 *
 * The acquirers are the acquirer simulator's Checkout.com and Adyen dialects
 * (`npm run acquirer-sim`), run as their own process so that their CPU is
 * counted apart ("sim cores"), as the engine's own simulator child is: it is
 * the acquirer's cost, not Cashier's. The engine is told to use that process
 * for sim-a and sim-b too (ACQUIRER_SIM_URL), so one simulator plays every
 * acquirer. Each approved payment's webhook (Checkout.com's payment_approved,
 * Adyen's AUTHORISATION) is sent to the edge and applied, as a live acquirer's
 * would be: its cost is part of a sale through a real connector.
 */
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SIMULATED_ACQUIRERS } from "../../engine/shared/config/acquirer-sim-keys.ts";
import { MERCHANTS } from "../support/merchants.ts";

const SIM_MAIN = fileURLToPath(new URL("../../engine/payments/processors/acquirer-sim/main.ts", import.meta.url));

/** The connector phases, by the bench's phase name: the merchant and frontend each one's sales are for. */
export const CONNECTOR_PHASES = {
  checkout: { merchant_id: "m-bench-cko", frontend: "bench-usd", account: "cko-bench" },
  adyen: { merchant_id: "m-bench-adyen", frontend: "bench-usd", account: "adyen-bench" },
} as const;
export type ConnectorPhase = keyof typeof CONNECTOR_PHASES;

/** Both bench merchants' secret (as the test merchants', a made-up one). */
export const BENCH_SECRET = "bench-merchant-secret-0123456789";

const CKO = {
  secret_key: `sk_sbox_bench-${randomBytes(9).toString("hex")}`,
  webhook_secret: `whsec-bench-${randomBytes(12).toString("hex")}`,
};
const ADYEN = {
  api_key: `AQE-bench-${randomBytes(9).toString("hex")}`,
  merchant_account: "BenchShop",
  hmac_key: randomBytes(32).toString("hex").toUpperCase(),
};

export interface BenchAcquirers {
  /** The engine's settings: one simulator for sim-a, sim-b and both dialects. */
  env: Record<string, string>;
  /** The test merchants plus the two bench merchants, their accounts at the simulator. */
  merchants: { merchants: unknown[] };
  pid: number;
  /** Points each account's webhooks at the edge's acquirer webhook path (once the edge listens). */
  sendWebhooksTo(edgeUrl: string): Promise<void>;
  stop(): Promise<void>;
}

function benchMerchant(phase: ConnectorPhase, simUrl: string) {
  const p = CONNECTOR_PHASES[phase];
  const account =
    phase === "checkout"
      ? {
          name: p.account,
          connector: "checkout",
          url: `${simUrl}/checkout`,
          credentials: CKO,
          settings: { processing_channel_id: "pc_aaaaaaaaaaaaaaaaaaaaaaaaaa", payout_currency_account_id: "ca_aaaaaaaaaaaaaaaaaaaaaaaaaa" },
        }
      : {
          name: p.account,
          connector: "adyen",
          url: `${simUrl}/adyen/v71`,
          credentials: { api_key: ADYEN.api_key, hmac_key: ADYEN.hmac_key },
          settings: { merchant_account: ADYEN.merchant_account },
        };
  return {
    merchant_id: p.merchant_id,
    secret: BENCH_SECRET,
    processors: [p.account],
    processor_accounts: [account],
    frontends: [{ name: p.frontend, base_currency: "USD", currencies: ["USD"] }],
  };
}

/** Starts the acquirer simulator in a process of its own, on a free loopback port, with a temp ledger. */
export async function startBenchAcquirers(logLevel = "warn"): Promise<BenchAcquirers> {
  const dir = mkdtempSync(join(tmpdir(), "bench-acquirers-"));
  const keys = Object.fromEntries(SIMULATED_ACQUIRERS.map((n) => [n, randomBytes(24).toString("base64url")]));
  const keyList = Object.entries(keys)
    .map(([n, k]) => `${n}=${k}`)
    .join(",");
  const child = fork(SIM_MAIN, [], {
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: logLevel,
      CASHIER_ENV_FILE: "/dev/null",
      ACQUIRER_SIM_HOST: "127.0.0.1",
      ACQUIRER_SIM_PORT: "0",
      ACQUIRER_SIM_DATA_DIR: dir,
      ACQUIRER_SIM_KEYS: keyList,
      // Test mode: POST /admin/accounts, to point the webhooks at the edge once it listens.
      ACQUIRER_SIM_TEST_MODE: "1",
      ACQUIRER_SIM_ACCOUNTS: JSON.stringify({ checkout: [CKO], adyen: [ADYEN] }),
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { listening?: number; failed?: string }) =>
      m.listening !== undefined ? resolve(m.listening) : reject(new Error(`the acquirer simulator did not start: ${m.failed}`)),
    );
    child.once("exit", (code) => reject(new Error(`the acquirer simulator exited (${code}) before listening`)));
  });
  const simUrl = `http://127.0.0.1:${port}`;
  const admin = async (body: Record<string, unknown>) => {
    const res = await fetch(`${simUrl}/admin/accounts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`the acquirer simulator refused an account: ${res.status} ${await res.text()}`);
  };
  return {
    env: { ACQUIRER_SIM_URL: simUrl, ACQUIRER_SIM_KEYS: keyList },
    merchants: { merchants: [...MERCHANTS.merchants, benchMerchant("checkout", simUrl), benchMerchant("adyen", simUrl)] },
    pid: child.pid ?? 0,
    async sendWebhooksTo(edgeUrl) {
      await admin({
        acquirer: "checkout",
        ...CKO,
        webhook_url: `${edgeUrl}/webhooks/${CONNECTOR_PHASES.checkout.merchant_id}/${CONNECTOR_PHASES.checkout.account}`,
      });
      await admin({ acquirer: "adyen", ...ADYEN, webhook_url: `${edgeUrl}/webhooks/${CONNECTOR_PHASES.adyen.merchant_id}/${CONNECTOR_PHASES.adyen.account}` });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        const force = setTimeout(() => child.kill("SIGKILL"), 3000);
        await exited;
        clearTimeout(force);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
