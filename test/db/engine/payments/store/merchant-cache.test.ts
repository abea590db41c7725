/**
 * The merchant directory's cache (lru-cache): what a request sees, and how
 * often the database is read for it. First on a clock the test moves, with a
 * loader that counts its reads; then PgMerchantStore on a real Postgres,
 * where every change made through this engine (upsert, settings, frontend,
 * secret rotation) shows on the next request, while a change made behind its
 * back (another engine) shows once the entry's time is up.
 */
import { createSecretKey, randomBytes } from "node:crypto";
import t from "tap";
import { MerchantCache } from "../../../../../engine/payments/store/merchant-cache.ts";
import { PgMerchantStore } from "../../../../../engine/payments/store/merchant-store.ts";
import { migratedDatabase } from "../../../../support/store-database.ts";
import { until } from "../../../../support/until.ts";
import { DEFAULT_FRONTEND_SETTINGS } from "../../../../../engine/payments/domain/frontend-settings.ts";

/** A cache over a loader that answers from `rows` and counts its reads per id. */
function world(opts: { ttlMs?: number; max?: number } = {}) {
  let now = 1_000_000;
  const rows = new Map<string, string>([
    ["m1", "one"],
    ["m2", "two"],
    ["m3", "three"],
  ]);
  const reads = new Map<string, number>();
  let failNext = false;
  const cache = new MerchantCache<string>(
    async (id) => {
      reads.set(id, (reads.get(id) ?? 0) + 1);
      if (failNext) {
        failNext = false;
        throw new Error("connection terminated");
      }
      return rows.get(id);
    },
    { ttlMs: opts.ttlMs ?? 5000, unknownTtlMs: 1000, freshEveryMs: 1000, max: opts.max ?? 100, now: () => now },
  );
  return {
    cache,
    rows,
    reads: (id: string) => reads.get(id) ?? 0,
    advance: (ms: number) => {
      now += ms;
    },
    failNextLoad: () => {
      failNext = true;
    },
  };
}

t.test("a merchant is read once while its entry lives, once for concurrent requests, and again after its TTL", async (t) => {
  const w = world();
  const [a, b] = await Promise.all([w.cache.get("m1"), w.cache.get("m1")]);
  t.equal(a, "one");
  t.equal(b, "one");
  t.equal(w.reads("m1"), 1, "concurrent requests share one read");
  w.rows.set("m1", "one, changed elsewhere");
  w.advance(5000);
  t.equal(await w.cache.get("m1"), "one", "within the TTL (5 s to the millisecond): the cached merchant");
  t.equal(w.reads("m1"), 1);
  w.advance(1);
  t.equal(await w.cache.get("m1"), "one, changed elsewhere", "after the TTL: read again");
  t.equal(w.reads("m1"), 2);
});

t.test("an unknown merchant_id is remembered one second only", async (t) => {
  const w = world();
  t.equal(await w.cache.get("m-new"), undefined);
  t.equal(await w.cache.get("m-new"), undefined);
  t.equal(w.reads("m-new"), 1, "a second request within the second is not a read");
  w.rows.set("m-new", "created elsewhere");
  w.advance(1001);
  t.equal(await w.cache.get("m-new"), "created elsewhere", "known a second later, not five");
  t.equal(w.reads("m-new"), 2);
});

t.test("a failed read is not cached: the next request reads again", async (t) => {
  const w = world();
  w.failNextLoad();
  await t.rejects(w.cache.get("m1"), /connection terminated/);
  t.equal(await w.cache.get("m1"), "one");
  t.equal(w.reads("m1"), 2);
});

t.test("fresh reads the database at most once a second per merchant", async (t) => {
  const w = world();
  await w.cache.get("m1");
  w.rows.set("m1", "rotated elsewhere");
  t.equal(await w.cache.get("m1", { fresh: true }), "one", "loaded under a second ago: no second read");
  t.equal(w.reads("m1"), 1);
  w.advance(1000);
  t.equal(await w.cache.get("m1", { fresh: true }), "rotated elsewhere");
  t.equal(w.reads("m1"), 2);
  for (let i = 0; i < 50; i++) await w.cache.get("m1", { fresh: true });
  t.equal(w.reads("m1"), 2, "fifty bad signatures in a second: no more reads");
});

