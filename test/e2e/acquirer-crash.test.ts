/**
 * kill -9 of the engine while a real connector's call is at the acquirer (issue 30, point 7): the acquirer
 * simulator takes each sale and records it, and holds its answer back (a `timeout` fault); the engine, with its
 * edge, is killed in that call and started again on the same database. Nothing is lost and nothing doubled: each
 * sale ends once in the state the acquirer decided, which GetTransaction, a replayed Process and the platform's one
 * notification tell, and the acquirer holds one payment for its reference (the restart sends nothing again).
 * Checkout.com settles a lost answer by a lookup by reference (`GET /payments?reference=<trace_id>`), found by the
 * restarted engine's lookup sweep; Adyen has no lookup, so the attempt stays pending through the sweeps, neither
 * sent again nor failed, until Adyen's AUTHORISATION notification, which the simulator sent while the engine was
 * down and retries until Cashier acknowledges it. The sweeps' horizons (35 s, 2 min) are aged in the database
 * instead of waited for, as crash-recovery.test.ts does.
 */
import t, { type Test } from "tap";
import { CallbackKind, CallbackState } from "../../gen/cashier/engine/v1/callback_pb.js";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { createEngineClients } from "../../edge/engine-client.ts";
import { type CrashWorld, crashWorld } from "../support/acquirer-crash.ts";
import { type Launched, launch, stopProcess } from "../support/processes.ts";
import { SERVICE_TOKEN } from "../support/service.ts";
import { until } from "../support/until.ts";
import { type Body, post, saleBody, sign } from "../support/wire.ts";

/** Checkout.com approves any card without a trigger; 4941202060999329 declines 30041 (Lost card - Pick up, hard). */
const CKO_APPROVED = "4242424242424242";
const CKO_DECLINED = "4941202060999329";
/** Adyen authorises any card; the holder name BLOCK_CARD is refused (5, Blocked Card, hard). */
const ADYEN_APPROVED = "4111111111111111";
const ADYEN_REFUSED = "5555555555554444";

interface Sale {
  name: string;
  body: Body;
  expect: "approved" | "declined";
  traceId?: number;
}

const engine = (w: CrashWorld) => launch("engine/main.ts", w.env, "cashier ready", ["--with-edge"]);
const edgeOf = (l: Launched) => `http://127.0.0.1:${l.line.edgePort}`;

/**
 * Starts the engine, has the acquirer hold each sale's answer, sends the sales and kills the engine (SIGKILL) once
 * the acquirer has recorded them all: each attempt is left pending without the acquirer's id. Returns the dead engine.
 */
async function killMidCall(t: Test, w: CrashWorld, sales: Sale[], ledgerKind: string): Promise<Launched> {
  const first = await engine(w);
  t.teardown(() => stopProcess(first.child, "SIGKILL"));
  for (const s of sales) {
    t.equal(await w.fault({ fault: "timeout", card: s.body.card_number, count: 1, delay_ms: 600_000 }), 201, `${s.name}: the acquirer will hold its answer`);
  }
  const inFlight = sales.map((s) =>
    post(edgeOf(first), sign(s.body)).then(
      () => "answered",
      () => "cut",
    ),
  );
  const taken = await until(async () => w.ledger(ledgerKind).length >= sales.length, 120_000, 20);
  t.ok(taken, `the acquirer recorded the ${sales.length} sales`);
  await stopProcess(first.child, "SIGKILL");
  t.same(
    await Promise.all(inFlight),
    sales.map(() => "cut"),
    "the engine died in the calls: no reply",
  );
  for (const s of sales) {
    const a = await w.attempt(s.body.order_id as string);
    t.match(a, { status: "pending", transaction_id: null }, `${s.name}: left pending, the acquirer's id unknown`);
    s.traceId = a?.trace_id;
  }
  return first;
}

/** Ages the attempts past both sweeps' horizons (35 s, 2 min), and the sweeps' watermarks with them. */
async function agePastSweeps(w: CrashWorld, sales: Sale[]): Promise<void> {
  await w.sql("update recovery_watermark set scanned_to = scanned_to - interval '10 minutes'");
  await w.sql("update transaction set created_at = created_at - interval '3 minutes' where trace_id = any($1)", [sales.map((s) => s.traceId)]);
}

