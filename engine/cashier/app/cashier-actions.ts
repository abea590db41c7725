/**
 * The customer's smaller acts in a session: cancel one of their pending
 * withdrawals (C, UpdatedBy `customer`; only where the frontend's
 * player_cancel_withdrawal allows it, else refused by name), delete a saved
 * card (its sealed number goes with the row), and read one of the session's
 * own transactions for the result page.
 */
import { domainError, type DomainError } from "../../shared/errors.ts";
import { step } from "../../payments/index.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { canTransition, stateOf } from "../../payments/index.ts";
import { advance } from "../../payments/index.ts";
import type { CashierDeps } from "../ports/ports.ts";
import { openSession } from "./cashier-session.ts";

type Result<T> = ({ ok: true } & T) | { ok: false; error: DomainError };

const CANCELLED = { status: "cancelled", letter: "C" } as const;

export async function cancelWithdrawal(deps: CashierDeps, sessionToken: string, traceId: number): Promise<Result<{ attempt: Attempt }>> {
  const opened = await openSession(deps, sessionToken);
  if (!opened.ok) return opened;
  const { session: s, merchant, frontend } = opened.open;
  if (!frontend.settings.playerCancelWithdrawal) {
    return {
      ok: false,
      error: domainError("NOT_ALLOWED_BY_FRONTEND", `frontend ${frontend.name} does not let customers cancel withdrawals (player_cancel_withdrawal is off)`),
    };
  }
  const a = await deps.orders.get(traceId);
  // Only the customer's own payouts at this merchant and this frontend are found; anyone else's are "none". The
  // frontend is the payout's rule: a frontend that forbids cancelling is not opened by a session of a sibling that
  // allows it.
  if (a?.type !== "payout" || a.merchantId !== s.merchantId || a.pin !== s.pin || a.frontend !== s.frontend) {
    return { ok: false, error: domainError("NOT_FOUND", `no withdrawal of yours with trace_id ${traceId}`) };
  }
  if (!canTransition("payout", stateOf(a), CANCELLED)) {
    return {
      ok: false,
      error: domainError("INVALID_STATE", `the withdrawal is ${a.status}${a.payoutLetter ? ` (${a.payoutLetter})` : ""}: it can no longer be cancelled`),
    };
  }
  const done = await advance(deps, a, step(CANCELLED, "customer:cancel", { errorDetails: "Cancelled by the customer" }), {
    merchant,
    afterReply: true,
    updatedBy: "customer",
  });
  if (!done.applied) return { ok: false, error: domainError("INVALID_STATE", `the withdrawal changed meanwhile: it is ${done.attempt.status}`) };
  return { ok: true, attempt: done.attempt };
}

export async function deleteSavedCard(deps: CashierDeps, sessionToken: string, cardId: string): Promise<Result<object>> {
  const opened = await openSession(deps, sessionToken);
  if (!opened.ok) return opened;
  const { session: s } = opened.open;
  const deleted = cardId.length <= 64 && (await deps.sessions.deleteSavedCard(s.merchantId, s.pin, cardId));
  return deleted
    ? { ok: true }
    : { ok: false, error: domainError("NOT_FOUND", "no such saved card of yours", [{ field: "card_id", description: "names none of your saved cards" }]) };
}

export async function sessionTransaction(deps: CashierDeps, sessionToken: string, traceId: number): Promise<Result<{ attempt: Attempt }>> {
  const opened = await openSession(deps, sessionToken);
  if (!opened.ok) return opened;
  const a = await deps.orders.get(traceId);
  if (!a || a.sessionRef !== opened.open.session.id)
    return { ok: false, error: domainError("NOT_FOUND", `no transaction of this session with trace_id ${traceId}`) };
  return { ok: true, attempt: a };
}
