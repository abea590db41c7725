/**
 * A merchant's `routing_rules` (CONTRACT 11) as the merchants file and AdminService give them (snake_case JSON),
 * checked into the domain's RoutingRule list: every fault refused by its path
 * (`merchants[0].routing_rules[2].when.currency[0]`) with MerchantsFileError, as the rest of a merchant's settings
 * are, so that a bad rule stops the start or is refused by the API instead of routing a payment somewhere unmeant.
 */
import { CARD_BRANDS } from "../../shared/card.ts";
import countries from "i18n-iso-countries/index.js";
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import { isCurrency } from "../../shared/money.ts";
import type { RoutingConditions, RoutingRule } from "../domain/routing.ts";
import { MerchantsFileError } from "./merchant-errors.ts";

/** At most this many rules a merchant: each attempt reads them in order. */
export const MAX_ROUTING_RULES = 100;
/** At most this many values in one condition (every country there is fits). */
export const MAX_CONDITION_VALUES = 300;
/** At most this many characters in a rule's name (shown in the Backoffice and a transaction's detail). */
export const MAX_RULE_NAME = 64;
/** The largest split weight: weights add up exactly whatever their number. */
export const MAX_SPLIT_WEIGHT = 1_000_000;

/** The brands a rule may name: card-validator's names, in the order its docs list them. */
export const ROUTING_CARD_BRANDS = Object.keys(CARD_BRANDS) as readonly string[];

const RULE_MEMBERS = ["name", "when", "processors", "split"];
const CONDITIONS = ["transaction_type", "currency", "country", "card_brand", "bin", "amount_min", "amount_max"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isPositiveInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

/**
 * The merchant's routing rules at `where` (its path, e.g. `merchants[0].routing_rules`), each account name one of
 * `accounts` (the merchant's processor accounts). Absent or null: no rules, so `processors` routes every attempt.
 */
export function parseRoutingRules(raw: unknown, where: string, accounts: readonly string[]): RoutingRule[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new MerchantsFileError(where, "must be a list of rules");
  if (raw.length > MAX_ROUTING_RULES) throw new MerchantsFileError(where, `must have at most ${MAX_ROUTING_RULES} rules`);
  const rules = raw.map((r, i) => parseRule(r, `${where}[${i}]`, accounts));
  // The detail of a transaction names its rule: two of one name would not say which.
  const twice = rules.findIndex((r, i) => r.name !== undefined && rules.findIndex((s) => s.name === r.name) !== i);
  if (twice >= 0) throw new MerchantsFileError(`${where}[${twice}].name`, `repeats the name ${rules[twice].name}`);
  return rules;
}

function parseRule(raw: unknown, where: string, accounts: readonly string[]): RoutingRule {
  if (!isObject(raw)) throw new MerchantsFileError(where, "must be an object");
  const unknown = Object.keys(raw).find((k) => !RULE_MEMBERS.includes(k));
  if (unknown !== undefined) throw new MerchantsFileError(`${where}.${unknown}`, `is not a rule member (use ${RULE_MEMBERS.join(", ")})`);
  const hasProcessors = raw.processors !== undefined && raw.processors !== null;
  const hasSplit = raw.split !== undefined && raw.split !== null;
  if (hasProcessors === hasSplit)
    throw new MerchantsFileError(where, hasSplit ? "must have processors or split, not both" : "must have processors (a cascade) or split (weights)");
  const name = ruleName(raw.name, `${where}.name`);
  const when = conditions(raw.when, `${where}.when`);
  return {
    ...(name === undefined ? {} : { name }),
    when,
    ...(hasProcessors ? { processors: processors(raw.processors, `${where}.processors`, accounts) } : { split: split(raw.split, `${where}.split`, accounts) }),
  };
}

function ruleName(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.trim() === "") throw new MerchantsFileError(field, "must be a non-empty string");
  if ([...v].length > MAX_RULE_NAME) throw new MerchantsFileError(field, `must be at most ${MAX_RULE_NAME} characters`);
  if (CONTROL_CHARACTERS.test(v)) throw new MerchantsFileError(field, "must not contain control characters");
  // "rule 3" is how a rule without a name is shown: a name of that form could be read as another rule's place.
  if (/^rule \d+$/i.test(v.trim())) throw new MerchantsFileError(field, 'must not be of the form "rule N", which names the rule at place N');
  return v;
}

