/**
 * The acquirer simulator's settings, from the environment (ACQUIRER_SIM_*),
 * read by its main.ts and, for the URL and keys, by the engine's config.
 * The Checkout.com and Adyen accounts (ACQUIRER_SIM_ACCOUNTS) are the
 * simulator's own: without them those dialects know no key and answer 401.
 */
import { join, resolve } from "node:path";
import { SIMULATED_ACQUIRERS } from "../../../shared/config/acquirer-sim-keys.ts";
import { parseKeys } from "../../../shared/config/acquirer-sim-keys.ts";
import { parseAccounts, type SimAccounts } from "./accounts.ts";

export interface AcquirerSimSettings {
  host: string;
  port: number;
  dataDir: string;
  keys: Record<string, string>;
  /** The accounts of the Checkout.com and Adyen dialects. */
  accounts: SimAccounts;
  testMode: boolean;
}

/** The keys a standalone simulator takes when none are set: for a laptop only, never a secret. */
export const DEV_KEYS: Record<string, string> = Object.fromEntries(SIMULATED_ACQUIRERS.map((n) => [n, `dev-key-${n}`]));

export function loadAcquirerSimSettings(env: NodeJS.ProcessEnv, cwd = process.cwd()): AcquirerSimSettings {
  const rawPort = env.ACQUIRER_SIM_PORT || "8090";
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`ACQUIRER_SIM_PORT must be a port number (0-65535), got ${JSON.stringify(rawPort)}`);
  return {
    host: env.ACQUIRER_SIM_HOST || "127.0.0.1",
    port,
    dataDir: env.ACQUIRER_SIM_DATA_DIR ? resolve(cwd, env.ACQUIRER_SIM_DATA_DIR) : join(resolve(cwd, env.CASHIER_DATA_DIR || ".data"), "acquirer-sim"),
    keys: env.ACQUIRER_SIM_KEYS ? parseKeys("ACQUIRER_SIM_KEYS", env.ACQUIRER_SIM_KEYS) : DEV_KEYS,
    accounts: env.ACQUIRER_SIM_ACCOUNTS ? parseAccounts("ACQUIRER_SIM_ACCOUNTS", env.ACQUIRER_SIM_ACCOUNTS) : { checkout: [], adyen: [] },
    testMode: env.ACQUIRER_SIM_TEST_MODE === "1",
  };
}
