/**
 * The console's store of risk rules (ConsoleRiskService): a merchant's rules
 * as saved, a save and a delete in the caller's transaction (with their audit
 * row), and the stored orders a dry run is tried on. Implemented on Postgres
 * by console/store/risk-rule-store.ts.
 */
import type { DryRunOrder, RiskRule } from "../../payments/index.ts";
import type { Tx } from "./transactions.ts";

/** A stored rule with who last saved it and when. */
export interface RiskRuleRecord {
  merchantId: string;
  rule: RiskRule;
  updatedBy: string;
  updatedAt: Date;
  /** `console` (saved by an admin) or `file` (the merchants file's, replaced at every start; the console leaves it be). */
  source: RiskRuleSource;
}

/** Who owns a stored rule. */
export type RiskRuleSource = "console" | "file";

export interface RiskRuleRecords {
  /** The merchant's rules by id; a stored row that fails its check is left out. */
  list(merchantId: string): Promise<RiskRuleRecord[]>;
  /** One rule of the merchant, or undefined. */
  get(merchantId: string, id: number, tx?: Tx): Promise<RiskRuleRecord | undefined>;
  /** Adds the rule (its id ignored), or undefined when the merchant has already `max` rules. */
  add(merchantId: string, rule: RiskRule, by: string, max: number, tx: Tx): Promise<RiskRuleRecord | undefined>;
  /** Replaces the console's rule `rule.id` of the merchant; undefined when it has none by that id (or that rule is the file's). */
  replace(merchantId: string, rule: RiskRule, by: string, tx: Tx): Promise<RiskRuleRecord | undefined>;
  /** Deletes the console's rule; false when the merchant has none by that id (or that rule is the file's). */
  delete(merchantId: string, id: number, tx: Tx): Promise<boolean>;
  /** The merchant's rules of the merchants file, by id, its row locked first (one start at a time replaces them). */
  fileRules(merchantId: string, tx: Tx): Promise<RiskRuleRecord[]>;
  /** Replaces the merchant's rules of the merchants file with `rules`, in their order; the new records. */
  replaceFileRules(merchantId: string, rules: readonly RiskRule[], by: string, tx: Tx): Promise<RiskRuleRecord[]>;
  /** The merchant's orders made at or after `from`, oldest first, at most `limit` (the newest kept when there are more). */
  ordersSince(merchantId: string, from: Date, limit: number): Promise<DryRunOrder[]>;
}
