/**
 * Dual control of payout rights (docs/backoffice-operations.md, Dual control):
 * an admin who creates an operator or resets one sees its enrolment link, and
 * could hold the account. So that no one person can hold two accounts that
 * decide payouts (and give both approvals of a four-eyes payout), a change
 * that gives payout rights (the payouts or admin role, or more merchants with
 * one) or resets an account holding them is only proposed by the first admin
 * and applied when a second confirms it by making the same change. These are
 * the rules of who may confirm what; operator-admin.ts applies them.
 */
import { ConsoleRefusal } from "../domain/console-rules.ts";
import { CONSOLE_RULES } from "../domain/console-rules.ts";
import type { Role } from "../domain/operator-roles.ts";
import type { OperatorRecord, PendingChange } from "../ports/operators.ts";
import type { BackofficeDeps } from "../ports/ports.ts";
import type { Tx } from "../ports/transactions.ts";
import { issuersOf } from "./console-payouts.ts";

const RANK: Record<Role, number> = { viewer: 0, support: 1, payouts: 2, admin: 3 };

/** Roles that decide payouts. */
export const holdsPayoutRights = (role: Role): boolean => RANK[role] >= RANK.payouts;

/** Whether a scope (empty: every merchant) lies inside another. */
const within = (inner: readonly string[], outer: readonly string[]) => outer.length === 0 || (inner.length > 0 && inner.every((m) => outer.includes(m)));

/**
 * Whether giving `role` over `merchantIds` to an operator that holds `before` (none: a new operator) gives payout
 * rights it did not have: a role that decides payouts, above the one held or over merchants not held.
 */
export function grantsPayoutRights(role: Role, merchantIds: readonly string[], before?: { role: Role; merchantIds: readonly string[] }): boolean {
  if (!holdsPayoutRights(role)) return false;
  if (!before || !holdsPayoutRights(before.role)) return true;
  return RANK[role] > RANK[before.role] || !within(merchantIds, before.merchantIds);
}

/** A proposal still open: a creation waits until it is confirmed or withdrawn (disabled), a change 72 hours. */
export function stillOpen(p: PendingChange, now: Date): boolean {
  return p.kind === "create" || now.getTime() - p.proposedAt.getTime() < CONSOLE_RULES.enrolmentMs;
}

/** Whether a request makes the very change that is pending (the same kind, role and scope). */
export function sameChange(p: PendingChange, kind: PendingChange["kind"], role: Role, merchantIds: readonly string[]): boolean {
  const a = [...p.merchantIds].sort();
  const b = [...merchantIds].sort();
  return p.kind === kind && p.role === role && a.length === b.length && a.every((m, i) => m === b[i]);
}

/**
 * Refuses `confirmer` as the second admin of `target`'s pending change, naming why: the one who proposed it, the
 * operator it concerns, the one who created or last reset that operator (who saw its link), or an account set up
 * by the proposer or that set the proposer's up (directly, or through admin accounts they set up).
 */
export async function checkConfirmer(deps: BackofficeDeps, confirmer: string, target: OperatorRecord, p: PendingChange, tx: Tx): Promise<void> {
  const refuse = (why: string) => {
    throw new ConsoleRefusal("DUAL_CONTROL_SAME_ADMIN", { message: `${why}: another admin confirms it (dual control)` });
  };
  if (confirmer === p.proposedBy) refuse(`${confirmer} proposed this change of ${target.login}`);
  if (confirmer === target.login) refuse(`this change gives ${target.login} payout rights`);
  if (confirmer === target.accessIssuedBy) refuse(`${confirmer} set up the access of ${target.login}`);
  if ((await issuersOf(deps, confirmer, tx)).includes(p.proposedBy)) refuse(`${p.proposedBy} set up the access of ${confirmer}`);
  if ((await issuersOf(deps, p.proposedBy, tx)).includes(confirmer)) refuse(`${confirmer} set up the access of ${p.proposedBy}`);
}

/** The audit row's words for a confirmation: whose proposal, of when. */
export const confirmsDetail = (p: PendingChange) => `confirms the change proposed by ${p.proposedBy} at ${p.proposedAt.toISOString()} (dual control)`;

/** The audit row's words for a proposal. */
export const PROPOSED_DETAIL = "proposed: applied once a second admin makes the same change (dual control)";
