/**
 * The built-in simulator of CONTRACT section 4, card by card on sim-a and sim-b,
 * reached over HTTP through the sim connector as the engine reaches it, and,
 * through the pure decision table, the transaction status a platform sees
 * for each card. Time is an injected clock, so pending answers are exact.
 */
import t, { type Test } from "tap";
import { decide, type ProcessorOutcome } from "../../../../../engine/payments/domain/outcome.ts";
import { stateKey } from "../../../../../engine/payments/domain/transitions.ts";
import type { ChargeRequest } from "../../../../../engine/payments/processors/processor.ts";
import { startTestSim, type TestSim } from "../../../../support/acquirer-sim.ts";

const T0 = Date.UTC(2026, 5, 15, 12, 0, 0); // on a whole second

function clock(start = T0) {
  let now = start;
  return { now: () => now, set: (ms: number) => void (now = ms) };
}

// Every call is a new attempt: a repeated trace_id is an idempotent repeat (tested below).
let nextTrace = 1;
const charge = (number: string, over: Partial<ChargeRequest> = {}): ChargeRequest => ({
  traceId: nextTrace++,
  amountMinor: 1050,
  currency: "USD",
  card: { number, cvv: "123", expiry: "12/2030" },
  ...over,
});

type Kind = ProcessorOutcome["kind"];

/** A simulator on this clock, stopped with the test; its sim-a and sim-b connectors. */
async function simOn(t: Test, now: () => number): Promise<TestSim> {
  const s = await startTestSim(now);
  t.teardown(() => s.stop());
  return s;
}
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
  const s = await simOn(t, clock().now);
  const a = s.connector("sim-a");
  const b = s.connector("sim-b");
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
  const out = await (await simOn(t, clock().now)).connector("sim-a").authorize(charge("4000000000000119"));
  const d = decide("sale", out, false);
  t.equal(d.transactionId, null);
  t.equal(d.errorCode, 9001);
  t.equal(d.depositState, "E");
});

t.test("declined cards carry the processor's code as error_code", async (t) => {
  const sim = (await simOn(t, clock().now)).connector("sim-a");
  t.equal(decide("sale", await sim.authorize(charge("4000000000000002")), true).errorCode, 5);
  t.equal(decide("sale", await sim.authorize(charge("4000000000009995")), true).errorCode, 51);
});

t.test("transaction ids: unique, at most 50 characters (varchar(50))", async (t) => {
  const sim = (await simOn(t, clock().now)).connector("sim-a");
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
    ["4000000000000341", "retryable", "91"],
    ["4242424242424242", "approved"],
  ];
  const s = await simOn(t, clock().now);
  for (const name of ["sim-a", "sim-b"] as const) {
    const sim = s.connector(name);
    for (const [card, kind, code] of rows) {
      const out = await sim.payout(charge(card, { card: { number: card, cvv: "", expiry: "12/2030" } }));
      t.equal(out.kind, kind, `${name} payout ${card}: ${kind}`);
      if (out.kind === "declined" || out.kind === "retryable") t.equal(out.code, code);
      const d = decide("payout", out, true);
      if (kind === "approved") t.equal(d.to && stateKey(d.to), "approved:Y", "payout approved (Y)");
      if (kind === "declined" || kind === "retryable" || kind === "unavailable") t.equal(d.to && stateKey(d.to), "declined:J", "payout rejected (J)");
    }
  }
});

t.test("status(): a pending attempt turns approved PENDING_SECONDS (3 s) later", async (t) => {
  const c = clock();
  const s = await simOn(t, c.now);
  const sim = s.connector("sim-a");
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
  // The answer lives in the simulator's ledger: a restarted simulator gives the same answer.
  await s.restart(() => T0 + 3000);
  t.equal((await s.connector("sim-a").status(id)).kind, "approved", "after a restart");
  await s.restart(() => T0 + 1000);
  t.equal((await s.connector("sim-a").status(id)).kind, "pending", "after a restart, early");
});

