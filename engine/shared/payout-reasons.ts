/**
 * The Backoffice's payout decisions as data, for the engine that judges them
 * and the console that offers them: the listed reasons, the longest note, and
 * how many payouts one bulk approval may name.
 */
import { MAX_DESCRIPTION } from "./canonical.ts";

export const PAYOUT_REASONS = [
  "checks_passed",
  "customer_request",
  "kyc_incomplete",
  "suspected_fraud",
  "duplicate",
  "wrong_details",
  "abuse",
  "other",
] as const;
export type PayoutReason = (typeof PAYOUT_REASONS)[number];

/** The reasons an approval may give; every other reason says why a payout is refused, and a refusal may not say checks_passed. */
export const APPROVAL_REASONS: readonly PayoutReason[] = ["checks_passed", "other"];

/** Why a reason does not fit its decision: an approval's reason given to a refusal, or the other way round. */
export function reasonMisfit(approve: boolean, reason: PayoutReason): "not-an-approval-reason" | "an-approval-reason" | undefined {
  if (approve) return APPROVAL_REASONS.includes(reason) ? undefined : "not-an-approval-reason";
  return reason === "checks_passed" ? "an-approval-reason" : undefined;
}

/**
 * A rejection's or cancellation's reason and note travel as one text, `reason: note`, into the status history and
 * UpdatePayout, which hold at most 256 characters: the note may take what the longest reason leaves (238).
 */
export const NOTE_MAX = MAX_DESCRIPTION - 2 - Math.max(...PAYOUT_REASONS.map((r) => r.length));

/** The most payouts one bulk approval names; more are refused whole, never cut to the first ones. */
export const BULK_APPROVE_MAX = 100;
