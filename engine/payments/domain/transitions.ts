/**
 * The allowed transitions of CONTRACT section 5, as data. A state is a status,
 * and for payouts past `requested` also the letter (pending:A, pending:P, ...).
 * Nothing else may ever be stored: every update goes through `canTransition`
 * (and the database's trigger holds the same table).
 */
import type { PayoutLetter, TransactionStatus, TransactionType } from "../../shared/transaction.ts";
import { ownEntry } from "../../shared/own-entry.ts";

export interface State {
  status: TransactionStatus;
  letter?: PayoutLetter | null;
}

/** An attempt's state: its status and, for a payout past requested, its letter. */
export const stateOf = (a: { status: TransactionStatus; payoutLetter: PayoutLetter | null }): State => ({ status: a.status, letter: a.payoutLetter });

export const stateKey = (s: State): string => (s.letter ? `${s.status}:${s.letter}` : s.status);

export const INITIAL_STATE: Record<TransactionType, State> = {
  sale: { status: "pending" },
  refund: { status: "pending" },
  payout: { status: "requested" },
};

export const TRANSITIONS: Record<TransactionType, Record<string, string[]>> = {
  sale: {
    pending: ["approved", "declined", "declined_retry", "pending_async", "cancelled"],
    pending_async: ["approved", "declined", "cancelled"],
  },
  payout: {
    requested: ["pending:A", "declined:J", "cancelled:C"],
    "pending:A": ["pending:P", "cancelled:C"],
    "pending:P": ["approved:Y", "declined:J"],
  },
  refund: {
    pending: ["approved", "declined"],
  },
};

/** Every state a type can be in, for tests that enumerate (state, target) pairs. */
export function statesOf(type: TransactionType): string[] {
  const all = new Set<string>([stateKey(INITIAL_STATE[type])]);
  for (const [from, tos] of Object.entries(TRANSITIONS[type])) {
    all.add(from);
    for (const t of tos) all.add(t);
  }
  return [...all];
}

export function canTransition(type: TransactionType, from: State, to: State): boolean {
  return ownEntry(TRANSITIONS[type], stateKey(from))?.includes(stateKey(to)) ?? false;
}

export function isFinal(type: TransactionType, s: State): boolean {
  return (ownEntry(TRANSITIONS[type], stateKey(s))?.length ?? 0) === 0;
}

/**
 * Whether the order may still need the full card number after an attempt
 * reaches `s`: a sale waiting for its processor or the customer, or one whose
 * attempt hands over to the next processor of the cascade; a payout until its
 * processor has answered (a manual one waits for an operator in requested).
 */
export function cardStillNeeded(type: TransactionType, s: State): boolean {
  if (type === "payout") return !isFinal(type, s);
  return type === "sale" && (s.status === "pending" || s.status === "pending_async" || s.status === "declined_retry");
}
