/**
 * The simulated acquirers (CONTRACT 4) as connectors like any other (CONTRACT
 * 11): one factory, one module per simulated acquirer (sim-a, sim-b), each
 * registered by one line in the connectors list. An account holds `api_key`
 * (the simulator's Bearer key); its settings are free-form (the simulator
 * reads none), so any JSON object passes.
 */
import type { Checked, ConnectorModule } from "../connector.ts";
import { simConnector } from "./integration.ts";

/** The simulator's accounts take any settings object: it reads none of them. */
function parseSimSettings(raw: unknown): Checked<Record<string, unknown>> {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (typeof raw !== "object" || Array.isArray(raw)) return { ok: false, faults: [{ field: "settings", description: "must be an object" }] };
  return { ok: true, value: raw as Record<string, unknown> };
}

/** A connector for one simulated acquirer of the built-in simulator, under `name`. */
export function simulatedAcquirer(name: string): ConnectorModule<Record<string, unknown>> {
  return {
    name,
    capabilities: ["sale", "payout", "refund", "threeDSecure", "statusLookup"],
    credentials: ["api_key"],
    parseSettings: parseSimSettings,
    open: (account) => simConnector({ name: account.name, url: account.url, apiKey: account.credentials.api_key ?? "", timeoutMs: account.timeoutMs }),
  };
}

/** sim-a and sim-b: the two acquirers the simulator plays (CONTRACT 4). */
export const simA = simulatedAcquirer("sim-a");
export const simB = simulatedAcquirer("sim-b");
