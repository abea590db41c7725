/**
 * A merchant's processor accounts (CONTRACT 11) as the merchants file and
 * AdminService give them: `{ "name", "connector", "url", "credentials",
 * "settings", "enabled" }`, several per connector, or the older
 * `{ "processor": "sim-a", "api_key": ... }`, an account named after its
 * connector. The connector comes from the connectors list; its own schema
 * checks the settings and its credential names are all required. Every fault
 * is named by its path (`merchants[0].processor_accounts[1].settings.merchant_account`).
 */
import { CONNECTOR_NAMES, connectorNamed } from "../processors/connectors.ts";
import type { ProcessorAccount } from "../ports/merchants.ts";
import { MerchantsFileError } from "./merchant-errors.ts";
import { str, url } from "./spec-fields.ts";

/** An account's name: what `processors`, routing rules, attempts and the webhook path name. */
export const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The account's credentials: the connector's names exactly (its optional ones when given), each 8 to 512
 * characters; `at(name)` names a fault's field.
 */
function credentialsOf(
  raw: unknown,
  required: readonly string[],
  optional: readonly string[],
  at: (name: string) => string,
  whole: string,
): Record<string, string> {
  if (!isObject(raw)) throw new MerchantsFileError(whole, `must be an object with ${required.join(", ")}`);
  const known = [...required, ...optional];
  for (const name of Object.keys(raw))
    if (!known.includes(name)) throw new MerchantsFileError(at(name), `is not a credential of this connector (${known.join(", ")})`);
  const out: Record<string, string> = {};
  for (const name of known) {
    const v = raw[name];
    if ((v === undefined || v === null) && optional.includes(name)) continue;
    if (v === undefined || v === null) throw new MerchantsFileError(at(name), "is required");
    if (typeof v !== "string" || v.length < 8 || v.length > 512) throw new MerchantsFileError(at(name), "must be 8 to 512 characters");
    out[name] = v;
  }
  return out;
}

/** One account entry at `w`. */
function parseAccount(entry: unknown, w: string): ProcessorAccount {
  if (!isObject(entry)) throw new MerchantsFileError(w, "must be an object");
  const older = entry.connector === undefined && entry.name === undefined && entry.processor !== undefined;
  const connectorName = str(entry, older ? "processor" : "connector", w, true)!;
  const connector = connectorNamed(connectorName);
  if (!connector) throw new MerchantsFileError(`${w}.${older ? "processor" : "connector"}`, `must be one of ${CONNECTOR_NAMES.join(", ")}`);
  const name = older ? connectorName : str(entry, "name", w, true)!;
  if (!ACCOUNT_NAME.test(name)) throw new MerchantsFileError(`${w}.name`, "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
  const endpoint = url(entry, "url", w);
  if (!endpoint) throw new MerchantsFileError(`${w}.url`, "is required");
  // The older form's one credential is its API key, at the entry's top level.
  const credentials = older
    ? credentialsOf({ ...(entry.api_key === undefined ? {} : { api_key: entry.api_key }) }, connector.credentials, [], (n) => `${w}.${n}`, `${w}.api_key`)
    : credentialsOf(entry.credentials, connector.credentials, connector.optionalCredentials ?? [], (n) => `${w}.credentials.${n}`, `${w}.credentials`);
  if (entry.enabled !== undefined && typeof entry.enabled !== "boolean") throw new MerchantsFileError(`${w}.enabled`, "must be true or false");
  const settings = entry.settings ?? {};
  if (!isObject(settings)) throw new MerchantsFileError(`${w}.settings`, "must be an object");
  const checked = connector.parseSettings(settings);
  if (!checked.ok) throw new MerchantsFileError(`${w}.${checked.faults[0].field}`, checked.faults[0].description);
  return { name, connector: connector.name, url: endpoint, credentials, enabled: entry.enabled !== false, settings };
}

/** The accounts at `where`, each name once. The credentials are sealed before they are stored and never shown again. */
export function parseProcessorAccounts(raw: unknown, where: string): ProcessorAccount[] {
  if (!Array.isArray(raw)) throw new MerchantsFileError(where, "must be a list");
  const accounts = raw.map((entry, i) => parseAccount(entry, `${where}[${i}]`));
  const twice = accounts.findIndex((x, j) => accounts.findIndex((y) => y.name === x.name) !== j);
  if (twice >= 0) {
    const older = isObject(raw[twice]) && raw[twice].name === undefined;
    throw new MerchantsFileError(`${where}[${twice}].${older ? "processor" : "name"}`, `repeats ${accounts[twice].name}`);
  }
  return accounts;
}