/** What the merchant and the acquirer see of one settled sale: it ended once, was told once, and was taken once. */
async function settledOnce(t: Test, w: CrashWorld, second: Launched, s: Sale, o: { cause: string; payment: string }): Promise<void> {
  const traceId = s.traceId as number;
  const final = s.expect === "approved" ? TransactionStatus.APPROVED : TransactionStatus.DECLINED;
  const clients = createEngineClients(`http://127.0.0.1:${second.line.enginePort}`, SERVICE_TOKEN);
  t.teardown(() => clients.close());
  const got = await clients.engine.getTransaction({ traceId });
  const tx = got.transaction;
  t.equal(tx?.status, final, `${s.name}: GetTransaction says ${s.expect}`);
  t.equal(tx?.transactionId, o.payment, "with the acquirer's payment id");
  const changes = (tx?.history ?? []).filter((h) => h.toStatus === final);
  t.same(
    changes.map((h) => h.cause),
    [o.cause],
    `${s.name}: one change into ${s.expect}, made by ${o.cause}`,
  );

  const notified = await w.stub.waitFor("notification", (c) => (c.body as { order_id?: string }).order_id === s.body.order_id, { timeoutMs: 60_000 });
  t.match(notified[0]?.body, { trace_id: traceId, transaction_status: s.expect }, `${s.name}: the platform is told ${s.expect}`);
  t.ok(notified[0]?.signatureValid, "signed");
  await until(
    async () =>
      (await clients.engine.getTransaction({ traceId })).callbacks.some((c) => c.kind === CallbackKind.NOTIFICATION && c.state === CallbackState.DELIVERED),
    30_000,
  );
  const callbacks = (await clients.engine.getTransaction({ traceId })).callbacks;
  t.same(
    callbacks.filter((c) => c.kind === CallbackKind.NOTIFICATION).map((c) => [c.state, c.attemptCount]),
    [[CallbackState.DELIVERED, 1]],
    `${s.name}: one notification owed, delivered at its first attempt`,
  );
  const ofOrder = (c: { body: unknown }) => (c.body as { order_id?: string }).order_id === s.body.order_id;
  t.equal(w.stub.received("notification").filter(ofOrder).length, 1, "one notification arrived");
  t.equal(w.stub.received("validation").filter(ofOrder).length, 1, "Validation was asked once, before the kill, never again");
  const failedDeposits = w.stub.received("record_failed_deposit").filter((c) => (c.body as { TraceID?: number }).TraceID === traceId);
  t.equal(failedDeposits.length, s.expect === "declined" ? 1 : 0, s.expect === "declined" ? "one RecordFailedDeposit" : "no RecordFailedDeposit");

  const again = await post(edgeOf(second), sign({ ...s.body, timestamp: Math.floor(Date.now() / 1000) }));
  t.same(
    [again.http, again.body.trace_id, again.body.transaction_status],
    [200, traceId, s.expect],
    `${s.name}: the order sent again answers the same attempt, ${s.expect}`,
  );
}

/** The acquirer's payments (its ledger's `kind` entries) that carry the sale's trace_id as their reference. */
const paymentsOf = (w: CrashWorld, kind: "cko.payment" | "adyen.payment", s: Sale) => w.ledger(kind).filter((e) => e.p.reference === String(s.traceId));

t.test("Checkout.com: killed in the call, each sale is settled after the restart by a lookup by reference, once", async (t) => {
  const w = await crashWorld(t);
  const sale = (card: string) => saleBody({ merchant_id: "m-cko", frontend: "cko-usd", card_number: card, notification_url: `${w.stub.url}/notify` });
  const sales: Sale[] = [
    { name: "the approved sale", expect: "approved", body: sale(CKO_APPROVED) },
    { name: "the declined sale", expect: "declined", body: sale(CKO_DECLINED) },
  ];
  await killMidCall(t, w, sales, "cko.payment");
  await agePastSweeps(w, sales);

  const second = await engine(w);
  t.teardown(() => stopProcess(second.child));
  const final = await until(
    async () => {
      const rows = await Promise.all(sales.map((s) => w.attempt(s.body.order_id as string)));
      return rows.every((r) => r && r.status !== "pending") ? rows : undefined;
    },
    120_000,
    200,
  );
  t.ok(final, "both are final after the restart");
  for (const s of sales) {
    const payments = paymentsOf(w, "cko.payment", s);
    t.equal(payments.length, 1, `${s.name}: Checkout.com holds one payment with reference ${s.traceId}: no second charge`);
    await settledOnce(t, w, second, s, { cause: `processor:${s.expect}`, payment: payments[0]?.p.id });
  }
});