t.test("status(): a pending attempt started mid-second is not answered early", async (t) => {
  const c = clock(T0 + 900);
  const sim = (await simOn(t, c.now)).connector("sim-a");
  const out = await sim.authorize(charge("4000000000000077"));
  if (out.kind !== "pending") return t.fail("not pending");
  c.set(T0 + 900 + 2500);
  t.equal((await sim.status(out.transactionId)).kind, "pending", "2.5 s after: still pending");
  c.set(T0 + 900 + 3000);
  t.equal((await sim.status(out.transactionId)).kind, "approved", "3 s after: approved");
});

t.test("status() of other attempts", async (t) => {
  const c = clock();
  const s = await simOn(t, c.now);
  const a = s.connector("sim-a");
  const b = s.connector("sim-b");
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
  const sim = (await simOn(t, clock().now)).connector("sim-a");
  const out = await sim.authorize(charge("4000000000003220"));
  if (out.kind !== "challenge") return t.fail("not a challenge");
  const pass = await sim.complete(out.transactionId, true);
  t.same(pass, { kind: "approved", transactionId: out.transactionId });
  t.same(await sim.complete(out.transactionId, false), pass, "the first answer stands: a second click changes nothing");
  const other = await sim.authorize(charge("4000000000003220"));
  if (other.kind !== "challenge") return t.fail("not a challenge");
  const fail = await sim.complete(other.transactionId, false);
  t.equal(fail.kind, "declined");
  t.equal(fail.kind === "declined" && fail.transactionId, other.transactionId);
  const d = decide("sale", fail, true);
  t.equal(d.to && stateKey(d.to), "declined");
  t.equal(d.depositState, "N");
});

