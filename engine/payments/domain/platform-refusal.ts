/**
 * A transaction the platform refused at Validation keeps the platform's
 * description as its error_details (9002), which the platform reads back in
 * replies and callbacks. When the platform gave none, the engine writes its
 * own words there; those are the engine's, not the platform's, and are never
 * shown to the customer as the platform's. Kept in one place so that the text
 * written and the text recognised cannot drift apart.
 */
import { ERROR_CODES } from "../../shared/errors.ts";
import { platformWords } from "../../shared/platform-words.ts";
import type { Attempt } from "../../shared/transaction.ts";

/** error_details of a refusal whose reply had no description. */
export function refusedWithoutWords(status: number): string {
  return `Rejected by the platform (status ${status})`;
}

const WITHOUT_WORDS = /^Rejected by the platform \(status -?\d+\)$/;

/** The platform's words to the customer about this attempt (bounded, plain, no card number), or "" when it has none. */
export function platformMessageOf(a: Pick<Attempt, "errorCode" | "errorDetails">): string {
  if (a.errorCode !== ERROR_CODES.VALIDATION_REJECTED || !a.errorDetails || WITHOUT_WORDS.test(a.errorDetails)) return "";
  return platformWords(a.errorDetails);
}
