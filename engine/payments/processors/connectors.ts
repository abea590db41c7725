/**
 * THE list of connectors (CONTRACT 11): the registry, the merchants file's
 * parser, the merchant store and the engine's composition take connectors
 * from here and nowhere else, so adding an acquirer is its folder and one
 * line below (test/unit/engine/payments/processors/connectors.test.ts holds
 * every other file to that).
 */
import { adyen } from "./adyen/index.ts";
import { checkout } from "./checkout/index.ts";
import type { ConnectorModule } from "./connector.ts";
import { simA, simB } from "./sim/index.ts";

/** Every connector an account may name, by its `connector` member. */
export const CONNECTORS: readonly ConnectorModule<unknown>[] = [simA, simB, checkout, adyen];

/**
 * The cascade of a merchant that names no processors: the built-in simulated
 * acquirers (CONTRACT 4), which the engine reaches with its own accounts at
 * the acquirer simulator (ACQUIRER_SIM_URL and ACQUIRER_SIM_KEYS).
 */
export const DEFAULT_PROCESSORS: readonly string[] = [simA.name, simB.name];

const BY_NAME = new Map<string, ConnectorModule<unknown>>(CONNECTORS.map((c) => [c.name, c]));

/** The connector of `name`, or undefined when none is registered under it. */
export function connectorNamed(name: string): ConnectorModule<unknown> | undefined {
  return BY_NAME.get(name);
}

/** The names accounts may give as `connector`, for a refusal that lists them. */
export const CONNECTOR_NAMES: readonly string[] = CONNECTORS.map((c) => c.name);
