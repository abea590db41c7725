/**
 * Risk rules from the merchants file (docs/backoffice-operations.md, Risk rules from the merchants file):
 * `risk_rule.source` says who owns a rule: `console` (an admin saved it; the console changes and deletes it) or
 * `file` (a merchant's `risk_rules` in CASHIER_MERCHANTS_FILE; every start replaces them with the file's list,
 * and the console refuses to change or delete them). Rows before this one were all saved in the console.
 */
import { Migration } from "@mikro-orm/migrations";

export class Migration031RiskRuleSource extends Migration {
  override name = "031-risk-rule-source";

  override up(): void {
    this.addSql(`alter table risk_rule add column source text not null default 'console' check (source in ('console', 'file'));`);
  }
}
