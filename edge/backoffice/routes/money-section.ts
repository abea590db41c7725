/**
 * The transaction detail page's money section (views/money-actions.ts), drawn from what the engine offers on the
 * transaction (ConsoleMoneyService.GetMoneyActions) for a role that may refund or cancel; the actions themselves
 * are money-actions.ts's routes. Each drawing gets a fresh form key, so that one form sent twice refunds once.
 */
import { randomUUID } from "node:crypto";
import type { Transaction } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import type { Html } from "../../pages/kit/html.ts";
import { moneySection } from "../views/money-actions.ts";
import type { PageDeps, SignedIn } from "./pages.ts";

/** The detail page's money section for `x`, or nothing when the operator's role may do none of its actions. */
export async function moneyOf(deps: PageDeps, s: SignedIn, x: Transaction): Promise<Html | undefined> {
  const canRefund = s.operator.actions.has("transaction.refund");
  const canCancel = s.operator.actions.has("transaction.cancel");
  if (!canRefund && !canCancel) return undefined;
  const actions = await deps.client.money.getMoneyActions({ context: s.context, traceId: x.traceId });
  return moneySection(s.kit.tr, {
    transaction: x,
    actions,
    canRefund,
    canCancel,
    login: s.operator.login,
    role: s.operator.role,
    csrf: s.csrf,
    requestId: randomUUID(),
  });
}
