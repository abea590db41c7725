/**
 * A merchant's `risk_rules` in the merchants file (docs/operations.md, Merchants file): each entry in the console's
 * field names (snake_case, as RiskRuleSpec spells them) and checked by the console's own check (parseRiskRule), so
 * that a rule the console would refuse stops the start instead, with a line naming the merchant, the rule's index
 * and the field. Pure.
 */
import { MAX_RISK_RULES, type RiskRule } from "../domain/risk-rules.ts";
import { parseRiskRule, type RiskRuleFields } from "../domain/risk-rule-input.ts";
import { MerchantsFileError } from "./merchant-errors.ts";

/** The file's field of each RiskRuleFields member, and whether it holds text or a whole number. */
const FIELDS: readonly (readonly [keyof RiskRuleFields, string, "text" | "number"])[] = [
  ["name", "name", "text"],
  ["kind", "kind", "text"],
  ["transactionType", "transaction_type", "text"],
  ["key", "key", "text"],
  ["windowSeconds", "window_seconds", "number"],
  ["maxCount", "max_count", "number"],
  ["maxAmountMinor", "max_amount_minor", "number"],
  ["currency", "currency", "text"],
  ["period", "period", "text"],
  ["binCountries", "bin_countries", "text"],
];
const KNOWN = new Set(FIELDS.map(([, file]) => file));

/** One entry into the check's fields: a field of the wrong JSON type, or one the format does not know, refused. */
function fieldsOf(raw: unknown, where: string, merchant: string): RiskRuleFields {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new MerchantsFileError(where, `must be an object (merchant ${merchant})`);
  const entry = raw as Record<string, unknown>;
  const unknown = Object.keys(entry).find((k) => !KNOWN.has(k));
  if (unknown !== undefined) throw new MerchantsFileError(`${where}.${unknown}`, `is not a risk rule's field (merchant ${merchant})`);
  const out: Record<string, string | number> = {};
  for (const [member, file, type] of FIELDS) {
    const v = entry[file];
    if (v === undefined || v === null) out[member] = type === "text" ? "" : 0;
    else if (type === "text" && typeof v === "string") out[member] = v;
    else if (type === "number" && typeof v === "number") out[member] = v;
    else throw new MerchantsFileError(`${where}.${file}`, `must be ${type === "text" ? "a string" : "a whole number"} (merchant ${merchant})`);
  }
  return out as unknown as RiskRuleFields;
}

/** The merchant's rules in the file's order ([] when the entry lists none), or the first fault by its path. */
export function parseFileRiskRules(raw: unknown, where: string, merchant: string): RiskRule[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new MerchantsFileError(where, `must be a list of risk rules (merchant ${merchant})`);
  if (raw.length > MAX_RISK_RULES) throw new MerchantsFileError(where, `may list at most ${MAX_RISK_RULES} rules (merchant ${merchant})`);
  return raw.map((entry, i) => {
    const at = `${where}[${i}]`;
    const parsed = parseRiskRule(0, fieldsOf(entry, at, merchant));
    if (parsed.ok) return parsed.rule;
    const [first] = parsed.violations;
    throw new MerchantsFileError(`${at}.${first.field}`, `${first.description} (merchant ${merchant})`);
  });
}
