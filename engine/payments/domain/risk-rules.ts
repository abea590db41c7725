/**
 * A merchant's risk rules (docs/backoffice-operations.md, Risk rules) as the
 * Process call applies them after the operators' blocks and before Validation
 * and any processor: velocity (how many, or how much in one currency, per
 * customer pin, card, e-mail or IP address of one transaction type within a
 * window), country mismatch (two of the countries known for the request differ:
 * the card's, by a BIN the rule lists; the customer's; the IP address's, by the
 * operator's table, CASHIER_IP_COUNTRY_FILE), and deposit limits (a customer's sales in one currency
 * over a rolling day, week or month). Pure: the counts come from one store
 * query (ports/risk.ts), asked for by `riskMeasures`; the refusal is 9009, its
 * rule named only in the history's cause.
 */
import { ERROR_CODES } from "../../shared/errors.ts";
import type { TransactionType } from "../../shared/transaction.ts";
import { normalEmail } from "./blocks.ts";
import { type Decision, failedState, step } from "./outcome.ts";

/** What a velocity rule counts by. */
export const VELOCITY_KEYS = ["customer", "card", "email", "ip"] as const;
export type VelocityKey = (typeof VELOCITY_KEYS)[number];

/** A deposit limit's rolling period and its length in seconds (a month is 30 days: documented). */
export const LIMIT_PERIODS = { day: 86_400, week: 604_800, month: 2_592_000 } as const;
export type LimitPeriod = keyof typeof LIMIT_PERIODS;

/** The longest window a velocity rule may have: 31 days, so that the counts query stays a short walk of recent orders. */
export const MAX_WINDOW_SECONDS = 2_678_400;

/** At most this many rules per merchant, the console's and the merchants file's together: the sale path evaluates them all. */
export const MAX_RISK_RULES = 50;

interface RuleBase {
  id: number;
  name: string;
}

/** At most `maxCount` orders, and/or at most `maxAmountMinor` in `currency`, of `type` per key value within `windowSeconds`, this one included. */
export interface VelocityRule extends RuleBase {
  kind: "velocity";
  type: "sale" | "payout";
  key: VelocityKey;
  windowSeconds: number;
  maxCount: number | null;
  maxAmountMinor: number | null;
  /** The amount's currency: set exactly when maxAmountMinor is. */
  currency: string | null;
}

/**
 * Refuses a sale or payout when two of its known countries differ: the card's (its BIN listed here), the customer's
 * (`country`), the IP address's (found in the operator's table). An unknown one is left out, never a refusal.
 */
export interface CountryMismatchRule extends RuleBase {
  kind: "country_mismatch";
  /** BIN (6 or 8 digits) -> ISO 3166 alpha-2 country; the only BIN countries the engine knows. */
  binCountries: Record<string, string>;
}

/** A customer's sales in `currency` within the rolling `period`, this one included, at most `maxAmountMinor`. */
export interface DepositLimitRule extends RuleBase {
  kind: "deposit_limit";
  period: LimitPeriod;
  currency: string;
  maxAmountMinor: number;
}

export type RiskRule = VelocityRule | CountryMismatchRule | DepositLimitRule;
export type RiskRuleKind = RiskRule["kind"];
export const RISK_RULE_KINDS: readonly RiskRuleKind[] = ["velocity", "country_mismatch", "deposit_limit"];

/** What a rule is evaluated on: the request as the engine has it before an order exists. */
export interface RiskSubject {
  type: TransactionType;
  amountMinor: number;
  currency: string;
  pin: string;
  email: string;
  ip: string;
  country: string;
  /** The card number's digits (only the BIN is read). */
  cardNumber: string;
  cardFingerprint: string;
  /** The country of `ip` in the operator's table (CASHIER_IP_COUNTRY_FILE); absent or "": not known. */
  ipCountry?: string;
}

/**
 * One aggregate the store computes over the merchant's earlier orders: those of `type` created at or after
 * `sinceSeconds` before now whose `key` equals `value`; the count, and the sum of those in `currency`.
 * `live` keeps only orders that hold or may still hold money (an attempt approved, pending or pending_async).
 */
export interface RiskMeasure {
  type: "sale" | "payout";
  key: VelocityKey;
  value: string;
  sinceSeconds: number;
  currency: string | null;
  live: boolean;
}

/** The store's answer for one measure. */
export interface RiskCount {
  count: number;
  amountMinor: number;
}

function keyValue(s: RiskSubject, key: VelocityKey): string {
  if (key === "customer") return s.pin;
  if (key === "card") return s.cardFingerprint;
  if (key === "email") return normalEmail(s.email);
  return s.ip.trim();
}

/** Where a country of the request comes from. */
export type CountrySource = "card" | "customer" | "ip";

