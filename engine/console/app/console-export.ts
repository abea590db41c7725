/**
 * Data leaving the console (a CSV export, transactions or the audit log) is
 * an operator action of its own: audited once per export, on its first page
 * (the next pages carry a page token), with the filters it was asked with.
 */
import { canonicalJson } from "../domain/audit-chain.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { SignedIn } from "./console-session.ts";

export async function auditExport(
  deps: Pick<BackofficeDeps, "audit">,
  who: SignedIn,
  e: { action: "transaction.export" | "audit.export"; firstPage: boolean; filters: unknown; merchantId?: string },
): Promise<void> {
  if (!e.firstPage) return;
  await deps.audit.append({
    actor: who.scope.login,
    action: e.action,
    outcome: "success",
    merchantId: e.merchantId,
    clientAddress: who.caller.clientAddress,
    afterJson: canonicalJson(e.filters),
  });
}
