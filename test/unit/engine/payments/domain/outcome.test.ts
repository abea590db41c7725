/**
 * decide(): (transaction type, processor outcome, last in cascade) -> the state
 * the attempt moves to, its deposit state (N declined, E processor error), the
 * Process `error_code`, or "stays" for pending and unknown answers (a timeout is
 * never taken as a decline). Every move it asks for must be a transition the
 * contract allows from where the attempt is when the processor answers.
 */
import t from "tap";
import { decide, declineCode, type ProcessorOutcome } from "../../../../../engine/payments/domain/outcome.ts";
import { canTransition, stateKey, type State } from "../../../../../engine/payments/domain/transitions.ts";
import type { TransactionType } from "../../../../../engine/shared/transaction.ts";

const TX = "proc-tx-1";
const OUTCOMES: Record<ProcessorOutcome["kind"] | "notSent", ProcessorOutcome> = {
  approved: { kind: "approved", transactionId: TX },
  declined: { kind: "declined", transactionId: TX, code: "05", message: "Do not honour" },
  retryable: { kind: "retryable", transactionId: TX, code: "91", message: "Issuer unavailable" },
  unavailable: { kind: "unavailable", message: "Processor unavailable" },
  // A connection refused: nothing was sent (the same kind, keyed apart in the table below).
  notSent: { kind: "unavailable", message: "no connection (ECONNREFUSED)", notSent: true },
  pending: { kind: "pending", transactionId: TX },
  challenge: { kind: "challenge", transactionId: TX },
  unknown: { kind: "unknown", transactionId: TX, message: "timeout" },
};

interface Expect {
  /** Target state key; null: the attempt stays where it is. */
  to: string | null;
  deposit: "N" | "E" | null;
  code: number | null;
  txId: string | null;
}

// [type, kind, lastInCascade, expected]
const STAY = (txId: string | null = TX): Expect => ({ to: null, deposit: null, code: null, txId });
const TABLE: [TransactionType, keyof typeof OUTCOMES, boolean, Expect][] = [];
for (const last of [false, true]) {
  TABLE.push(
    ["sale", "approved", last, { to: "approved", deposit: null, code: null, txId: TX }],
    ["sale", "declined", last, { to: "declined", deposit: "N", code: 5, txId: TX }],
    ["sale", "retryable", last, last ? { to: "declined", deposit: "N", code: 91, txId: TX } : { to: "declined_retry", deposit: null, code: 91, txId: TX }],
    ["sale", "unavailable", last, { to: "declined", deposit: "E", code: 9001, txId: null }],
    // Surely not sent: the cascade goes on; the last account's ends the sale as the processor's own refusal does.
    [
      "sale",
      "notSent",
      last,
      last ? { to: "declined", deposit: "E", code: 9001, txId: null } : { to: "declined_retry", deposit: null, code: 9001, txId: null },
    ],
    ["sale", "challenge", last, { to: "pending_async", deposit: null, code: null, txId: TX }],
    ["sale", "pending", last, STAY()],
    ["sale", "unknown", last, STAY()],

    ["payout", "approved", last, { to: "approved:Y", deposit: null, code: null, txId: TX }],
    ["payout", "pending", last, STAY()],
    ["payout", "challenge", last, STAY()],
    ["payout", "unknown", last, STAY()],

    ["refund", "approved", last, { to: "approved", deposit: null, code: null, txId: TX }],
    ["refund", "pending", last, STAY()],
    ["refund", "challenge", last, STAY()],
    ["refund", "unknown", last, STAY()],
  );
}

/** Where the attempt is when its processor answers. */
const ANSWERED_FROM: Record<TransactionType, State> = {
  sale: { status: "pending" },
  refund: { status: "pending" },
  payout: { status: "pending", letter: "P" },
};

