/**
 * What the stores return at run time is what their types say. The typed
 * queries' rows are converted by MikroORM from the entities (bigint to number,
 * timestamptz to Date) only where it recognises the table, and the hand-written
 * statements by their own row parser; a row that slipped through unconverted
 * would still compile (the type says number) and carry a string. Every read
 * path of the stores is run here on a real Postgres and each value's run-time
 * type checked.
 */
import { DEFAULT_FRONTEND_SETTINGS } from "../../../../../engine/payments/domain/frontend-settings.ts";
import { createSecretKey, randomBytes, randomUUID } from "node:crypto";
import t, { type Test } from "tap";
import type { OrderDraft } from "../../../../../engine/payments/ports/orders.ts";
import type { Attempt } from "../../../../../engine/shared/transaction.ts";
import { PgCallbackStore } from "../../../../../engine/payments/store/callback-store.ts";
import { PgFollowUpStore } from "../../../../../engine/payments/store/follow-up-store.ts";
import { PgMerchantStore } from "../../../../../engine/payments/store/merchant-store.ts";
import { PgOrderStore } from "../../../../../engine/payments/store/order-store.ts";
import { migratedDatabase } from "../../../../support/store-database.ts";
import { orderDraft } from "../../../../support/order-draft.ts";

const NUMBERS = ["traceId", "orderRef", "attempt", "amountMinor"] as const;
const DATES = ["createdAt", "updatedAt"] as const;
const NULLABLE_DATES = ["challengeExpiresAt", "completingUntil"] as const;
const NULLABLE_NUMBERS = ["errorCode", "referenceTraceId"] as const;
const BOOLEANS = ["cardHeld", "submitted", "replied"] as const;

function checkAttempt(t: Test, what: string, a: Attempt | undefined) {
  t.ok(a, `${what}: an attempt`);
  if (!a) return;
  for (const k of NUMBERS) t.equal(typeof a[k], "number", `${what}: ${k} is a number`);
  for (const k of NULLABLE_NUMBERS) t.ok(a[k] === null || typeof a[k] === "number", `${what}: ${k} is a number or null`);
  for (const k of DATES) t.ok(a[k] instanceof Date && !Number.isNaN(a[k].getTime()), `${what}: ${k} is a Date`);
  for (const k of NULLABLE_DATES) t.ok(a[k] === null || a[k] instanceof Date, `${what}: ${k} is a Date or null`);
  for (const k of BOOLEANS) t.equal(typeof a[k], "boolean", `${what}: ${k} is a boolean`);
  t.equal(a.requesterIp, "192.0.2.7", `${what}: the customer's IP address`);
}

t.test("every read of the stores returns values of the types it declares", async (t) => {
  const { orm } = await migratedDatabase(t);

  const merchants = new PgMerchantStore(orm, createSecretKey(randomBytes(32)));
  await merchants.upsert({ merchantId: "m-types", secret: "s3cret", frontends: [{ name: "web", baseCurrency: "EUR" }] });
  const orders = new PgOrderStore(orm, "origin-a");
  const followUps = new PgFollowUpStore(orm);
  const callbacks = new PgCallbackStore(orm, "origin-a");

  const draft = (orderId: string, extra: Partial<OrderDraft> = {}) => orderDraft("m-types", orderId, extra);

  // An order made, or an existing one's: never the withdrawal session's refusal here.
  const made = async (d: OrderDraft) => {
    const r = await orders.createOrder(d);
    if (!("attempt" in r)) throw new Error(`createOrder ${d.orderId}: refused as a withdrawal session's order_id`);
    return r;
  };
  const created = await made(draft("o-1"));
  t.ok(created.created, "created");
  checkAttempt(t, "createOrder (hand SQL)", created.attempt);
  const traceId = created.attempt.traceId;

  const repeat = await made(draft("o-1"));
  t.notOk(repeat.created, "a repeat");
  checkAttempt(t, "createOrder repeat (typed)", repeat.attempt);
  checkAttempt(t, "get", await orders.get(traceId));
  checkAttempt(t, "markReplied (typed update ... returning)", await followUps.markReplied(traceId));
  const [listed] = (await orders.list({ merchantId: "m-types", limit: 10 })).rows;
  checkAttempt(t, "list", listed.attempt);

  const approve = {
    to: { status: "approved" as const, letter: null },
    depositState: null,
    transactionId: "tx-1",
    errorCode: null,
    errorDetails: null,
    cause: "test",
  };
  const eventId = randomUUID();
  const applied = await orders.applyDecision(traceId, { status: "pending", letter: null }, approve, {
    callbacks: [{ eventId, kind: "notification", merchantId: "m-types", url: "https://platform.example/n", body: "{}" }],
    nextCheckAt: new Date(Date.now() + 60_000),
    card: { sealed: null },
  });
  t.ok(applied.applied, "applied");
  checkAttempt(t, "applyDecision (hand SQL)", applied.attempt);
  const lost = await orders.applyDecision(traceId, { status: "pending", letter: null }, approve, { callbacks: [], nextCheckAt: null });
  t.notOk(lost.applied, "a lost race writes nothing");
  checkAttempt(t, "applyDecision, lost race", lost.attempt);

  const sale = await orders.findSale("m-types", String(traceId));
  t.equal(typeof sale?.traceId, "number", "findSale: traceId");
  t.equal(typeof sale?.amountMinor, "number", "findSale: amountMinor");
  const refund = await made(draft("r-1", { type: "refund", amountMinor: 100, referenceTraceId: traceId }));
  checkAttempt(t, "createOrder refund (typed, in a transaction)", refund.attempt);
  t.equal(refund.attempt.referenceTraceId, traceId, "the refund names its sale");

  const [history] = await orders.history(traceId);
  t.ok(history.at instanceof Date, "history: at is a Date");

  const [claimed] = await callbacks.claimDue(30_000, { limit: 10, perMerchant: 8, slots: 32 });
  t.equal(typeof claimed?.id, "number", "claimDue: id (bigint) is a number");
  t.equal(typeof claimed?.traceId, "number", "claimDue: traceId");
  await callbacks.recordAttempt(
    claimed,
    { httpStatus: 200, body: "ok", error: "", refusedAddress: false, durationMs: 42 },
    {
      outcome: "delivered",
      state: "delivered",
      error: "",
      retryInSeconds: null,
    },
  );
  const view = await callbacks.get(claimed.id);
  t.equal(typeof view?.id, "number", "callback view: id");
  t.ok(view?.nextAttemptAt instanceof Date && view.createdAt instanceof Date, "callback view: dates");
  t.ok(view?.attempts[0]?.at instanceof Date, "callback view: attempt's at");
  t.equal(view?.attempts[0]?.durationMs, 42, "callback view: the attempt");

  const [merchant] = await merchants.list(undefined, 10);
  t.ok(merchant.createdAt instanceof Date && merchant.updatedAt instanceof Date, "merchant view: dates");
  t.same(
    merchant.frontends,
    [{ name: "web", baseCurrency: "EUR", currencies: ["EUR"], settings: { ...DEFAULT_FRONTEND_SETTINGS } }],
    "merchant view: its frontends, with the hosted Cashier's default settings",
  );
});
