/**
 * The hosted Cashier's settings of one frontend entry (CONTRACT section 9),
 * checked wherever they come from (the merchants file, AdminService), each
 * fault named by its path: `merchants[0].frontends[0].allowed_origins[1]`.
 * Absent fields take the contract's defaults (DEFAULT_FRONTEND_SETTINGS).
 */
import type { CurrencyLimits } from "../../shared/money.ts";
import { DEFAULT_FRONTEND_SETTINGS, type FrontendSettings, LIMIT_FIELDS } from "../domain/frontend-settings.ts";
import { parseBranding } from "./branding-spec.ts";
import { MerchantsFileError } from "./merchant-errors.ts";

export const MAX_ALLOWED_ORIGINS = 20;
export const MAX_DEPOSIT_PRESETS = 8;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

const isPositiveInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

function list(f: Record<string, unknown>, key: string, fw: string, max: number): unknown[] {
  const v = f[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new MerchantsFileError(`${fw}.${key}`, "must be a list");
  if (v.length > max) throw new MerchantsFileError(`${fw}.${key}`, `must have at most ${max} entries`);
  return v;
}

function flag(f: Record<string, unknown>, key: string, fw: string, fallback: boolean): boolean {
  const v = f[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== "boolean") throw new MerchantsFileError(`${fw}.${key}`, "must be true or false");
  return v;
}

/**
 * An origin exactly as browsers serialise it (no path, no trailing slash, lower-case host), https, or http on a
 * loopback host for development: a parent page served over plain http could be altered on the way and read
 * the Cashier's events.
 */
function origin(v: unknown, field: string): string {
  const problem = "must be an origin such as https://shop.example or https://shop.example:8443 (scheme, host and port only)";
  if (typeof v !== "string") throw new MerchantsFileError(field, problem);
  // A URL parses "https://*.example.com" (the host keeps its "*"), and frame-ancestors would read it as every
  // subdomain, one taken over or run by someone else included: each origin is listed, never a pattern.
  if (v.includes("*"))
    throw new MerchantsFileError(field, `is a wildcard (${v.slice(0, 100)}): list each origin that frames the Cashier, such as https://shop.example`);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new MerchantsFileError(field, problem);
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || u.origin !== v) throw new MerchantsFileError(field, problem);
  // What a CSP source may hold: letters, digits and hyphens between dots, or an IPv6 address in brackets.
  if (!HOST_NAME.test(u.hostname) && !u.hostname.startsWith("[")) throw new MerchantsFileError(field, problem);
  if (u.protocol === "http:" && !LOOPBACK_HOSTS.has(u.hostname))
    throw new MerchantsFileError(field, "must use https (http only for localhost, 127.0.0.1 or [::1])");
  return v;
}

function limitsOf(v: unknown, field: string, currencies: readonly string[]): Record<string, CurrencyLimits> {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v))
    throw new MerchantsFileError(field, 'must be an object keyed by currency, e.g. {"USD": {"deposit_min": 1000}}');
  const out: Record<string, CurrencyLimits> = {};
  for (const [currency, raw] of Object.entries(v)) {
    const where = `${field}.${currency}`;
    if (!currencies.includes(currency)) throw new MerchantsFileError(where, `must be one of the frontend's currencies (${currencies.join(", ")})`);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new MerchantsFileError(where, "must be an object");
    const entry = raw as Record<string, unknown>;
    const unknown = Object.keys(entry).find((k) => !LIMIT_FIELDS.some(([name]) => name === k));
    if (unknown) throw new MerchantsFileError(`${where}.${unknown}`, `is not a limit (use ${LIMIT_FIELDS.map(([name]) => name).join(", ")})`);
    const limits: CurrencyLimits = {};
    for (const [name, key] of LIMIT_FIELDS) {
      const amount = entry[name];
      if (amount === undefined || amount === null) continue;
      if (!isPositiveInt(amount)) throw new MerchantsFileError(`${where}.${name}`, "must be a positive integer in the wire unit");
      limits[key] = amount;
    }
    for (const [min, max, minName, maxName] of [
      [limits.depositMin, limits.depositMax, "deposit_min", "deposit_max"],
      [limits.withdrawalMin, limits.withdrawalMax, "withdrawal_min", "withdrawal_max"],
    ] as const) {
      if (min !== undefined && max !== undefined && min > max) throw new MerchantsFileError(`${where}.${minName}`, `must not exceed ${maxName} (${max})`);
    }
    out[currency] = limits;
  }
  return out;
}

/** A BCP 47 tag in its canonical form (`en-gb` -> `en-GB`). */
export function canonicalLocale(v: unknown, field: string): string {
  const problem = "must be a BCP 47 language tag such as en, de or ar";
  if (typeof v !== "string" || v.length === 0 || v.length > 35) throw new MerchantsFileError(field, problem);
  try {
    const [tag] = Intl.getCanonicalLocales(v);
    if (!tag) throw new Error();
    return tag;
  } catch {
    throw new MerchantsFileError(field, problem);
  }
}

/** The settings of the frontend entry `f` at path `fw`, whose accepted currencies are `currencies`. */
export function parseFrontendSettings(f: Record<string, unknown>, fw: string, currencies: readonly string[]): FrontendSettings {
  const allowedOrigins = list(f, "allowed_origins", fw, MAX_ALLOWED_ORIGINS).map((o, i) => origin(o, `${fw}.allowed_origins[${i}]`));
  const dupOrigin = allowedOrigins.findIndex((o, i) => allowedOrigins.indexOf(o) !== i);
  if (dupOrigin >= 0) throw new MerchantsFileError(`${fw}.allowed_origins[${dupOrigin}]`, `repeats ${allowedOrigins[dupOrigin]}`);
  const depositPresets = list(f, "deposit_presets", fw, MAX_DEPOSIT_PRESETS).map((a, i) => {
    if (!isPositiveInt(a)) throw new MerchantsFileError(`${fw}.deposit_presets[${i}]`, "must be a positive integer in the wire unit");
    return a;
  });
  const dupPreset = depositPresets.findIndex((a, i) => depositPresets.indexOf(a) !== i);
  if (dupPreset >= 0) throw new MerchantsFileError(`${fw}.deposit_presets[${dupPreset}]`, `repeats ${depositPresets[dupPreset]}`);
  const d = DEFAULT_FRONTEND_SETTINGS;
  const branding = parseBranding(f.branding, `${fw}.branding`);
  return {
    allowedOrigins,
    depositPresets,
    limits: limitsOf(f.limits, `${fw}.limits`, currencies),
    defaultLocale: f.default_locale === undefined || f.default_locale === null ? d.defaultLocale : canonicalLocale(f.default_locale, `${fw}.default_locale`),
    saveCards: flag(f, "save_cards", fw, d.saveCards),
    closedLoopWithdrawals: flag(f, "closed_loop_withdrawals", fw, d.closedLoopWithdrawals),
    playerCancelWithdrawal: flag(f, "player_cancel_withdrawal", fw, d.playerCancelWithdrawal),
    ...(branding ? { branding } : {}),
  };
}
