/**
 * A risk rule as an admin writes it (the console's SaveRiskRule) or the store
 * keeps it (risk_rule.params), checked into a RiskRule (risk-rules.ts): every
 * field at fault is named, so a bad rule is refused at save and never stored to
 * misfire on a sale later. Pure.
 */
import type { FieldViolation } from "../../shared/errors.ts";
import { BIN_PATTERN } from "./blocks.ts";
import { LIMIT_PERIODS, type LimitPeriod, MAX_WINDOW_SECONDS, RISK_RULE_KINDS, type RiskRule, VELOCITY_KEYS, type VelocityKey } from "./risk-rules.ts";

/** A rule's fields as written: numbers may be absent (0 in protobuf), text may be empty. */
export interface RiskRuleFields {
  name: string;
  kind: string;
  /** velocity: sale or payout. */
  transactionType: string;
  /** velocity: customer, card, email or ip. */
  key: string;
  windowSeconds: number;
  /** velocity: 0 for no count limit. */
  maxCount: number;
  /** velocity (0 for no amount limit) and deposit_limit, in minor units of `currency`. */
  maxAmountMinor: number;
  currency: string;
  /** deposit_limit: day, week or month. */
  period: string;
  /** country_mismatch: `BIN=CC` pairs, separated by commas, spaces or lines. */
  binCountries: string;
}

const CURRENCY = /^[A-Z]{3}$/;
const COUNTRY = /^[A-Z]{2}$/;
const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

function positiveInt(v: number, max: number): boolean {
  return Number.isSafeInteger(v) && v >= 1 && v <= max;
}

/** `BIN=CC` pairs into a map, or the first fault in words. */
export function parseBinCountries(text: string): { ok: true; value: Record<string, string> } | { ok: false; description: string } {
  const value: Record<string, string> = {};
  const pairs = text.split(/[\s,]+/).filter((p) => p !== "");
  if (pairs.length === 0) return { ok: false, description: "must list at least one BIN=country pair, e.g. 411111=US" };
  if (pairs.length > 500) return { ok: false, description: "may list at most 500 BINs" };
  for (const pair of pairs) {
    const [bin = "", country = "", ...more] = pair.split("=");
    const cc = country.toUpperCase();
    if (more.length > 0 || !BIN_PATTERN.test(bin) || !COUNTRY.test(cc))
      return { ok: false, description: `${pair}: each pair is a 6 or 8 digit BIN, '=', and a two-letter country code` };
    if (value[bin] !== undefined && value[bin] !== cc) return { ok: false, description: `${bin} is listed twice` };
    value[bin] = cc;
  }
  return { ok: true, value };
}

/** The rule, with `id`, or every fault by field (the console's field names). */
export function parseRiskRule(id: number, f: RiskRuleFields): { ok: true; rule: RiskRule } | { ok: false; violations: FieldViolation[] } {
  const v: FieldViolation[] = [];
  const name = f.name.trim();
  if (name.length < 1 || name.length > 80 || /\p{Cc}/u.test(name)) v.push({ field: "name", description: "must be 1 to 80 printable characters" });
  const kind = RISK_RULE_KINDS.find((k) => k === f.kind);
  if (!kind) {
    v.push({ field: "kind", description: `must be one of ${RISK_RULE_KINDS.join(", ")}` });
    return { ok: false, violations: v };
  }
  let rule: RiskRule | undefined;
  if (kind === "velocity") {
    const type = f.transactionType === "sale" || f.transactionType === "payout" ? f.transactionType : undefined;
    if (!type) v.push({ field: "transaction_type", description: "must be sale or payout" });
    const key = VELOCITY_KEYS.find((k): k is VelocityKey => k === f.key);
    if (!key) v.push({ field: "key", description: `must be one of ${VELOCITY_KEYS.join(", ")}` });
    if (!positiveInt(f.windowSeconds, MAX_WINDOW_SECONDS))
      v.push({ field: "window_seconds", description: `must be a whole number of seconds from 1 to ${MAX_WINDOW_SECONDS} (31 days)` });
    if (!(f.maxCount === 0 || positiveInt(f.maxCount, 1_000_000))) v.push({ field: "max_count", description: "must be 0 (no count limit) or 1 to 1000000" });
    if (!(f.maxAmountMinor === 0 || positiveInt(f.maxAmountMinor, MAX_AMOUNT)))
      v.push({ field: "max_amount_minor", description: "must be 0 (no amount limit) or a positive whole number of minor units" });
    if (f.maxCount === 0 && f.maxAmountMinor === 0) v.push({ field: "max_count", description: "a velocity rule needs max_count, max_amount_minor or both" });
    if (f.maxAmountMinor !== 0 && !CURRENCY.test(f.currency))
      v.push({ field: "currency", description: "must be a three-letter currency code for an amount limit" });
    if (f.maxAmountMinor === 0 && f.currency !== "") v.push({ field: "currency", description: "is only for an amount limit: leave it empty" });
    if (type && key)
      rule = {
        id,
        name,
        kind,
        type,
        key,
        windowSeconds: f.windowSeconds,
        maxCount: f.maxCount || null,
        maxAmountMinor: f.maxAmountMinor || null,
        currency: f.maxAmountMinor ? f.currency : null,
      };
  } else if (kind === "deposit_limit") {
    const period = Object.keys(LIMIT_PERIODS).find((p): p is LimitPeriod => p === f.period);
    if (!period) v.push({ field: "period", description: "must be day, week or month" });
    if (!CURRENCY.test(f.currency)) v.push({ field: "currency", description: "must be a three-letter currency code" });
    if (!positiveInt(f.maxAmountMinor, MAX_AMOUNT)) v.push({ field: "max_amount_minor", description: "must be a positive whole number of minor units" });
    if (period) rule = { id, name, kind, period, currency: f.currency, maxAmountMinor: f.maxAmountMinor };
  } else {
    const bins = parseBinCountries(f.binCountries);
    if (!bins.ok) v.push({ field: "bin_countries", description: bins.description });
    else rule = { id, name, kind, binCountries: bins.value };
  }
  return v.length > 0 || !rule ? { ok: false, violations: v } : { ok: true, rule };
}

/** A rule back into the fields it was written with (the store's params, the console's form). */
export function fieldsOfRule(rule: RiskRule): RiskRuleFields {
  const base = {
    name: rule.name,
    kind: rule.kind,
    transactionType: "",
    key: "",
    windowSeconds: 0,
    maxCount: 0,
    maxAmountMinor: 0,
    currency: "",
    period: "",
    binCountries: "",
  };
  if (rule.kind === "velocity")
    return {
      ...base,
      transactionType: rule.type,
      key: rule.key,
      windowSeconds: rule.windowSeconds,
      maxCount: rule.maxCount ?? 0,
      maxAmountMinor: rule.maxAmountMinor ?? 0,
      currency: rule.currency ?? "",
    };
  if (rule.kind === "deposit_limit") return { ...base, period: rule.period, currency: rule.currency, maxAmountMinor: rule.maxAmountMinor };
  return {
    ...base,
    binCountries: Object.entries(rule.binCountries)
      .map(([b, c]) => `${b}=${c}`)
      .join(" "),
  };
}
