/**
 * Operators' blocks (docs/backoffice-operations.md, Blocks) as the Process call
 * applies them: which values of a sale or payout a block may hold (the
 * customer's pin, the card's keyed fingerprint, the e-mail, the BIN at 6 and
 * at 8 digits), which of several holding blocks refuses it, and the decline it
 * gets (error_code 9008, error_details naming the kind, never the operator's
 * reason). Pure: the one indexed lookup is the store's (ports/blocks.ts).
 */
import { ERROR_CODES } from "../../shared/errors.ts";
import type { TransactionType } from "../../shared/transaction.ts";
import { type Decision, failedState, step } from "./outcome.ts";

/** What a block matches. */
export const BLOCK_KINDS = ["customer", "card", "email", "bin"] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

/** A (kind, value) a block may hold; the value as the store keeps it. */
export interface BlockKey {
  kind: BlockKind;
  value: string;
}

/** A held block as the lookup returns it. */
export interface HeldBlock extends BlockKey {
  id: number;
}

/** A BIN as a block names it: the first 6 or 8 digits of a card number. */
export const BIN_PATTERN = /^(\d{6}|\d{8})$/;

/** An e-mail as blocks compare it: without surrounding spaces or case (an address's case is the sender's whim in practice). */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The keys of a sale or payout a block may hold, in the order a refusal names
 * them (the most specific first): the customer, the card, the e-mail, the BIN.
 * A refund holds none: the money goes back to where it came from (documented).
 */
export function blockKeys(type: TransactionType, v: { pin: string; email: string; cardNumber: string; cardFingerprint: string }): BlockKey[] {
  if (type === "refund") return [];
  const keys: BlockKey[] = [
    { kind: "customer", value: v.pin },
    { kind: "card", value: v.cardFingerprint },
  ];
  const email = normalEmail(v.email);
  if (email !== "") keys.push({ kind: "email", value: email });
  const digits = v.cardNumber.replace(/\D/g, "");
  if (digits.length >= 6) keys.push({ kind: "bin", value: digits.slice(0, 6) });
  if (digits.length >= 8) keys.push({ kind: "bin", value: digits.slice(0, 8) });
  return keys.filter((k) => k.value !== "");
}

const RANK: Readonly<Record<BlockKind, number>> = { customer: 0, card: 1, email: 2, bin: 3 };

/**
 * The block that refuses, among those the lookup found holding one of the
 * keys: the most specific kind, then the oldest block (the lowest id), so that
 * the same request is always refused by the same block while they all hold.
 * Undefined when a found row holds none of the keys (a lookup never returns one; checked anyway).
 */
export function refusingBlock(keys: readonly BlockKey[], found: readonly HeldBlock[]): HeldBlock | undefined {
  const matches = found.filter((b) => keys.some((k) => k.kind === b.kind && k.value === b.value));
  return matches.sort((a, b) => RANK[a.kind] - RANK[b.kind] || a.id - b.id)[0];
}

const WORDS: Readonly<Record<BlockKind, string>> = {
  customer: "the customer",
  card: "the card",
  email: "the e-mail",
  bin: "the card's BIN",
};

/** The history's cause of a block's refusal: `block:<id>`, which the console reads back to name the block. */
export const BLOCK_CAUSE_PREFIX = "block:";

/** The decline a block gives: declined (J for a payout), 9008, the kind in words; the block's id in the history's cause. */
export function blockedDecision(type: TransactionType, block: HeldBlock): Decision {
  return step(failedState(type), `${BLOCK_CAUSE_PREFIX}${block.id}`, {
    errorCode: ERROR_CODES.CUSTOMER_BLOCKED,
    errorDetails: `Blocked: ${WORDS[block.kind]}`,
  });
}

/** The block id a history cause names, or undefined. */
export function blockIdOfCause(cause: string): number | undefined {
  const m = /^block:([1-9]\d{0,15})$/.exec(cause);
  return m ? Number(m[1]) : undefined;
}
