/**
 * The merchants file's risk rules at start (docs/backoffice-operations.md, Risk rules from the merchants file): for
 * each merchant of the file, its rules of source `file` become the file's list (none listed: none kept), in one
 * transaction per merchant with an audit row per rule removed and per rule added, by actor `merchants-file`. A start
 * whose file lists the same rules as the last one changes nothing and writes no row; the console's own rules are
 * never touched.
 */
import { fieldsOfRule, type RiskRule } from "../../payments/index.ts";
import { canonicalJson } from "../domain/audit-chain.ts";
import type { AuditLog } from "../ports/audit.ts";
import type { RiskRuleRecords } from "../ports/risk-rules.ts";
import type { Tx } from "../ports/transactions.ts";

/** Who the audit log names for a change the merchants file made. */
export const FILE_ACTOR = "merchants-file";

/** What applying the file needs: the rules' store, the audit log, and one transaction at a time. */
export interface FileRiskRulesDeps {
  riskRules: Pick<RiskRuleRecords, "fileRules" | "replaceFileRules">;
  audit: Pick<AuditLog, "append">;
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

/** A merchant's rules as the file lists them: what a change is judged on (ids and authors aside). */
const sameRules = (a: readonly RiskRule[], b: readonly RiskRule[]) =>
  a.length === b.length && a.every((r, i) => canonicalJson(fieldsOfRule(r)) === canonicalJson(fieldsOfRule(b[i])));

const face = (rule: RiskRule) => canonicalJson({ id: rule.id, ...fieldsOfRule(rule), source: "file" });

/** Applies each merchant's file rules; the merchants whose rules changed, with the counts removed and added. */
export async function applyFileRiskRules(
  deps: FileRiskRulesDeps,
  merchants: readonly { merchantId: string; riskRules?: readonly RiskRule[] }[],
): Promise<{ merchantId: string; removed: number; added: number }[]> {
  const changed: { merchantId: string; removed: number; added: number }[] = [];
  for (const m of merchants) {
    const wanted = m.riskRules ?? [];
    const done = await deps.transaction(async (tx) => {
      const before = await deps.riskRules.fileRules(m.merchantId, tx);
      if (
        sameRules(
          before.map((r) => r.rule),
          wanted,
        )
      )
        return undefined;
      const after = await deps.riskRules.replaceFileRules(m.merchantId, wanted, FILE_ACTOR, tx);
      const row = (target: number, change: { beforeJson: string } | { afterJson: string }) =>
        deps.audit.append(
          {
            actor: FILE_ACTOR,
            action: "risk.edit",
            outcome: "success",
            merchantId: m.merchantId,
            target: `risk_rule:${target}`,
            detail: "CASHIER_MERCHANTS_FILE applied at start",
            ...change,
          },
          tx,
        );
      for (const r of before) await row(r.rule.id, { beforeJson: face(r.rule) });
      for (const r of after) await row(r.rule.id, { afterJson: face(r.rule) });
      return { merchantId: m.merchantId, removed: before.length, added: after.length };
    });
    if (done) changed.push(done);
  }
  return changed;
}
