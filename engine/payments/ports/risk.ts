/**
 * A merchant's risk rules as the Process call reads them (domain/risk-rules.ts):
 * the rules, cached per merchant as the merchants are, and one query that
 * counts, for all of a request's rules at once, the merchant's earlier orders
 * each rule measures. Implemented on Postgres by store/risk-rules-store.ts; the
 * console saves the rules through it and invalidates its cache.
 */
import type { RiskCount, RiskMeasure, RiskRule } from "../domain/risk-rules.ts";

/** What the Process call asks after the blocks, before Validation and any processor. */
export interface RiskRuleSource {
  /** The merchant's rules in their order (by id); empty when it has none. */
  rules(merchantId: string): Promise<readonly RiskRule[]>;
  /** The earlier orders each measure counts, place by place (undefined where the measure is), as of `now`; one query for all. */
  /** Forgets a merchant's cached rules after this engine changed them (the console's saves). */
  invalidate(merchantId: string): void;
  counts(merchantId: string, measures: readonly (RiskMeasure | undefined)[], now: Date): Promise<(RiskCount | undefined)[]>;
}

/**
 * The operator's IP country table (CASHIER_IP_COUNTRY_FILE, domain/ip-country-table.ts), held in memory: the
 * country mismatch rule compares the request's IP address's country when this knows it.
 */
export interface IpCountrySource {
  /** The ISO 3166-1 alpha-2 country of the network holding `ip`, or undefined: not known. */
  countryOf(ip: string): string | undefined;
}
