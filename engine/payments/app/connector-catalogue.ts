/**
 * What an account of each registered connector takes, for a form that edits accounts (the Backoffice): its
 * credential names (required and optional), the settings its schema requires and what it can do. Read from the connectors list and each
 * connector's own schema (the settings an empty object is refused for are the required ones), so that a new
 * connector shows up in the form without a line here.
 */
import { CONNECTORS } from "../processors/connectors.ts";

/** One connector as a form shows it. */
export interface ConnectorEntry {
  name: string;
  credentials: readonly string[];
  /** Credentials it accepts besides: the previous webhook key during a rotation. */
  optionalCredentials: readonly string[];
  /** Setting names (settings.<name> in a refusal) without which the schema refuses an account. */
  requiredSettings: string[];
  capabilities: readonly string[];
}

/** Every connector an account may name, in the list's order. */
export function connectorCatalogue(): ConnectorEntry[] {
  return CONNECTORS.map((c) => {
    const empty = c.parseSettings({});
    // An empty object holds no wrong value: every fault it draws is a setting that must be there.
    const requiredSettings = empty.ok ? [] : empty.faults.map((f) => f.field.replace(/^settings\./, "")).filter((f) => f !== "settings");
    return { name: c.name, credentials: c.credentials, optionalCredentials: c.optionalCredentials ?? [], requiredSettings, capabilities: c.capabilities };
  });
}
