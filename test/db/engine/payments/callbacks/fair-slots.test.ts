/**
 * Delivery slots shared fairly (issue 34, point 5): several slow platforms
 * owed many callbacks must not take every slot from a fast one owed a few.
 * Real Postgres, the real delivery worker and claim, real HTTP platforms on
 * 127.0.0.1. What is asserted is order, not time: every fast callback arrives
 * before any slow platform has answered a call, so before any slot a slow
 * platform held was freed. With the slow merchants' callbacks owed first and
 * slots no more than the per-merchant cap, the claim before this rule gave
 * the slow platforms every slot and the fast one waited for their answers.
 */
import { createSecretKey, randomBytes, randomUUID } from "node:crypto";
import t, { type Test } from "tap";
import type { MikroORM } from "@mikro-orm/postgresql";
import { buildSchedule } from "../../../../../engine/payments/app/schedule.ts";
import { startDeliveryWorker } from "../../../../../engine/payments/callbacks/delivery-worker.ts";
import { createSender } from "../../../../../engine/payments/callbacks/http-sender.ts";
import { PgCallbackStore } from "../../../../../engine/payments/store/callback-store.ts";
import { PgMerchantStore } from "../../../../../engine/payments/store/merchant-store.ts";
import { PgOrderStore } from "../../../../../engine/payments/store/order-store.ts";
import { DEFAULT_SCHEDULE_SETTINGS } from "../../../../../engine/shared/schedule-settings.ts";
import { msFromNow, typedDb } from "../../../../../engine/store/typed-db.ts";
import { orderDraft } from "../../../../support/order-draft.ts";
import { startPlatformStub, type PlatformStub, type ReceivedCall } from "../../../../support/platform-stub.ts";
import { migratedDatabase } from "../../../../support/store-database.ts";

const SECRET = "fair-slots-secret";
/** Each slow platform answers every call after this long. */
const SLOW_MS = 3000;
const SLOW_PLATFORMS = 3;
const SLOW_OWED = 4;
const FAST_OWED = 4;
/** The engine's slots, no more than the per-merchant cap: before the rule, the slow platforms could hold them all. */
const SLOTS = 8;
const PER_MERCHANT = 8;

interface Platform {
  merchantId: string;
  stub: PlatformStub;
}

async function platformsFor(t: Test, merchants: PgMerchantStore, prefix: string, slow: boolean): Promise<Platform[]> {
  const n = slow ? SLOW_PLATFORMS : 1;
  const made: Platform[] = [];
  for (let i = 0; i < n; i++) {
    const merchantId = `${prefix}-${slow ? "slow" : "fast"}-${i + 1}`;
    const stub = await startPlatformStub({ secrets: { [merchantId]: SECRET } });
    t.teardown(() => stub.close());
    if (slow) stub.script("record_failed_deposit", ...Array.from({ length: SLOW_OWED }, () => ({ delayMs: SLOW_MS })));
    await merchants.upsert({ merchantId, secret: SECRET, platformUrl: stub.url, frontends: [{ name: "web", baseCurrency: "EUR" }] });
    made.push({ merchantId, stub });
  }
  return made;
}

/** `count` RecordFailedDeposits owed to each platform, in one statement: owed together, the slow ones `agoMs` earlier. */
async function owe(orm: MikroORM, platforms: Platform[], count: number, agoMs: number): Promise<void> {
  const orders = new PgOrderStore(orm, "fair-slots");
  const rows: { traceId: number; p: Platform }[] = [];
  for (const p of platforms) {
    for (let i = 0; i < count; i++) {
      const made = await orders.createOrder(orderDraft(p.merchantId, `${p.merchantId}-o${i + 1}`));
      if (!("attempt" in made)) throw new Error("the order was refused");
      const traceId = made.attempt.traceId;
      rows.push({ traceId, p });
    }
  }
  const db = typedDb(orm.em.fork());
  await db
    .insertInto("callback")
    .values((eb) =>
      rows.map(({ traceId, p }) => ({
        event_id: randomUUID(),
        kind: "record_failed_deposit" as const,
        merchant_id: p.merchantId,
        trace_id: traceId,
        url: `${p.stub.url}/RecordFailedDeposit`,
        body: JSON.stringify({ TraceID: traceId }),
        next_attempt_at: msFromNow(eb, -agoMs),
      })),
    )
    .execute();
}

/** When a platform first answered a call: the first slot it held that came free. */
const firstAnswer = (calls: ReceivedCall[]) => Math.min(...calls.map((c) => c.receivedAt.getTime() + (c.reply.delayMs ?? 0)));