t.test("Adyen: killed in the call, each sale waits through the restart's sweeps and is settled by its notification, retried until acknowledged", async (t) => {
  const w = await crashWorld(t);
  const sale = (card: string, holder: Body = {}) =>
    saleBody({ merchant_id: "m-adyen", frontend: "adyen-eur", currency: "EUR", card_number: card, notification_url: `${w.stub.url}/notify`, ...holder });
  const sales: Sale[] = [
    { name: "the authorised sale", expect: "approved", body: sale(ADYEN_APPROVED) },
    { name: "the refused sale", expect: "declined", body: sale(ADYEN_REFUSED, { first_name: "BLOCK_CARD", last_name: ":hard" }) },
  ];
  const killed = await killMidCall(t, w, sales, "adyen.payment");
  const notifications = w.ledger("webhook").filter((e) => e.url.endsWith("/webhooks/m-adyen/adyen-eu"));
  t.equal(notifications.length, 2, "Adyen wrote an AUTHORISATION notification with each payment");

  // The engine is down: the notifications reach no one, and Adyen sends them again.
  const acknowledging = (r: { status: number }) => r.status >= 200 && r.status < 300;
  w.relay.pass(edgeOf(killed));
  const retried = await until(async () => w.relay.relayed.filter((r) => !acknowledging(r)).length >= 3, 60_000, 20);
  t.ok(retried, "a notification sent while the engine was down found no one and was sent again, and again");
  t.equal(w.sim.pendingWebhooks().length, 2, "both are still unacknowledged");
  w.relay.hold();

  // The restart's sweeps look at both attempts before any notification arrives: Adyen cannot be asked, so they wait.
  await agePastSweeps(w, sales);
  const second = await engine(w);
  t.teardown(() => stopProcess(second.child));
  const traceIds = sales.map((s) => s.traceId);
  const swept = await until(
    async () => {
      const [r] = await w.sql<{ passed: number; checks: number }>(
        `select (select count(*)::int from recovery_watermark where scanned_to >= (select max(created_at) from transaction where trace_id = any($1))) as passed,
              (select count(*)::int from transaction where trace_id = any($1) and next_check_at is not null) as checks`,
        [traceIds],
      );
      return r?.passed === 2 && r.checks === 0;
    },
    120_000,
    200,
  );
  t.ok(swept, "both sweeps passed the attempts and the follow-up left nothing planned");
  for (const s of sales) {
    t.match(await w.attempt(s.body.order_id as string), { status: "pending", transaction_id: null }, `${s.name}: still pending, not failed`);
    t.equal(paymentsOf(w, "adyen.payment", s).length, 1, "and not charged again");
  }

  w.relay.pass(edgeOf(second));
  const acknowledged = await until(async () => w.sim.pendingWebhooks().length === 0, 120_000, 50);
  t.ok(acknowledged, "Cashier acknowledged both notifications after the restart");
  for (const n of notifications) {
    t.same(
      w.relay.relayed.filter((r) => r.body === n.body && acknowledging(r)).map((r) => [r.status, r.answer]),
      [[200, "[accepted]"]],
      "each notification was acknowledged once, with Adyen's [accepted]",
    );
  }
  for (const s of sales) {
    const payments = paymentsOf(w, "adyen.payment", s);
    t.equal(payments.length, 1, `${s.name}: Adyen holds one payment with reference ${s.traceId}: no second charge`);
    const kept = await w.sql("select outcome from acquirer_webhook_event where trace_id = $1", [s.traceId]);
    t.same(kept, [{ outcome: "applied" }], "its notification kept once and applied");
    await settledOnce(t, w, second, s, { cause: "webhook:AUTHORISATION", payment: payments[0]?.p.psp });
  }
});
