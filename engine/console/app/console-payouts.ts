/**
 * Payout decisions from the Backoffice: a listed reason plus free text,
 * four-eyes approval above the merchant's amount for the payout's currency
 * (the first approval is recorded and the payout stays requested; the second
 * must come from another operator, and not from one whose access the first
 * approver set up, nor from one who set up the first approver's: an admin who
 * creates or resets an operator sees its enrolment link, and could hold both
 * accounts), bulk approval one payout at a time, and
 * UpdatePayout's UpdatedBy backoffice:<login>. A held payout takes no approval (read again inside the approval's
 * transaction). Every decision is audited with
 * the payout's state before and after, in the decision's own database
 * transaction (an approval's "after" is the approved payout, A, before the
 * processor answers); a refused one is audited as a failure.
 */
import { canonicalJson } from "../domain/audit-chain.ts";
import { CONSOLE_MESSAGES, ConsoleRefusal } from "../domain/console-rules.ts";
import { describeViolations, domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { allows, inScope } from "../domain/operator-roles.ts";
import { maskCardNumbers } from "../../shared/card.ts";
import { APPROVAL_REASONS, NOTE_MAX, type PayoutReason, reasonMisfit } from "../../shared/payout-reasons.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { PayoutHold } from "../ports/money-actions.ts";
import type { Tx } from "../ports/transactions.ts";
import type { SignedIn } from "./console-session.ts";
import { decidePayout, type PayoutDecision } from "../../payments/index.ts";
import type { ProcessDeps } from "../../payments/index.ts";

export type ConsoleDecision = { ok: true; attempt: Attempt; awaitingSecond: boolean } | { ok: false; error: DomainError };

type Deps = ProcessDeps & BackofficeDeps;

/** A payout's face in the audit log's before/after values. */
export const payoutFace = (a: Attempt) => ({ status: a.status, payout_letter: a.payoutLetter ?? "", amount_minor: a.amountMinor, currency: a.currency });

export function reasonFaults(reason: PayoutReason | undefined, note: string, decision: PayoutDecision): FieldViolation[] {
  const faults: FieldViolation[] = [];
  if (!reason) faults.push({ field: "reason", description: "is required: one of the listed reasons" });
  // An audit row reading "approved, suspected fraud" could be a slip or a choice: the reason must fit the decision.
  else {
    const misfit = reasonMisfit(decision === "approve", reason);
    if (misfit === "not-an-approval-reason") faults.push({ field: "reason", description: `an approval takes ${APPROVAL_REASONS.join(" or ")}` });
    if (misfit === "an-approval-reason") faults.push({ field: "reason", description: "checks_passed is a reason to approve" });
  }
  if (CONTROL_CHARACTERS.test(note)) faults.push({ field: "note", description: "must not contain control characters" });
  else if ([...note].length > NOTE_MAX) faults.push({ field: "note", description: `must be at most ${NOTE_MAX} characters` });
  if (reason === "other" && note.trim() === "") faults.push({ field: "note", description: "is required with the reason other" });
  return faults;
}

/** The refusal of an approval while the payout is held. */
const heldError = (h: PayoutHold): DomainError =>
  domainError("INVALID_STATE", `the payout is held by ${h.login} (${h.reason}): release it before approving it`);

/** The payout, if it exists and its merchant is in the operator's scope (otherwise it does not exist for them). */
export async function scopedPayout(deps: Deps, who: SignedIn, traceId: number): Promise<Attempt | undefined> {
  const a = await deps.orders.get(traceId);
  return a?.type === "payout" && inScope(who.scope, a.merchantId) ? a : undefined;
}

/** Hops followed up a chain of who set up whose access: more than any console's hierarchy of admins. */
const ISSUER_HOPS = 16;

/**
 * The console operators who set up `login`'s access, nearest first: the one who created it or last reset it, then
 * who did so for that one, and on. It stops at an issuer that is not a console login (`cli:<user>`,
 * `operator:<name>`: the command line and AdminService, trusted as a database superuser is).
 */
export async function issuersOf(deps: Pick<Deps, "operators">, login: string, tx?: Tx): Promise<string[]> {
  const chain: string[] = [];
  for (let at = login; chain.length < ISSUER_HOPS; ) {
    const by = (await deps.operators.get(at, tx))?.accessIssuedBy ?? "";
    if (by === "" || by.includes(":") || by === login || chain.includes(by)) break;
    chain.push(by);
    at = by;
  }
  return chain;
}

/**
 * Whether two operators' approvals could be one person's: the same login, or one of them set up the other's
 * current access, directly or through accounts it set up (creating or resetting an account shows its enrolment
 * link, and whoever holds an admin account holds what it set up). The refusal to give, or none.
 */
export async function sameHands(deps: Pick<Deps, "operators">, first: string, second: string, tx?: Tx): Promise<ConsoleRefusal | undefined> {
  if (first === second) return new ConsoleRefusal("FOUR_EYES_SAME_OPERATOR");
  for (const [holder, other] of [
    [first, second],
    [second, first],
  ]) {
    const chain = await issuersOf(deps, holder, tx);
    const at = chain.indexOf(other);
    if (at >= 0) {
      const through = chain.slice(0, at);
      return new ConsoleRefusal("FOUR_EYES_ISSUED_ACCESS", {
        message: `${other} set up the access of ${holder}${through.length ? ` (through ${through.join(", ")})` : ""}: ${CONSOLE_MESSAGES.FOUR_EYES_ISSUED_ACCESS}`,
      });
    }
  }
  return undefined;
}

/** Whether `second` may not give the second approval after `first` because one set up the other's access. */
export async function issuedAccessBetween(deps: Deps, first: string, second: string): Promise<boolean> {
  return first !== second && (await sameHands(deps, first, second))?.reason === "FOUR_EYES_ISSUED_ACCESS";
}

/**
 * Whether `login` may still give a first approval of this merchant's payouts: active (not disabled, not reset to a
 * new enrolment), a role that decides payouts, the merchant in scope. A first approval counts only while its
 * operator could still give it: four eyes means two people who may decide now.
 */
export async function stillDecides(deps: Pick<Deps, "operators">, login: string, merchantId: string, tx?: Tx): Promise<boolean> {
  // Locked inside the decision's transaction: a disable committing at the same moment waits, or is seen.
  const op = await deps.operators.get(login, tx, tx !== undefined);
  return op?.state === "active" && allows(op.role, "payout.decide") && inScope({ login, role: op.role, merchantIds: op.merchantIds }, merchantId);
}

/** Whether an approval of `a` needs two operators. */
export async function needsFourEyes(deps: Deps, a: Attempt): Promise<boolean> {
  const t = (await deps.backoffice.thresholds(a.merchantId)).find((x) => x.currency === a.currency);
  return t !== undefined && a.amountMinor > t.amountMinor;
}

export async function decideConsolePayout(
  deps: Deps,
  who: SignedIn,
  traceId: number,
  decision: PayoutDecision,
  reason: PayoutReason | undefined,
  note: string,
): Promise<ConsoleDecision> {
  const login = who.scope.login;
  // The note is kept (the first approval, the audit log) and its text becomes the payout's details: no card number.
  note = maskCardNumbers(note);
  // Refused before the payout is read: audited too, with no merchant (one outside the scope is not named).
  const unread = async (error: DomainError): Promise<ConsoleDecision> => {
    await deps.audit.append({
      actor: login,
      action: `payout.${decision}`,
      outcome: "failure",
      target: `trace_id:${traceId}`,
      clientAddress: who.caller.clientAddress,
      detail: error.message,
    });
    return { ok: false, error };
  };
  const faults = reasonFaults(reason, note, decision);
  if (faults.length > 0) return unread(domainError("INVALID_FIELDS", describeViolations(faults), faults));
  const before = await scopedPayout(deps, who, traceId);
  if (!before) return unread(domainError("NOT_FOUND", `no payout with trace_id ${traceId}`));
  const record = (outcome: "success" | "failure", after: object, detail = "", action = `payout.${decision}`) => ({
    actor: login,
    action,
    outcome,
    merchantId: before.merchantId,
    target: `trace_id:${traceId}`,
    clientAddress: who.caller.clientAddress,
    beforeJson: canonicalJson(payoutFace(before)),
    afterJson: canonicalJson({ ...after, reason, note }),
    detail,
  });
  const refuseSecond = async (refusal: ConsoleRefusal) => {
    await deps.audit.append(record("failure", payoutFace(before), refusal.message));
    return refusal;
  };
  // A held payout takes no approval (money-actions: hold and release); a rejection or cancellation still ends it.
  const held = decision === "approve" ? (await deps.backoffice.holds([traceId])).get(traceId) : undefined;
  if (held) {
    const error = heldError(held);
    await deps.audit.append(record("failure", payoutFace(before), error.message));
    return { ok: false, error };
  }
  const fourEyes = decision === "approve" && before.status === "requested" && (await needsFourEyes(deps, before));
  if (fourEyes) {
    let first = (await deps.backoffice.firstApprovals([traceId])).get(traceId);
    if (first && !(await stillDecides(deps, first.login, before.merchantId))) {
      const gone = first.login;
      await deps.operators.transaction(async (tx) => {
        if (await deps.backoffice.forgetFirstApproval(traceId, gone, tx))
          await deps.audit.append(
            record("success", { ...payoutFace(before), voided_first_approval: gone }, `${gone} may no longer decide this payout`, "payout.approve.first.void"),
            tx,
          );
      });
      first = undefined;
    }
    if (!first) {
      const recorded = await deps.operators.transaction(async (tx) => {
        const made = await deps.backoffice.recordFirstApproval({ traceId, login, reason: reason as string, note, at: deps.now() }, tx);
        if (made)
          await deps.audit.append(record("success", { ...payoutFace(before), first_approval: login }, "first of two approvals", "payout.approve.first"), tx);
        return made;
      });
      if (recorded) return { ok: true, attempt: before, awaitingSecond: true };
      // Another request recorded a first approval meanwhile (a double click, or a colleague): whose it is decides.
      first = (await deps.backoffice.firstApprovals([traceId])).get(traceId);
    }
    const refusal = first && (await sameHands(deps, first.login, login));
    if (refusal) throw await refuseSecond(refusal);
  }
  const text = `${reason}${note.trim() ? `: ${note.trim()}` : ""}`;
  // The audit row is written in the decision's own transaction (the step to A, J or C): both commit or neither.
  // Above the threshold that transaction also reads the first approval again: the approval commits only with
  // another operator's first one beside it, whatever raced before.
  let decided = false;
  let refusedInside: ConsoleRefusal | undefined;
  let heldInside: DomainError | undefined;
  const result = await decidePayout(deps, traceId, decision, login, decision === "approve" ? "" : text, "backoffice", async (tx, after) => {
    // Read again in the approval's own transaction: a hold committed meanwhile (it locks the payout row) is seen here.
    const holdNow = decision === "approve" ? (await deps.backoffice.holds([traceId], tx)).get(traceId) : undefined;
    if (holdNow) {
      heldInside = heldError(holdNow);
      throw heldInside;
    }
    if (fourEyes) {
      const first = (await deps.backoffice.firstApprovals([traceId], tx)).get(traceId);
      // The first approver disabled meanwhile counts as no first approval: the next try records this one as first.
      refusedInside =
        first && (await stillDecides(deps, first.login, before.merchantId, tx))
          ? await sameHands(deps, first.login, login, tx)
          : new ConsoleRefusal("FOUR_EYES_SAME_OPERATOR");
      if (refusedInside) throw refusedInside;
    }
    await deps.audit.append(record("success", payoutFace(after)), tx);
    decided = true;
  }).catch(async (err: unknown) => {
    if (refusedInside) throw await refuseSecond(refusedInside);
    if (heldInside) return { ok: false as const, error: heldInside };
    throw err;
  });
  if (!result.ok) {
    // Refused or lost to another change before the decision was written: audited as a failure on its own.
    if (!decided) await deps.audit.append(record("failure", payoutFace(before), result.error.message));
    return result;
  }
  return { ok: true, attempt: result.attempt, awaitingSecond: false };
}
