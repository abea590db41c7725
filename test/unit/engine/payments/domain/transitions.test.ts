/**
 * The state machine of CONTRACT section 5, checked pair by pair. The expected
 * table below is written from the contract's text, not imported from
 * transitions.ts, so a change to either shows up here.
 *
 *   sale   | pending -> approved, declined, declined_retry, pending_async, cancelled;
 *          | pending_async -> approved, declined, cancelled
 *   payout | requested -> pending (A), declined (J), cancelled (C); pending (A) -> pending (P),
 *          | cancelled (C); pending (P) -> approved (Y), declined (J)
 *   refund | pending -> approved, declined
 */
import t from "tap";
import { canTransition, INITIAL_STATE, isFinal, stateKey, statesOf, type State } from "../../../../../engine/payments/domain/transitions.ts";
import type { PayoutLetter, TransactionStatus, TransactionType } from "../../../../../engine/shared/transaction.ts";

const CONTRACT: Record<TransactionType, [from: string, to: string[]][]> = {
  sale: [
    ["pending", ["approved", "declined", "declined_retry", "pending_async", "cancelled"]],
    ["pending_async", ["approved", "declined", "cancelled"]],
  ],
  payout: [
    ["requested", ["pending:A", "declined:J", "cancelled:C"]],
    ["pending:A", ["pending:P", "cancelled:C"]],
    ["pending:P", ["approved:Y", "declined:J"]],
  ],
  refund: [["pending", ["approved", "declined"]]],
};

const EXPECTED_STATES: Record<TransactionType, string[]> = {
  sale: ["pending", "approved", "declined", "declined_retry", "pending_async", "cancelled"],
  payout: ["requested", "pending:A", "pending:P", "approved:Y", "declined:J", "cancelled:C"],
  refund: ["pending", "approved", "declined"],
};

const EXPECTED_FINAL: Record<TransactionType, string[]> = {
  sale: ["approved", "declined", "declined_retry", "cancelled"],
  payout: ["approved:Y", "declined:J", "cancelled:C"],
  refund: ["approved", "declined"],
};

const TYPES: TransactionType[] = ["sale", "payout", "refund"];
const STATUSES: TransactionStatus[] = ["pending", "approved", "declined_retry", "declined", "cancelled", "pending_async", "requested"];
const LETTERS: (PayoutLetter | null)[] = [null, "A", "P", "Y", "J", "C"];

function parse(key: string): State {
  const [status, letter] = key.split(":");
  return letter ? { status: status as TransactionStatus, letter: letter as PayoutLetter } : { status: status as TransactionStatus };
}

const allowed = (type: TransactionType, from: string, to: string) => CONTRACT[type].some(([f, tos]) => f === from && tos.includes(to));

t.test("statesOf names exactly the contract's states", async (t) => {
  for (const type of TYPES) t.same(new Set(statesOf(type)), new Set(EXPECTED_STATES[type]), type);
});

t.test("initial states: sale and refund pending, payout requested", async (t) => {
  t.equal(stateKey(INITIAL_STATE.sale), "pending");
  t.equal(stateKey(INITIAL_STATE.refund), "pending");
  t.equal(stateKey(INITIAL_STATE.payout), "requested");
});

t.test("canTransition equals the contract table for every (type, from, to) over statesOf", async (t) => {
  for (const type of TYPES) {
    const states = statesOf(type);
    let allowedCount = 0;
    for (const from of states) {
      for (const to of states) {
        const want = allowed(type, from, to);
        if (want) allowedCount++;
        t.equal(canTransition(type, parse(from), parse(to)), want, `${type}: ${from} -> ${to} ${want ? "allowed" : "refused"}`);
      }
    }
    const contractCount = CONTRACT[type].reduce((n, [, tos]) => n + tos.length, 0);
    t.equal(allowedCount, contractCount, `${type}: all ${contractCount} contract transitions are among statesOf's pairs`);
  }
});

t.test("nothing outside the table is allowed, over every status and letter combination", async (t) => {
  const universe: State[] = [];
  for (const status of STATUSES) for (const letter of LETTERS) universe.push(letter ? { status, letter } : { status });
  const wrong: string[] = [];
  for (const type of TYPES) {
    for (const from of universe) {
      for (const to of universe) {
        const got = canTransition(type, from, to);
        const want = allowed(type, stateKey(from), stateKey(to));
        if (got !== want) wrong.push(`${type}: ${stateKey(from)} -> ${stateKey(to)} got ${got}`);
      }
    }
  }
  t.same(wrong, [], `${universe.length ** 2 * TYPES.length} pairs checked`);
});

t.test("letter-less payout states and lettered sale states are not states", async (t) => {
  t.equal(canTransition("payout", { status: "pending" }, { status: "pending", letter: "P" }), false, "payout pending without letter");
  t.equal(canTransition("payout", { status: "requested" }, { status: "approved" }), false, "payout approved without Y");
  t.equal(canTransition("payout", { status: "requested" }, { status: "declined" }), false, "payout declined without J");
  t.equal(canTransition("sale", { status: "pending", letter: "A" }, { status: "approved" }), false, "sale with a letter");
  t.equal(canTransition("sale", { status: "pending" }, { status: "approved", letter: "Y" }), false, "sale to a lettered state");
  t.equal(canTransition("payout", { status: "requested", letter: null }, { status: "pending", letter: "A" }), true, "letter null equals no letter");
  t.equal(canTransition("refund", { status: "pending" }, { status: "cancelled" }), false, "a refund is never cancelled");
  t.equal(canTransition("refund", { status: "pending" }, { status: "pending_async" }), false, "a refund has no 3-D Secure");
  t.equal(canTransition("sale", { status: "declined_retry" }, { status: "pending" }), false, "a cascade is a new attempt, not a transition");
});

t.test("isFinal: exactly the states with no way out", async (t) => {
  for (const type of TYPES) {
    for (const s of EXPECTED_STATES[type]) {
      t.equal(isFinal(type, parse(s)), EXPECTED_FINAL[type].includes(s), `${type} ${s} ${EXPECTED_FINAL[type].includes(s) ? "final" : "not final"}`);
    }
  }
});
