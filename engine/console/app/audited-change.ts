/**
 * A merchant's settings change and its audit row in one database transaction,
 * for the Backoffice console and AdminService alike: the change runs inside
 * the merchant store's `within`, its row is appended last (see
 * store/audit-store.ts), and a change refused before anything was written is
 * audited as a failure on its own. An audit row that could not be written is
 * no refusal: the change is rolled back and the error goes to the caller.
 */
import type { AuditLog, AuditRecord } from "../ports/audit.ts";
import type { MerchantAdminStore } from "../../payments/index.ts";

/** The row for an outcome: the "after" value (empty for a failure) and a detail. */
export type AuditRowOf = (outcome: "success" | "failure", afterJson: string, detail?: string) => AuditRecord;

export async function auditedChange<T>(
  deps: { merchantStore: MerchantAdminStore; audit: AuditLog },
  merchantId: string,
  row: AuditRowOf,
  apply: () => Promise<T>,
  afterOf: (result: T) => string,
): Promise<T> {
  let refused = false;
  try {
    return await deps.merchantStore.within(merchantId, async (tx) => {
      const r = await apply().catch((err: unknown) => {
        refused = true;
        throw err;
      });
      await deps.audit.append(row("success", afterOf(r)), tx);
      return r;
    });
  } catch (err) {
    if (refused) await deps.audit.append(row("failure", "", err instanceof Error ? err.message : "refused"));
    throw err;
  }
}