t.test("refund: approved for this processor's sale, declined for an unknown sale id", async (t) => {
  const s = await simOn(t, clock().now);
  const a = s.connector("sim-a");
  const b = s.connector("sim-b");
  const sale = await a.authorize(charge("4111111111111111"));
  if (sale.kind !== "approved") return t.fail("setup");
  const refund = (sim: typeof a, saleTransactionId: string) =>
    sim.refund({
      traceId: nextTrace++,
      amountMinor: 500,
      currency: "USD",
      saleTransactionId,
      card: { number: "4111111111111111", cvv: "", expiry: "12/2030" },
    });

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

t.test("a repeated idempotency key (trace_id) gets the recorded answer, nothing is taken twice", async (t) => {
  const sim = (await simOn(t, clock().now)).connector("sim-a");
  const req = charge("4111111111111111");
  const first = await sim.authorize(req);
  const again = await sim.authorize(req);
  t.equal(first.kind, "approved");
  t.same(again, first, "same answer, same transaction id");
  t.same(await sim.find(req.traceId), first, "find by trace_id: the same answer");
});

t.test("find: an unseen trace_id is fenced, so the attempt can never be taken later", async (t) => {
  const s = await simOn(t, clock().now);
  const sim = s.connector("sim-a");
  const req = charge("4111111111111111");
  const found = await sim.find(req.traceId);
  t.same(found, { kind: "unavailable", message: "The processor has no record of this attempt" }, "no record, final (no mayArriveLate)");
  t.equal(decide("sale", found, true).depositState, "E", "the sale ends E at once");
  const late = await sim.authorize(req);
  t.equal(late.kind, "unavailable", "the late original request is refused");
  t.same(await sim.find(req.traceId), found, "still no record");
  await s.restart();
  t.equal((await s.connector("sim-a").authorize(req)).kind, "unavailable", "the fence survives a restart of the simulator");
  t.equal((await s.connector("sim-b").authorize(req)).kind, "approved", "a fence is per acquirer: sim-b never saw that key");
});

t.test("the ledger survives a restart: lookups by key answer what was answered", async (t) => {
  const s = await simOn(t, clock().now);
  const req = charge("4000000000000002");
  const before = await s.connector("sim-b").authorize(req);
  await s.restart();
  t.same(await s.connector("sim-b").find(req.traceId), before, "declined 05, same id, after a restart");
});

t.test("faults: timeout and reset leave unknown, and the lookup finds the payment; 5xx takes nothing", async (t) => {
  const s = await simOn(t, Date.now);
  const sim = s.connector("sim-a", { timeoutMs: 300 });
  const cases: [fault: string, kindAfterLookup: Kind][] = [
    ["timeout", "approved"],
    ["reset", "approved"],
    ["5xx", "unavailable"],
  ];
  for (const [fault, after] of cases) {
    const req = charge("4111111111111111");
    const added = await s.addFault({ fault, idempotency_key: String(req.traceId), delay_ms: 2000 });
    t.equal(added.status, 201, `${fault}: fault added`);
    const out = await sim.authorize(req);
    t.equal(out.kind, "unknown", `${fault}: the call's outcome is unknown, never declined`);
    t.equal(decide("sale", out, true).to, undefined, `${fault}: the attempt stays where it is`);
    const found = await sim.find(req.traceId);
    t.equal(found.kind, after, `${fault}: the lookup by trace_id settles it: ${after}`);
  }
  const byCard = charge("5555555555554444");
  await s.addFault({ fault: "5xx", card: byCard.card.number, count: 2 });
  t.equal((await sim.authorize(byCard)).kind, "unknown", "a fault by card");
  t.equal((await sim.authorize(charge("5555555555554444"))).kind, "unknown", "counted: twice");
  t.equal((await sim.authorize(charge("5555555555554444"))).kind, "approved", "then gone");
  t.equal((await s.addFault({ fault: "melt" })).status, 400, "an unknown fault is refused");
});

t.test("the API key decides the acquirer; a wrong one is refused and nothing is taken", async (t) => {
  const s = await simOn(t, clock().now);
  const wrong = s.connector("sim-a", { apiKey: "not-the-key-at-all" });
  const out = await wrong.authorize(charge("4111111111111111"));
  t.equal(out.kind, "unavailable");
  t.match(out.kind === "unavailable" && out.message, /HTTP 401/, "the refusal says why");
  const res = await fetch(`${s.sim.url}/v1/payments`, { method: "POST", body: "{}" });
  t.equal(res.status, 401, "no key: 401");
});

t.test("the simulator answers a bad request by field, never 5xx", async (t) => {
  const s = await simOn(t, clock().now);
  const post = (body: string, key = "k1") =>
    fetch(`${s.sim.url}/v1/payments`, {
      method: "POST",
      headers: { authorization: "Bearer test-key-sim-a-0123456789", "idempotency-key": key, "content-type": "application/json" },
      body,
    });
  const rows: [body: string, status: number, says: RegExp][] = [
    ["not json", 400, /not JSON/],
    ["{}", 400, /operation/],
    [JSON.stringify({ operation: "sale", amount: -1, currency: "USD", card: { number: "4111111111111111", expiry: "12/2030" } }), 400, /amount/],
    [JSON.stringify({ operation: "sale", amount: 1, currency: "usd", card: { number: "4111111111111111", expiry: "12/2030" } }), 400, /currency/],
    [JSON.stringify({ operation: "sale", amount: 1, currency: "USD", card: { number: "41", expiry: "12/2030" } }), 400, /card.number/],
    [JSON.stringify({ operation: "refund", amount: 1, currency: "USD", card: { number: "4111111111111111", expiry: "12/2030" } }), 400, /original_payment_id/],
    ["x".repeat(20_000), 413, /16 KiB/],
  ];
  for (const [body, status, says] of rows) {
    const res = await post(body);
    t.equal(res.status, status, `${body.slice(0, 30)}: ${status}`);
    t.match(((await res.json()) as { message: string }).message, says);
  }
  t.equal((await post("{}", "")).status, 400, "no Idempotency-Key: 400");
  t.equal((await fetch(`${s.sim.url}/nowhere`)).status, 404);
});