t.test("bounded: past max entries the least recently used goes first", async (t) => {
  const w = world({ max: 2 });
  await w.cache.get("m1");
  await w.cache.get("m2");
  await w.cache.get("m1"); // m1 used last: m2 is now the least recently used
  await w.cache.get("m3");
  t.equal(w.cache.size, 2);
  await w.cache.get("m1");
  t.equal(w.reads("m1"), 1, "m1 kept");
  await w.cache.get("m2");
  t.equal(w.reads("m2"), 2, "m2 evicted, read again");
});

t.test("invalidate forgets a merchant at once", async (t) => {
  const w = world();
  await w.cache.get("m1");
  w.rows.set("m1", "changed here");
  w.cache.invalidate("m1");
  t.equal(await w.cache.get("m1"), "changed here");
  t.equal(w.reads("m1"), 2);
});

t.test("PgMerchantStore: changes made here show on the next request; changes made elsewhere after the TTL", async (t) => {
  const { orm } = await migratedDatabase(t);
  const store = new PgMerchantStore(orm, createSecretKey(randomBytes(32)), 60_000);
  const secretOf = async () => (await store.get("m-cache"))!.signingKey.export().toString("utf8");

  await store.upsert({ merchantId: "m-cache", secret: "first-secret", frontends: [{ name: "web", baseCurrency: "EUR" }] });
  t.equal(await secretOf(), "first-secret");

  await store.upsert({ merchantId: "m-cache", secret: "upserted-secret", payoutApproval: "manual", frontends: [{ name: "web", baseCurrency: "EUR" }] });
  t.equal(await secretOf(), "upserted-secret", "upsert: the new secret at once");
  t.equal((await store.get("m-cache"))!.payoutApproval, "manual");

  t.ok(await store.rotateSecret("m-cache", "rotated-secret", 3600));
  const rotated = (await store.get("m-cache"))!;
  t.equal(rotated.signingKey.export().toString("utf8"), "rotated-secret", "rotation: the new secret at once");
  t.equal(rotated.previousKey?.export().toString("utf8"), "upserted-secret", "and the previous one still accepted");

  t.ok(await store.update("m-cache", { payoutApproval: "auto" }, new Set(["payoutApproval"])));
  t.equal((await store.get("m-cache"))!.payoutApproval, "auto", "settings: at once");

  t.equal(
    await store.putFrontend("m-cache", { name: "mobile", baseCurrency: "USD", currencies: ["USD"], settings: DEFAULT_FRONTEND_SETTINGS }, "create"),
    "ok",
  );
  t.same(
    (await store.get("m-cache"))!.frontends.map((f) => f.name),
    ["web", "mobile"],
    "a new frontend: at once",
  );

  // Another engine's change (here: straight SQL) is not seen while the entry lives...
  // A TTL long enough that a loaded machine still reads the cached entry between the two reads below.
  const short = new PgMerchantStore(orm, createSecretKey(randomBytes(32)), 2000);
  await short.upsert({ merchantId: "m-elsewhere", secret: "s", payoutApproval: "auto", frontends: [{ name: "web", baseCurrency: "EUR" }] });
  t.equal((await short.get("m-elsewhere"))!.payoutApproval, "auto");
  await orm.em.getConnection().execute("update merchant set payout_approval = 'manual' where id = 'm-elsewhere'");
  t.equal((await short.get("m-elsewhere"))!.payoutApproval, "auto", "within the TTL: the cached settings");
  // ...and is once its time is up.
  const seen = await until(async () => (await short.get("m-elsewhere"))!.payoutApproval === "manual", 8000, 50);
  t.ok(seen, "after the TTL: the other engine's change");
});
