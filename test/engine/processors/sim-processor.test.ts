/**
 * The built-in simulator of CONTRACT section 4, card by card on sim-a and sim-b,
 * and, through the pure decision table, the transaction status a platform sees
 * for each card. Time is an injected clock, so pending answers are exact.
 */
import t from "tap";
import { SimProcessor } from "../../../engine/processors/simulator/sim-processor.ts";
import { decide, type ProcessorOutcome } from "../../../engine/domain/outcome.ts";
import { stateKey } from "../../../engine/domain/transitions.ts";
import type { ChargeRequest } from "../../../engine/processors/processor.ts";

const T0 = Date.UTC(2026, 5, 15, 12, 0, 0); // on a whole second

function clock(start = T0) {
  let now = start;
  return { now: () => now, set: (ms: number) => void (now = ms) };
}

const charge = (number: string, over: Partial<ChargeRequest> = {}): ChargeRequest => ({
  traceId: 1,
  amountMinor: 1050,
  currency: "USD",
  card: { number, cvv: "123", expiry: "12/2030" },
  ...over,
});

type Kind = ProcessorOutcome["kind"];
interface CardRow {
  card: string;
  what: string;
  simA: Kind;
  simB: Kind;
  code?: string;
  /** What the platform sees: on sim-a as the first of two, on sim-b as the last. */
  statusA: string;
  statusB: string;
  deposit?: "N" | "E";
}

const CARDS: CardRow[] = [
  { card: "4111111111111111", what: "approved (visa)", simA: "approved", simB: "approved", statusA: "approved", statusB: "approved" },
  { card: "5555555555554444", what: "approved (mastercard)", simA: "approved", simB: "approved", statusA: "approved", statusB: "approved" },
  { card: "4000000000000002", what: "declined 05", simA: "declined", simB: "declined", code: "05", statusA: "declined", statusB: "declined", deposit: "N" },
  { card: "4000000000009995", what: "declined 51", simA: "declined", simB: "declined", code: "51", statusA: "declined", statusB: "declined", deposit: "N" },
  { card: "4000000000000119", what: "processor unavailable", simA: "unavailable", simB: "unavailable", statusA: "declined", statusB: "declined", deposit: "E" },
  { card: "4000000000003220", what: "3-D Secure", simA: "challenge", simB: "challenge", statusA: "pending_async", statusB: "pending_async" },
  { card: "4000000000000077", what: "pending", simA: "pending", simB: "pending", statusA: "pending", statusB: "pending" },
  { card: "4000000000000259", what: "retry on sim-a, approved on sim-b", simA: "retryable", simB: "approved", statusA: "declined_retry", statusB: "approved" },
  { card: "4000000000000341", what: "declined everywhere", simA: "retryable", simB: "retryable", statusA: "declined_retry", statusB: "declined", deposit: "N" },
  { card: "4242424242424242", what: "unlisted Luhn-valid number", simA: "approved", simB: "approved", statusA: "approved", statusB: "approved" },
  { card: "378282246310005", what: "unlisted amex", simA: "approved", simB: "approved", statusA: "approved", statusB: "approved" },
];

t.test("authorize: every CONTRACT section 4 card on sim-a and sim-b", async (t) => {
  const a = new SimProcessor("sim-a", clock().now);
  const b = new SimProcessor("sim-b", clock().now);
  for (const row of CARDS) {
    for (const [proc, kind, status, last] of [
      [a, row.simA, row.statusA, false],
      [b, row.simB, row.statusB, true],
    ] as const) {
      const name = `${row.card} (${row.what}) on ${proc.name}`;
      const out = await proc.authorize(charge(row.card));
      t.equal(out.kind, kind, `${name}: ${kind}`);
      if (out.kind === "declined") t.equal(out.code, row.code, `${name}: code ${row.code}`);
      if (out.kind === "unavailable") t.notOk("transactionId" in out, `${name}: no transaction id`);
      else t.match(out.transactionId, new RegExp(`^${proc.name}-`), `${name}: transaction id from ${proc.name}`);
      const d = decide("sale", out, last);
      const seen = d.to ? stateKey(d.to) : "pending";
      t.equal(seen, status, `${name}: the platform sees ${status}`);
      if (status === "declined") t.equal(d.depositState, row.deposit, `${name}: deposit state ${row.deposit}`);
    }
  }
});

