/**
 * The replica reads' router on in-memory stand-ins for the two databases' answers: no replica reads the primary;
 * a usable one is read with its lag; one that refuses, drops or cannot be measured sends that read to the primary
 * (counted, the first failure logged once, the next reads straight to the primary for RETRY_AFTER_MS, then tried
 * again and its return logged); an error that is not the replica's unavailability (a write the read-only session
 * refused) is thrown and never run on the primary; a primary that fails fails the read.
 */
import t from "tap";
import { type FallbackReason, RETRY_AFTER_MS, replicaReads, replicaUnavailable } from "../../../../engine/store/replica-reads.ts";
import type { Query } from "../../../../engine/store/replica-lag.ts";

type Ports = { db: "primary" | "replica" };

/** A replica's state row, or an error it fails with. */
type ReplicaAnswer = Record<string, unknown> | Error;

const caughtUp = { in_recovery: true, replay_lsn: "0/5000000", since_ms: 60_000 };
const behind = (ms: number) => ({ in_recovery: true, replay_lsn: "0/4000000", since_ms: ms });

function coded(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

function harness(answers: ReplicaAnswer[] = []) {
  let clock = 1_000_000;
  const logs: { level: string; msg: string; fields: object }[] = [];
  const fallbacks: FallbackReason[] = [];
  let replicaQueries = 0;
  let primaryFails: Error | undefined;
  const primaryQuery: Query = async () => {
    if (primaryFails) throw primaryFails;
    return [{ lsn: "0/5000000" }];
  };
  const replicaQuery: Query = async () => {
    replicaQueries += 1;
    const a = answers.shift() ?? caughtUp;
    if (a instanceof Error) throw a;
    return [a];
  };
  const reads = replicaReads<Ports>({
    primary: { db: "primary" },
    primaryQuery,
    replica: { ports: { db: "replica" }, query: replicaQuery },
    log: {
      warn: (fields, msg) => logs.push({ level: "warn", msg, fields }),
      info: (fields, msg) => logs.push({ level: "info", msg, fields }),
    },
    onFallback: (r) => fallbacks.push(r),
    now: () => clock,
  });
  return {
    reads,
    logs,
    fallbacks,
    replicaQueries: () => replicaQueries,
    tick: (ms: number) => {
      clock += ms;
    },
    failPrimary: (e: Error | undefined) => {
      primaryFails = e;
    },
  };
}

const which = async (h: ReturnType<typeof harness>) => h.reads.read(async (p) => p.db);

t.test("no replica configured: the primary, as before the setting", async (t) => {
  const reads = replicaReads<Ports>({
    primary: { db: "primary" },
    primaryQuery: async () => {
      throw new Error("not asked");
    },
    replica: undefined,
    log: { warn: () => t.fail("no log"), info: () => t.fail("no log") },
    onFallback: () => t.fail("not a fallback"),
  });
  t.same(await reads.read(async (p) => p.db), { value: "primary", source: { replica: false, lagMs: 0 } });
  t.equal(await reads.lag(), 0);
});

t.test("a replica caught up, then behind: read there, with its lag", async (t) => {
  const h = harness([caughtUp, behind(12_400)]);
  t.same(await which(h), { value: "replica", source: { replica: true, lagMs: 0 } });
  t.same(await which(h), { value: "replica", source: { replica: true, lagMs: 12_400 } });
  t.same(h.fallbacks, []);
  t.same(h.logs, []);
});

t.test("a replica that refuses: the primary, logged once, skipped for a while, then back", async (t) => {
  const refused = coded("connect ECONNREFUSED 10.0.0.7:5433", "ECONNREFUSED");
  const h = harness([refused, refused, caughtUp]);
  t.same(await which(h), { value: "primary", source: { replica: false, lagMs: 0 } });
  t.same(h.fallbacks, ["unavailable"]);
  t.equal(h.logs.length, 1);
  t.equal(h.logs[0].level, "warn");
  t.match(h.logs[0].fields, { reason: "ECONNREFUSED" });

  // Within RETRY_AFTER_MS: straight to the primary, the replica not even asked.
  h.tick(RETRY_AFTER_MS - 1);
  t.same((await which(h)).value, "primary");
  t.equal(h.replicaQueries(), 1);
  t.same(h.fallbacks, ["unavailable", "unavailable"]);

  // Then tried again: still refusing, not logged again.
  h.tick(1);
  t.same((await which(h)).value, "primary");
  t.equal(h.replicaQueries(), 2);
  t.equal(h.logs.length, 1, "one warning for one outage");

  // And once it answers: read there, and said once.
  h.tick(RETRY_AFTER_MS);
  t.same(await which(h), { value: "replica", source: { replica: true, lagMs: 0 } });
  t.equal(h.logs.length, 2);
  t.equal(h.logs[1].level, "info");
  t.match(h.logs[1].msg, /answers again/);
  t.same((await which(h)).value, "replica");
  t.equal(h.logs.length, 2);
});

t.test("a connection lost during the read itself: that read on the primary", async (t) => {
  const h = harness();
  let tries = 0;
  const r = await h.reads.read(async (p) => {
    tries += 1;
    if (p.db === "replica") throw coded("Connection terminated unexpectedly");
    return p.db;
  });
  t.same(r, { value: "primary", source: { replica: false, lagMs: 0 } });
  t.equal(tries, 2);
  t.same(h.fallbacks, ["unavailable"]);
});

t.test("a replica that cannot say how far behind it is: not read", async (t) => {
  const h = harness([{ in_recovery: true, replay_lsn: null, since_ms: null }]);
  t.same(await which(h), { value: "primary", source: { replica: false, lagMs: 0 } });
  t.same(h.fallbacks, ["lag_unknown"]);
  // Not an outage: the next read asks the replica again.
  t.same((await which(h)).value, "replica");
});

t.test("a write refused by the read-only session is thrown, never run on the primary", async (t) => {
  const h = harness();
  const ran: string[] = [];
  const err = await h.reads
    .read(async (p) => {
      ran.push(p.db);
      throw coded("cannot execute INSERT in a read-only transaction", "25006");
    })
    .catch((e: unknown) => e as Error);
  t.match(err, { code: "25006" });
  t.same(ran, ["replica"]);
  t.same(h.fallbacks, []);
});

t.test("a primary that fails fails the read, and the replica is not blamed", async (t) => {
  const h = harness();
  h.failPrimary(coded("connect ECONNREFUSED 10.0.0.5:5432", "ECONNREFUSED"));
  await t.rejects(which(h), { code: "ECONNREFUSED" });
  t.same(h.fallbacks, []);
  t.same(h.logs, []);
  h.failPrimary(undefined);
  t.same((await which(h)).value, "replica");
});

t.test("what counts as the replica being unavailable", async (t) => {
  for (const [err, why] of [
    [coded("x", "ECONNREFUSED"), "ECONNREFUSED"],
    [coded("x", "57P03"), "57P03"],
    [coded("password authentication failed", "28P01"), "28P01"],
    [coded("database does not exist", "3D000"), "3D000"],
    [coded("canceling statement due to conflict with recovery", "40001"), "40001"],
    [coded("too many connections", "53300"), "53300"],
    [coded("timeout exceeded when trying to connect"), "timeout exceeded when trying to connect"],
    [{ name: "ConnectionException", message: "wrapped", previous: coded("x", "ECONNRESET") }, "ECONNRESET"],
  ] as const)
    t.equal(replicaUnavailable(err), why, why);
  for (const err of [
    coded("cannot execute INSERT in a read-only transaction", "25006"),
    coded("canceling statement due to statement timeout", "57014"),
    coded("invalid input syntax", "22P02"),
    coded("protocol violation", "08P01"),
    new TypeError("x is undefined"),
  ])
    t.equal(replicaUnavailable(err), undefined, err.message);
});
