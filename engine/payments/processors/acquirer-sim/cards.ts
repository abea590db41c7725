/**
 * The simulator's test cards (CONTRACT section 4) as a table: card number ->
 * behaviour. Any Luhn-valid number not listed is approved.
 */
export type SimBehaviour =
  | { kind: "approve" }
  | { kind: "decline"; code: string; message: string }
  | { kind: "unavailable" }
  | { kind: "challenge" }
  | { kind: "pending" }
  /** Retryable on every processor but the named one, which approves. */
  | { kind: "retry-unless"; approvedBy: string }
  /** Retryable on every processor: the cascade's last attempt ends declined. */
  | { kind: "retry-always" };

export const SIM_CARDS: Record<string, SimBehaviour> = {
  "4111111111111111": { kind: "approve" },
  "5555555555554444": { kind: "approve" },
  "4000000000000002": { kind: "decline", code: "05", message: "Do not honour" },
  "4000000000009995": { kind: "decline", code: "51", message: "Insufficient funds" },
  "4000000000000119": { kind: "unavailable" },
  "4000000000003220": { kind: "challenge" },
  "4000000000000077": { kind: "pending" },
  "4000000000000259": { kind: "retry-unless", approvedBy: "sim-b" },
  "4000000000000341": { kind: "retry-always" },
};

/** The code and text a retryable decline carries. */
export const RETRY_CODE = { code: "91", message: "Issuer unavailable, try another route" };

/** Seconds after which a pending attempt's final answer (approved) is available. */
export const PENDING_SECONDS = 3;

export function behaviourOf(cardNumber: string): SimBehaviour {
  return SIM_CARDS[cardNumber] ?? { kind: "approve" };
}
