/**
 * A refund from the Backoffice (issue 32, point 2): the rules of a Process
 * refund (payments' refundByOperator), a reason, the merchant scope, and four
 * eyes above the merchant's four-eyes amount for the sale's currency, as a
 * payout's approval has them (console-payouts.ts): the first operator's call
 * records the request (one per sale, with its amount); a second operator's
 * call with the same amount makes the refund, and not one whose access the
 * first set up, nor one who set up the first's. A request whose operator may
 * no longer refund counts no more. Every call is audited, a refused one as a
 * failure; the made refund's row commits with the refund itself. The refund is order bo-refund-<key>, the key being
 * the form's own (request_id) of the operator who makes it: the same form sent twice refunds once.
 */
import { canonicalJson } from "../domain/audit-chain.ts";
import { allows, inScope } from "../domain/operator-roles.ts";
import { describeViolations, domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { formatMajor } from "../../shared/money.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { type ProcessDeps, refundAmountFaults, refundByOperator, refundRefusal } from "../../payments/index.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { RefundFirstApproval } from "../ports/money-actions.ts";
import type { Tx } from "../ports/transactions.ts";
import { actionReasonFaults } from "./action-reason.ts";
import type { SignedIn } from "./console-session.ts";
import { needsFourEyes, sameHands } from "./console-payouts.ts";
import { ConsoleRefusal } from "../domain/console-rules.ts";

type Deps = ProcessDeps & BackofficeDeps;

/** What the operator asks: the sale, the amount in minor units and its currency, why, and the form's own key. */
export interface RefundAsk {
  traceId: number;
  amountMinor: number;
  currency: string;
  reason: string;
  requestId: string;
}

export type ConsoleRefund = { ok: true; refund?: Attempt; awaitingSecond: boolean } | { ok: false; error: DomainError };

/** The form's key: 8 to 40 of A-Z, a-z, 0-9, '-', '_' (the refund's order_id is bo-refund-<key>, at most 50). */
export const REQUEST_ID = /^[A-Za-z0-9_-]{8,40}$/;

const money = (minor: number, currency: string) => `${formatMajor(minor, currency)} ${currency}`;

/** A sale's face in the audit log's before value. */
const saleFace = (a: Attempt) => ({ status: a.status, amount_minor: a.amountMinor, currency: a.currency });

/** Whether `login` may still refund this merchant's sales: active, a role that refunds, the merchant in scope. */
async function stillRefunds(deps: Pick<Deps, "operators">, login: string, merchantId: string, tx?: Tx): Promise<boolean> {
  const op = await deps.operators.get(login, tx, tx !== undefined);
  return op?.state === "active" && allows(op.role, "transaction.refund") && inScope({ login, role: op.role, merchantIds: op.merchantIds }, merchantId);
}

/** The sale's waiting refund request, if its operator may still refund (one who may not is forgotten, audited). */
export async function standingRefundApproval(
  deps: Deps,
  sale: Attempt,
  audit: (login: string, tx: Tx) => Promise<void>,
): Promise<RefundFirstApproval | undefined> {
  const first = await deps.backoffice.refundFirstApproval(sale.traceId);
  if (!first || (await stillRefunds(deps, first.login, sale.merchantId))) return first;
  await deps.operators.transaction(async (tx) => {
    if (await deps.backoffice.forgetRefundFirstApproval(sale.traceId, first.login, tx)) await audit(first.login, tx);
  });
  return undefined;
}

/** The refund made under this form's key, if any (the order bo-refund-<key> among the sale's refunds). */
async function madeUnder(deps: Deps, saleTraceId: number, requestId: string): Promise<Attempt | undefined> {
  for (const id of await deps.backoffice.refundsOf(saleTraceId)) {
    const r = await deps.orders.get(id);
    if (r?.orderId === `bo-refund-${requestId}`) return r;
  }
  return undefined;
}

export async function refundFromConsole(deps: Deps, who: SignedIn, ask: RefundAsk): Promise<ConsoleRefund> {
  const login = who.scope.login;
  const target = `trace_id:${ask.traceId}`;
  const asked = { amount_minor: ask.amountMinor, currency: ask.currency, reason: ask.reason.trim() };
  // Refused before the sale is read: audited with no merchant (one outside the scope is not named).
  const unread = async (error: DomainError): Promise<ConsoleRefund> => {
    await deps.audit.append({
      actor: login,
      action: "transaction.refund",
      outcome: "failure",
      target,
      clientAddress: who.caller.clientAddress,
      detail: error.message,
    });
    return { ok: false, error };
  };
  const faults: FieldViolation[] = [...actionReasonFaults(ask.reason)];
  if (!REQUEST_ID.test(ask.requestId)) faults.push({ field: "request_id", description: "must be 8 to 40 of A-Z, a-z, 0-9, '-' and '_'" });
  if (faults.length > 0) return unread(domainError("INVALID_FIELDS", describeViolations(faults), faults));
  const sale = await deps.orders.get(ask.traceId);
  if (sale?.type !== "sale" || !inScope(who.scope, sale.merchantId)) return unread(domainError("NOT_FOUND", `no sale with trace_id ${ask.traceId}`));
  const row = (outcome: "success" | "failure", after: object, detail = "", action = "transaction.refund") => ({
    actor: login,
    action,
    outcome,
    merchantId: sale.merchantId,
    target,
    clientAddress: who.caller.clientAddress,
    beforeJson: canonicalJson(saleFace(sale)),
    afterJson: canonicalJson({ ...after, reason: asked.reason }),
    detail,
  });
  const failed = async (error: DomainError): Promise<ConsoleRefund> => {
    await deps.audit.append(row("failure", asked, error.message));
    return { ok: false, error };
  };
  // The same form sent again (a double click, a reload) is answered as the first time, and moves nothing more.
  const made = await madeUnder(deps, sale.traceId, ask.requestId);
  if (made) {
    if (made.amountMinor === ask.amountMinor && made.currency === ask.currency) return { ok: true, refund: made, awaitingSecond: false };
    return failed(
      domainError("ORDER_CONFLICT", "request_id: this form's key was used for another refund; open the form again", [
        { field: "request_id", description: "was used for another refund" },
      ]),
    );
  }
  // The Process refund's rules first: a refund that could never be made is not recorded as half approved.
  const refused = await refundRefusal(deps, sale);
  if (refused) return failed(refused);
  const amountFaults = refundAmountFaults(sale, ask.amountMinor, ask.currency);
  if (amountFaults.length > 0) return failed(domainError("INVALID_FIELDS", describeViolations(amountFaults), amountFaults));
  // Judged again by the store under the sale's lock when the refund is made.
  const remaining = await deps.backoffice.refundRemaining(sale.traceId);
  if (ask.amountMinor > remaining)
    return failed(
      domainError(
        "REFUND_EXCEEDS_REMAINING",
        `amount: ${money(ask.amountMinor, sale.currency)} exceeds what remains refundable of the sale (${money(remaining, sale.currency)})`,
        [{ field: "amount", description: `exceeds the sale's refundable remainder of ${money(remaining, sale.currency)}` }],
      ),
    );
  let first: RefundFirstApproval | undefined;
  if (await needsFourEyes(deps, { ...sale, amountMinor: ask.amountMinor })) {
    first = await standingRefundApproval(deps, sale, (gone, tx) =>
      deps.audit
        .append(row("success", { voided_first_approval: gone }, `${gone} may no longer refund this sale`, "transaction.refund.first.void"), tx)
        .then(() => {}),
    );
    if (!first) {
      const recorded = await deps.operators.transaction(async (tx) => {
        const made = await deps.backoffice.recordRefundFirstApproval(
          {
            saleTraceId: sale.traceId,
            requestId: ask.requestId,
            amountMinor: ask.amountMinor,
            currency: sale.currency,
            login,
            reason: asked.reason,
            at: deps.now(),
          },
          tx,
        );
        if (made) await deps.audit.append(row("success", { ...asked, first_approval: login }, "first of two approvals", "transaction.refund.first"), tx);
        return made;
      });
      if (recorded) return { ok: true, awaitingSecond: true };
      first = await deps.backoffice.refundFirstApproval(sale.traceId);
      if (!first) return failed(domainError("INVALID_STATE", "the sale's refund request changed meanwhile: try again"));
    }
    // The first approver's own form again: still the first of two.
    if (first.login === login && first.requestId === ask.requestId) return { ok: true, awaitingSecond: true };
    if (first.amountMinor !== ask.amountMinor)
      return failed(
        domainError(
          "INVALID_STATE",
          `a refund of ${money(first.amountMinor, first.currency)} by ${first.login} awaits its second approval: approve that amount, or wait until it is made`,
          [{ field: "amount", description: `must be ${money(first.amountMinor, first.currency)}, the amount awaiting its second approval` }],
        ),
      );
    const refusal = await sameHands(deps, first.login, login);
    if (refusal) {
      await deps.audit.append(row("failure", asked, refusal.message));
      throw refusal;
    }
  }
  const approver = first?.login;
  let firstGone = false;
  const result = await refundByOperator(
    deps,
    {
      saleTraceId: sale.traceId,
      amountMinor: ask.amountMinor,
      currency: ask.currency,
      createdBy: `backoffice:${login}`,
      orderId: `bo-refund-${ask.requestId}`,
    },
    async (tx, after) => {
      // The first approval is used up by this refund, in its transaction: a second operator racing this one makes none.
      if (approver && !(await deps.backoffice.forgetRefundFirstApproval(sale.traceId, approver, tx))) {
        firstGone = true;
        throw new ConsoleRefusal("FOUR_EYES_SAME_OPERATOR");
      }
      await deps.audit.append(
        row("success", { ...asked, refund_trace_id: after.traceId, first_approval: approver ?? "" }, approver ? `second approval after ${approver}` : ""),
        tx,
      );
    },
  ).catch((err: unknown) => {
    if (firstGone)
      return { ok: false as const, error: domainError("INVALID_STATE", "the refund request was used or withdrawn meanwhile: look at the sale again") };
    throw err;
  });
  if (!result.ok) return failed(result.error);
  return { ok: true, refund: result.attempt, awaitingSecond: false };
}
