/**
 * The frame of a console change to one merchant's processing (its accounts, its routing rules): the role's check
 * (merchant.update, admins only), the scope's and the merchant's own (a refusal there audited without the merchant,
 * as every console refusal is), then the change under the merchant's row lock with its audit row, before and after,
 * in one transaction; a change refused for its fields is audited as a failure. Four eyes are not asked, as for every
 * other merchant setting: they apply to payout approvals.
 */
import type { ConsoleCaller } from "../ports/ports.ts";
import { auditedChange } from "../app/audited-change.ts";
import { auditingRefusals, authorize, type SignedIn } from "../app/console-session.ts";
import type { MerchantSettingsDeps } from "./settings-merchants.ts";
import { merchantTarget } from "./console-mappers.ts";
import { merchantsFor, notFound } from "./console-scope.ts";
import { invalidArgument } from "../../rpc/errors.ts";

export interface MerchantChange<T> {
  /** The audit row's action: processor_account.set, processor_account.delete, merchant.routing_rules. */
  action: string;
  merchantId: string;
  /** The value the row keeps as before and after (never a credential), as canonical JSON. */
  read: () => Promise<string>;
  /** The change, in the transaction, the merchant's row locked. */
  apply: (who: SignedIn) => Promise<T>;
}

export async function merchantChange<T>(deps: MerchantSettingsDeps, caller: ConsoleCaller, c: MerchantChange<T>): Promise<T> {
  const target = merchantTarget(c.merchantId);
  const who = await authorize(deps, caller, "merchant.update", target);
  const before = await auditingRefusals(deps, who, caller, { action: c.action, target }, async () => {
    if (!c.merchantId) throw invalidArgument("merchant_id", "is required");
    merchantsFor(who, c.merchantId);
    if (!(await deps.merchantStore.view(c.merchantId))) throw notFound(`no merchant ${c.merchantId}`);
    return c.read();
  });
  const row = (outcome: "success" | "failure", after: string, detail = "") => ({
    actor: who.scope.login,
    action: c.action,
    outcome,
    merchantId: c.merchantId,
    target: `merchant:${c.merchantId}`,
    clientAddress: caller.clientAddress,
    beforeJson: before,
    afterJson: after,
    detail,
  });
  let after = "";
  return auditedChange(
    deps,
    c.merchantId,
    row,
    async () => {
      await deps.merchantStore.lock(c.merchantId);
      const r = await c.apply(who);
      after = await c.read();
      return r;
    },
    () => after,
  );
}