/**
 * The request's countries a country rule knows, in the order card, customer, IP: the card's when the rule lists its
 * BIN (8 digits first), the customer's when given, the IP address's when the operator's table has it.
 */
export function knownCountries(rule: CountryMismatchRule, s: RiskSubject): [CountrySource, string][] {
  const digits = s.cardNumber.replace(/\D/g, "");
  const known: [CountrySource, string | undefined][] = [
    ["card", rule.binCountries[digits.slice(0, 8)] ?? rule.binCountries[digits.slice(0, 6)]],
    ["customer", s.country.trim().toUpperCase()],
    ["ip", (s.ipCountry ?? "").trim().toUpperCase()],
  ];
  return known.filter((k): k is [CountrySource, string] => k[1] !== undefined && k[1] !== "");
}

/** The measure a rule needs for this request, or undefined when it needs none (another type, no value to count by, another currency). */
export function measureOf(rule: RiskRule, s: RiskSubject): RiskMeasure | undefined {
  if (rule.kind === "velocity") {
    if (s.type !== rule.type) return undefined;
    const value = keyValue(s, rule.key);
    if (value === "") return undefined;
    return { type: rule.type, key: rule.key, value, sinceSeconds: rule.windowSeconds, currency: rule.currency, live: false };
  }
  if (rule.kind === "deposit_limit") {
    if (s.type !== "sale" || s.currency !== rule.currency || s.pin === "") return undefined;
    return { type: "sale", key: "customer", value: s.pin, sinceSeconds: LIMIT_PERIODS[rule.period], currency: rule.currency, live: true };
  }
  return undefined;
}

/** The measures of all the rules, in the rules' order (undefined where a rule needs none): one store query computes them all. */
export function riskMeasures(rules: readonly RiskRule[], s: RiskSubject): (RiskMeasure | undefined)[] {
  return rules.map((r) => measureOf(r, s));
}

/** Whether one rule refuses the request, given its measure's count of the earlier orders (none when it needs no measure). */
export function ruleRefuses(rule: RiskRule, s: RiskSubject, earlier: RiskCount | undefined): boolean {
  if (rule.kind === "country_mismatch") {
    if (s.type === "refund") return false;
    return new Set(knownCountries(rule, s).map(([, c]) => c)).size > 1;
  }
  if (!earlier) return false;
  if (rule.kind === "deposit_limit") return earlier.amountMinor + s.amountMinor > rule.maxAmountMinor;
  if (rule.maxCount !== null && earlier.count + 1 > rule.maxCount) return true;
  return rule.maxAmountMinor !== null && s.currency === rule.currency && earlier.amountMinor + s.amountMinor > rule.maxAmountMinor;
}

/** The first rule, in the merchant's order (by id), that refuses; `counts` answers `riskMeasures` place by place. */
export function refusingRule(rules: readonly RiskRule[], s: RiskSubject, counts: readonly (RiskCount | undefined)[]): RiskRule | undefined {
  if (s.type === "refund") return undefined;
  return rules.find((r, i) => ruleRefuses(r, s, counts[i]));
}

/**
 * The history's cause of a risk refusal: `risk:<id>:<name>`, so the operator's detail names the rule even after it is
 * deleted; a country rule's adds the countries it compared, ` [card US, customer US, ip FR]`.
 */
export const RISK_CAUSE_PREFIX = "risk:";

/** The words the platform gets in error_details: the catalogue's, never the rule's name. */
export const RISK_DECLINED_DETAILS = "Declined by the merchant's risk rules";

/** The decline a rule gives: declined (J for a payout), 9009, the rule's id and name (and a country rule's countries) in the history's cause only. */
export function riskDecision(type: TransactionType, rule: RiskRule, s?: RiskSubject): Decision {
  const countries =
    rule.kind === "country_mismatch" && s
      ? ` [${knownCountries(rule, s)
          .map(([from, c]) => `${from} ${c}`)
          .join(", ")}]`
      : "";
  return step(failedState(type), `${RISK_CAUSE_PREFIX}${rule.id}:${rule.name}${countries}`, {
    errorCode: ERROR_CODES.RISK_DECLINED,
    errorDetails: RISK_DECLINED_DETAILS,
  });
}

/** The rule id and name a history cause names (a country rule's countries left out), or undefined. */
export function riskRuleOfCause(cause: string): { id: number; name: string } | undefined {
  const m = /^risk:([1-9]\d{0,15}):(.*?)(?: \[(?:(?:card|customer|ip) [A-Z]{2}(?:, |(?=\])))+\])?$/s.exec(cause);
  return m ? { id: Number(m[1]), name: m[2] ?? "" } : undefined;
}
