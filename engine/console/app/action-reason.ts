/**
 * The reason every Backoffice money action takes (refund, cancel of a sale, hold and release of a payout): the
 * operator's own words, required, bounded, printable, and never a card number. It goes into the audit log and, for a
 * cancel, into the sale's error details that the platform is sent; a number there would be card data kept where
 * CONTRACT section 8 allows none, so it is refused (naming the field), not masked and kept.
 */
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import { cardNumberIn } from "../../shared/card-number-in-text.ts";
import type { FieldViolation } from "../../shared/errors.ts";

/** The longest reason: what a status change's details hold. */
export const ACTION_REASON_MAX = 255;

/** The reason's faults, named `reason`; none when it may be kept. */
export function actionReasonFaults(reason: string): FieldViolation[] {
  const text = reason.trim();
  if (text === "") return [{ field: "reason", description: "is required: say why" }];
  if (CONTROL_CHARACTERS.test(reason)) return [{ field: "reason", description: "must not contain control characters" }];
  if ([...text].length > ACTION_REASON_MAX) return [{ field: "reason", description: `must be at most ${ACTION_REASON_MAX} characters` }];
  if (cardNumberIn(text)) return [{ field: "reason", description: "must not hold a card number (name the card by its last four digits)" }];
  return [];
}
