/**
 * The detail of a transaction an operator's block refused (error_code 9008)
 * names that block: its id, what it blocks and its reason, lifted since or
 * not (ConsoleCustomerService.GetRefusingBlock), in a notice above the detail.
 * The platform was told only the kind; the operator reads which block and why.
 */
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import type { Notice } from "../views/model.ts";
import type { PageDeps, SignedIn } from "./pages.ts";

/** Cashier's decline code for a block (engine/shared/errors.ts, CUSTOMER_BLOCKED). */
const CUSTOMER_BLOCKED = 9008;

/** The notice naming the block that refused `x`; undefined for any other transaction. */
export async function refusingBlockNotice(deps: PageDeps, s: SignedIn, x: Transaction): Promise<Notice | undefined> {
  if (x.errorCode !== CUSTOMER_BLOCKED) return undefined;
  const { block } = await deps.client.customers.getRefusingBlock({ context: s.context, traceId: x.traceId });
  if (!block) return undefined;
  const key = block.liftedBy === "" ? "bo.customer.refusedBy" : "bo.customer.refusedByLifted";
  return { kind: "info", text: s.kit.tr.t(key, { id: block.id.toString(), label: block.label, reason: block.reason }) };
}