/** The most calls that were open at one moment, each open from its arrival until its delayed answer. */
function mostAtOnce(calls: ReceivedCall[]): number {
  const edges = calls.flatMap((c) => [
    { at: c.receivedAt.getTime(), d: 1 },
    { at: c.receivedAt.getTime() + (c.reply.delayMs ?? 0), d: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let open = 0;
  let most = 0;
  for (const e of edges) {
    open += e.d;
    most = Math.max(most, open);
  }
  return most;
}

/**
 * A database, a merchant store and a delivery worker to start on them. The worker's stop waits for the calls in
 * flight (the slow platforms' answers), so that nothing is recorded after the test; its errors are kept to assert on.
 */
async function setUp(t: Test) {
  const { orm } = await migratedDatabase(t);
  const merchants = new PgMerchantStore(orm, createSecretKey(randomBytes(32)));
  const schedule = buildSchedule({
    ...DEFAULT_SCHEDULE_SETTINGS,
    workers: { pollMs: 50, drainMs: SLOW_MS * 10 },
    callbacks: { ...DEFAULT_SCHEDULE_SETTINGS.callbacks, timeoutMs: SLOW_MS * 5 },
  });
  const errors: unknown[] = [];
  const start = () =>
    startDeliveryWorker({
      callbacks: new PgCallbackStore(orm, "fair-slots"),
      merchants,
      send: createSender({ allowPrivate: true }),
      schedule,
      concurrency: SLOTS,
      perMerchant: PER_MERCHANT,
      now: () => new Date(),
      onError: (err) => errors.push(err),
    });
  return { orm, merchants, start, errors };
}

/** Every call arrived signed as the contract says, so each was answered and recorded as delivered. */
const allSigned = (calls: ReceivedCall[]) => calls.every((c) => c.signatureValid);

t.test("slow platforms owed many and a fast one owed a few, owed together: the fast one is served first", async (t) => {
  const { orm, merchants, start, errors } = await setUp(t);
  const slow = await platformsFor(t, merchants, "a", true);
  const [fast] = await platformsFor(t, merchants, "a", false);
  await owe(orm, slow, SLOW_OWED, 1000);
  await owe(orm, [fast], FAST_OWED, 0);

  const worker = start();
  let fastCalls: ReceivedCall[];
  let slowCalls: ReceivedCall[][];
  try {
    fastCalls = await fast.stub.waitFor("record_failed_deposit", { count: FAST_OWED, timeoutMs: 60_000 });
    slowCalls = await Promise.all(slow.map((p) => p.stub.waitFor("record_failed_deposit", { count: SLOW_OWED, timeoutMs: 120_000 })));
  } finally {
    await worker.stop();
  }
  t.same(errors, [], "the delivery worker failed no step");
  t.ok(allSigned(fastCalls) && slowCalls.every(allSigned), "every call was signed and answered as delivered");

  const fastDone = Math.max(...fastCalls.map((c) => c.receivedAt.getTime()));
  const slowFreed = Math.min(...slowCalls.map(firstAnswer));
  t.ok(fastDone < slowFreed, `all ${FAST_OWED} fast callbacks arrived before any slow platform answered a call (${slowFreed - fastDone} ms before)`);
  t.equal(new Set(fastCalls.map((c) => c.eventId)).size, FAST_OWED, "each fast callback once");
  for (const [i, calls] of slowCalls.entries()) {
    t.equal(new Set(calls.map((c) => c.eventId)).size, SLOW_OWED, `slow platform ${i + 1} got each of its callbacks, once`);
    const most = mostAtOnce(calls);
    // Four merchants owed among 8 slots: a share of 1 each while the fast one was owed, 2 after.
    t.ok(most >= 1 && most <= 2, `slow platform ${i + 1} held ${most} calls at once, its share and no more`);
  }
});

t.test("slow platforms already holding their calls leave a slot for a platform owed later", async (t) => {
  const { orm, merchants, start, errors } = await setUp(t);
  const slow = await platformsFor(t, merchants, "b", true);
  const [fast] = await platformsFor(t, merchants, "b", false);
  await owe(orm, slow, SLOW_OWED, 0);

  const worker = start();
  let held: ReceivedCall[][];
  let fastCalls: ReceivedCall[];
  try {
    // Three merchants owed among 8 slots: a share of 2 each, and 2 slots left free.
    held = await Promise.all(slow.map((p) => p.stub.waitFor("record_failed_deposit", { count: 2, timeoutMs: 60_000 })));
    await owe(orm, [fast], FAST_OWED, 0);
    worker.wake();
    fastCalls = await fast.stub.waitFor("record_failed_deposit", { count: FAST_OWED, timeoutMs: 60_000 });
  } finally {
    await worker.stop();
  }
  t.same(errors, [], "the delivery worker failed no step");
  t.ok(allSigned(fastCalls), "every fast call was signed and answered as delivered");

  const fastDone = Math.max(...fastCalls.map((c) => c.receivedAt.getTime()));
  const slowFreed = Math.min(...held.map(firstAnswer));
  t.ok(fastDone < slowFreed, `the platform owed later got all ${FAST_OWED} callbacks before any slow platform answered (${slowFreed - fastDone} ms before)`);
  for (const [i, p] of slow.entries()) {
    const opened = p.stub.received("record_failed_deposit").filter((c) => c.receivedAt.getTime() <= fastDone);
    t.equal(opened.length, 2, `slow platform ${i + 1} had its share of 2 calls open, no more, while the fast one was served`);
  }
});