t.test("the processor unavailable card: declined with an empty transaction_id, error_code 9001", async (t) => {
  const out = await new SimProcessor("sim-a", clock().now).authorize(charge("4000000000000119"));
  const d = decide("sale", out, false);
  t.equal(d.transactionId, null);
  t.equal(d.errorCode, 9001);
  t.equal(d.depositState, "E");
});

t.test("declined cards carry the processor's code as error_code", async (t) => {
  const sim = new SimProcessor("sim-a", clock().now);
  t.equal(decide("sale", await sim.authorize(charge("4000000000000002")), true).errorCode, 5);
  t.equal(decide("sale", await sim.authorize(charge("4000000000009995")), true).errorCode, 51);
});

t.test("transaction ids: unique, at most 50 characters (varchar(50))", async (t) => {
  const sim = new SimProcessor("sim-a", clock().now);
  const ids = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const out = await sim.authorize(charge("4111111111111111"));
    if (out.kind === "approved") ids.add(out.transactionId);
  }
  t.equal(ids.size, 50);
  for (const id of ids) {
    t.ok(id.length <= 50, `${id} fits`);
    t.notMatch(id, /4111111111111111/, "no card number in the id");
  }
});

t.test("payout: no challenge and no cascade", async (t) => {
  const rows: [card: string, kind: Kind, code?: string][] = [
    ["4111111111111111", "approved"],
    ["5555555555554444", "approved"],
    ["4000000000000002", "declined", "05"],
    ["4000000000009995", "declined", "51"],
    ["4000000000000119", "unavailable"],
    ["4000000000003220", "approved"],
    ["4000000000000077", "pending"],
    ["4000000000000259", "approved"],
    ["4000000000000341", "approved"],
    ["4242424242424242", "approved"],
  ];
  for (const name of ["sim-a", "sim-b"]) {
    const sim = new SimProcessor(name, clock().now);
    for (const [card, kind, code] of rows) {
      const out = await sim.payout(charge(card, { card: { number: card, cvv: "", expiry: "12/2030" } }));
      t.equal(out.kind, kind, `${name} payout ${card}: ${kind}`);
      if (out.kind === "declined") t.equal(out.code, code);
      const d = decide("payout", out, true);
      if (kind === "approved") t.equal(d.to && stateKey(d.to), "approved:Y", "payout approved (Y)");
      if (kind === "declined" || kind === "unavailable") t.equal(d.to && stateKey(d.to), "declined:J", "payout rejected (J)");
    }
  }
});

t.test("status(): a pending attempt turns approved PENDING_SECONDS (3 s) later", async (t) => {
  const c = clock();
  const sim = new SimProcessor("sim-a", c.now);
  const out = await sim.authorize(charge("4000000000000077"));
  t.equal(out.kind, "pending");
  if (out.kind !== "pending") return;
  const id = out.transactionId;
  const rows: [afterMs: number, kind: Kind][] = [
    [0, "pending"],
    [1000, "pending"],
    [2999, "pending"],
    [3000, "approved"],
    [60_000, "approved"],
  ];
  for (const [after, kind] of rows) {
    c.set(T0 + after);
    const s = await sim.status(id);
    t.equal(s.kind, kind, `+${after} ms: ${kind}`);
    t.equal("transactionId" in s && s.transactionId, id, "same transaction id");
  }
  // The answer lives in the id: a restarted simulator (a new instance) gives the same answer.
  const restarted = new SimProcessor("sim-a", () => T0 + 3000);
  t.equal((await restarted.status(id)).kind, "approved", "after a restart");
  t.equal((await new SimProcessor("sim-a", () => T0 + 1000).status(id)).kind, "pending", "after a restart, early");
});