/** The conditions at `where`; absent: none, the rule holds for every attempt. */
function conditions(raw: unknown, where: string): RoutingConditions {
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) throw new MerchantsFileError(where, "must be an object of conditions");
  const unknown = Object.keys(raw).find((k) => !CONDITIONS.includes(k));
  if (unknown !== undefined) throw new MerchantsFileError(`${where}.${unknown}`, `is not a condition (use ${CONDITIONS.join(", ")})`);
  const when: RoutingConditions = {};
  const types = values(raw, "transaction_type", where, "sale or payout", (v) => {
    // A refund goes to the account that took its sale, whatever the rules say.
    if (v === "refund") return "a refund goes back through the account that took its sale: routing rules do not apply to refunds";
    return v === "sale" || v === "payout" ? undefined : "must be sale or payout";
  });
  if (types) when.transactionType = types as ("sale" | "payout")[];
  const currency = values(raw, "currency", where, "ISO 4217 codes", (v) => (isCurrency(v) ? undefined : "must be an ISO 4217 code (upper case)"));
  if (currency) when.currency = currency;
  const country = values(raw, "country", where, "ISO 3166-1 alpha-2 codes", (v) =>
    /^[A-Z]{2}$/.test(v) && v !== "XK" && countries.isValid(v) ? undefined : "must be an ISO 3166-1 alpha-2 code (upper case)",
  );
  if (country) when.country = country;
  const brands = values(raw, "card_brand", where, "card brands", (v) =>
    ROUTING_CARD_BRANDS.includes(v.toLowerCase()) ? undefined : `must be one of ${ROUTING_CARD_BRANDS.join(", ")}`,
  );
  // One spelling kept, so that "Visa" and "visa" are one brand to the repeat check below and read back alike.
  if (brands)
    when.cardBrand = noRepeats(
      brands.map((b) => b.toLowerCase()),
      `${where}.card_brand`,
    );
  const bin = values(raw, "bin", where, "BIN prefixes", (v) => (/^\d{1,8}$/.test(v) ? undefined : "must be a string of 1 to 8 digits"));
  if (bin) when.bin = bin;
  const amountMin = amount(raw, "amount_min", where);
  const amountMax = amount(raw, "amount_max", where);
  if (amountMin !== undefined) when.amountMin = amountMin;
  if (amountMax !== undefined) when.amountMax = amountMax;
  if (amountMin !== undefined && amountMax !== undefined && amountMin > amountMax)
    throw new MerchantsFileError(`${where}.amount_min`, `must not exceed amount_max (${amountMax})`);
  return when;
}

/** A condition's list of strings, each passing `problem`; absent: undefined (any value). */
function values(raw: Record<string, unknown>, key: string, where: string, what: string, problem: (v: string) => string | undefined): string[] | undefined {
  const v = raw[key];
  const field = `${where}.${key}`;
  if (v === undefined || v === null) return undefined;
  // An empty list would hold for no attempt: a rule that can never route is a slip, not a setting.
  if (!Array.isArray(v) || v.length === 0) throw new MerchantsFileError(field, `must be a non-empty list of ${what} (leave it out to match any)`);
  if (v.length > MAX_CONDITION_VALUES) throw new MerchantsFileError(field, `must have at most ${MAX_CONDITION_VALUES} entries`);
  const list = v.map((item, i) => {
    if (typeof item !== "string") throw new MerchantsFileError(`${field}[${i}]`, `must be a string: ${what}`);
    const wrong = problem(item);
    if (wrong) throw new MerchantsFileError(`${field}[${i}]`, wrong);
    return item;
  });
  return noRepeats(list, field);
}

function noRepeats(list: string[], field: string): string[] {
  const twice = list.findIndex((x, i) => list.indexOf(x) !== i);
  if (twice >= 0) throw new MerchantsFileError(`${field}[${twice}]`, `repeats ${list[twice]}`);
  return list;
}

/** A bound as the merchants file writes amounts (frontends' limits, deposit presets): a positive integer in the wire unit. */
function amount(raw: Record<string, unknown>, key: string, where: string): number | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (!isPositiveInt(v))
    throw new MerchantsFileError(`${where}.${key}`, "must be a positive integer in the wire unit (as Process's amount: 1000 is USD 10.00, JPY 1000)");
  return v;
}

function account(v: unknown, field: string, accounts: readonly string[]): string {
  if (typeof v !== "string" || !accounts.includes(v))
    throw new MerchantsFileError(
      field,
      accounts.length > 0 ? `must name one of the merchant's accounts (${accounts.join(", ")})` : "must name an account, and the merchant has none",
    );
  return v;
}

function processors(v: unknown, field: string, accounts: readonly string[]): string[] {
  if (!Array.isArray(v) || v.length === 0) throw new MerchantsFileError(field, "must be a non-empty list of account names, in cascade order");
  // Listed twice, an account would be sent the customer's card again just after it declined.
  return noRepeats(
    v.map((a, i) => account(a, `${field}[${i}]`, accounts)),
    field,
  );
}

function split(v: unknown, field: string, accounts: readonly string[]): Record<string, number> {
  if (!isObject(v) || Object.keys(v).length === 0)
    throw new MerchantsFileError(field, 'must be a non-empty object of account names and weights, e.g. {"adyen-eu": 3, "cko-main": 1}');
  const weights = Object.entries(v).map(([name, weight]) => {
    account(name, `${field}.${name}`, accounts);
    if (!isPositiveInt(weight) || weight > MAX_SPLIT_WEIGHT)
      throw new MerchantsFileError(`${field}.${name}`, `must be a whole-number weight from 1 to ${MAX_SPLIT_WEIGHT}`);
    return [name, weight] as const;
  });
  // Own members only, in the order given: an account named __proto__ is a member like any other, not a prototype.
  return Object.fromEntries(weights);
}