t.test("the decision table", async (t) => {
  for (const [type, kind, last, want] of TABLE) {
    const name = `${type} ${kind}${last ? " (last in cascade)" : ""}`;
    const d = decide(type, OUTCOMES[kind], last);
    t.equal(d.to ? stateKey(d.to) : null, want.to, `${name}: ${want.to ?? "stays"}`);
    t.equal(d.depositState, want.deposit, `${name}: deposit state ${want.deposit}`);
    t.equal(d.errorCode, want.code, `${name}: error_code ${want.code}`);
    t.equal(d.transactionId, want.txId, `${name}: transaction_id ${want.txId}`);
    if (want.code === null) t.equal(d.errorDetails, null, `${name}: no error_details`);
    else t.ok(d.errorDetails, `${name}: error_details set`);
    if (d.to) t.ok(canTransition(type, ANSWERED_FROM[type], d.to), `${name}: ${stateKey(ANSWERED_FROM[type])} -> ${stateKey(d.to)} is allowed`);
    t.match(d.cause, OUTCOMES[kind].kind, `${name}: cause names the outcome`);
  }
});

t.test("payout and refund failures are declined, with no cascade", async (t) => {
  for (const type of ["payout", "refund"] as const) {
    const failed = type === "payout" ? "declined:J" : "declined";
    for (const last of [false, true]) {
      for (const kind of ["declined", "retryable", "unavailable", "notSent"] as const) {
        const d = decide(type, OUTCOMES[kind], last);
        const name = `${type} ${kind}${last ? " (last)" : ""}`;
        t.equal(d.to && stateKey(d.to), failed, `${name}: ${failed}`);
        t.equal(d.errorCode, kind === "declined" ? 5 : kind === "retryable" ? 91 : 9001, `${name}: error_code`);
        t.ok(canTransition(type, ANSWERED_FROM[type], d.to!), `${name}: allowed transition`);
      }
    }
  }
});

t.test("deposit states N and E belong to deposits (sales) only", async (t) => {
  for (const type of ["payout", "refund"] as const) {
    for (const kind of ["declined", "retryable", "unavailable"] as const) {
      t.equal(decide(type, OUTCOMES[kind], true).depositState, null, `${type} ${kind}: no deposit state`);
    }
  }
});

t.test("a timeout or pending answer is never a decline, wherever it is in the cascade", async (t) => {
  for (const type of ["sale", "payout", "refund"] as const) {
    for (const kind of ["pending", "unknown"] as const) {
      for (const last of [false, true]) {
        const d = decide(type, OUTCOMES[kind], last);
        t.equal(d.to, undefined, `${type} ${kind} last=${last}: stays`);
        t.equal(d.depositState, null);
        t.equal(d.errorCode, null);
      }
    }
  }
});

t.test("error_code: the processor's numeric code, 9006 when it is not numeric, 9001 when unavailable", async (t) => {
  const rows: [code: string, want: number][] = [
    ["05", 5],
    ["51", 51],
    ["5", 5],
    ["00", 0],
    ["91", 91],
    ["R1", 9006],
    ["N7", 9006],
    ["", 9006],
    ["051", 9006],
    [" 5", 9006],
  ];
  for (const [code, want] of rows) {
    t.equal(declineCode(code), want, `declineCode(${JSON.stringify(code)})`);
    const d = decide("sale", { kind: "declined", transactionId: TX, code, message: "Declined" }, true);
    t.equal(d.errorCode, want, `sale declined with code ${JSON.stringify(code)}: error_code ${want}`);
    t.match(d.errorDetails ?? "", "Declined", "error_details carries the processor's message");
    if (want === 9006) t.ok((d.errorDetails ?? "").includes(code), "a non-numeric code is kept in error_details");
  }
  const u = decide("sale", OUTCOMES.unavailable, false);
  t.equal(u.errorCode, 9001);
  t.equal(u.errorDetails, "Processor unavailable");
});

t.test("the declined sale's error_details names the code and the reason", async (t) => {
  const d = decide("sale", { kind: "declined", transactionId: TX, code: "51", message: "Insufficient funds" }, false);
  t.match(d.errorDetails, /51/);
  t.match(d.errorDetails, /Insufficient funds/);
});