t.test("status(): a pending attempt started mid-second is not answered early", async (t) => {
  const c = clock(T0 + 900);
  const sim = new SimProcessor("sim-a", c.now);
  const out = await sim.authorize(charge("4000000000000077"));
  if (out.kind !== "pending") return t.fail("not pending");
  c.set(T0 + 900 + 2500);
  t.equal((await sim.status(out.transactionId)).kind, "pending", "2.5 s after: still pending");
  c.set(T0 + 900 + 3000);
  t.equal((await sim.status(out.transactionId)).kind, "approved", "3 s after: approved");
});

t.test("status() of other attempts", async (t) => {
  const c = clock();
  const a = new SimProcessor("sim-a", c.now);
  const b = new SimProcessor("sim-b", c.now);
  const approved = await a.authorize(charge("4111111111111111"));
  const challenge = await a.authorize(charge("4000000000003220"));
  const pendingB = await b.authorize(charge("4000000000000077"));
  if (approved.kind !== "approved" || challenge.kind !== "challenge" || pendingB.kind !== "pending") return t.fail("setup");
  t.equal((await a.status(approved.transactionId)).kind, "approved", "approved stays approved");
  t.equal((await a.status(challenge.transactionId)).kind, "challenge", "challenge waits for the customer");
  for (const id of ["", "nonsense", "sim-a-", "sim-a-x-", pendingB.transactionId]) {
    const s = await a.status(id);
    t.equal(s.kind, "unknown", `sim-a status(${JSON.stringify(id)}): unknown`);
    t.equal(decide("sale", s, true).to, undefined, "unknown is never a decline");
  }
});

t.test("complete(): the 3-D Secure page's buttons", async (t) => {
  const sim = new SimProcessor("sim-a", clock().now);
  const out = await sim.authorize(charge("4000000000003220"));
  if (out.kind !== "challenge") return t.fail("not a challenge");
  const pass = await sim.complete(out.transactionId, true);
  t.same(pass, { kind: "approved", transactionId: out.transactionId });
  const fail = await sim.complete(out.transactionId, false);
  t.equal(fail.kind, "declined");
  t.equal(fail.kind === "declined" && fail.transactionId, out.transactionId);
  const d = decide("sale", fail, true);
  t.equal(d.to && stateKey(d.to), "declined");
  t.equal(d.depositState, "N");
});

t.test("refund: approved for this processor's sale, declined for an unknown sale id", async (t) => {
  const a = new SimProcessor("sim-a", clock().now);
  const b = new SimProcessor("sim-b", clock().now);
  const sale = await a.authorize(charge("4111111111111111"));
  if (sale.kind !== "approved") return t.fail("setup");
  const refund = (sim: SimProcessor, saleTransactionId: string) =>
    sim.refund({ traceId: 2, amountMinor: 500, currency: "USD", saleTransactionId, card: { number: "4111111111111111", cvv: "", expiry: "12/2030" } });

  const ok = await refund(a, sale.transactionId);
  t.equal(ok.kind, "approved", "sim-a refunds its own sale");
  t.not(ok.kind === "approved" && ok.transactionId, sale.transactionId, "the refund has its own transaction id");

  for (const [name, sim, id] of [
    ["empty sale id", a, ""],
    ["made-up sale id", a, "tx-12345"],
    ["sim-a's sale on sim-b", b, sale.transactionId],
    ["a name that merely starts like sim-a", a, "sim-ab-a1-00"],
  ] as const) {
    const out = await refund(sim, id);
    t.equal(out.kind, "declined", `${name}: declined`);
    if (out.kind === "declined") t.equal(out.code, "12", `${name}: code 12 (invalid transaction)`);
    const d = decide("refund", out, true);
    t.equal(d.to && stateKey(d.to), "declined");
    t.equal(d.errorCode, 12);
  }
});
