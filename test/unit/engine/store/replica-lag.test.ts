/**
 * The replica's lag as an upper bound an operator can trust: 0 when the replica has replayed up to where the
 * primary's WAL ended when the read began (however long ago its last replayed commit is: an idle primary is not
 * lag), the time since its last replayed commit when it is behind (a paused replay, a cut link: receive = replay
 * is no proof of being caught up), 0 on a server not in recovery, and unknown when it is behind without a replayed
 * commit to measure from. LSNs compare as numbers, not as text.
 */
import t from "tap";
import { type LagSample, parseLsn, replicaLagMs } from "../../../../engine/store/replica-lag.ts";

const sample = (over: Partial<LagSample>): LagSample => ({
  primaryLsn: parseLsn("0/3000148"),
  inRecovery: true,
  replayLsn: parseLsn("0/3000148"),
  sinceLastReplayMs: 3_600_000,
  ...over,
});

t.test("caught up: 0, even an hour after the last commit (an idle primary)", async (t) => {
  t.equal(replicaLagMs(sample({})), 0);
  // Replayed past the position read first (the primary wrote on between the two reads).
  t.equal(replicaLagMs(sample({ replayLsn: parseLsn("0/3000200") })), 0);
});

t.test("behind: the time since the last replayed commit, rounded to the ms", async (t) => {
  t.equal(replicaLagMs(sample({ replayLsn: parseLsn("0/3000100"), sinceLastReplayMs: 12_345.6 })), 12_346);
  t.equal(replicaLagMs(sample({ replayLsn: parseLsn("0/3000100"), sinceLastReplayMs: 40 })), 40);
});

t.test("behind with the replica's clock a little behind the primary's: 0, never negative", async (t) => {
  t.equal(replicaLagMs(sample({ replayLsn: parseLsn("0/3000100"), sinceLastReplayMs: -250 })), 0);
});

t.test("not in recovery (the URL reaches a primary): 0", async (t) => {
  t.equal(replicaLagMs(sample({ inRecovery: false, replayLsn: null, sinceLastReplayMs: null })), 0);
});

t.test("behind without a replayed commit to measure from: unknown", async (t) => {
  t.equal(replicaLagMs(sample({ replayLsn: parseLsn("0/3000100"), sinceLastReplayMs: null })), undefined);
  t.equal(replicaLagMs(sample({ replayLsn: null, sinceLastReplayMs: null })), undefined);
});

t.test("LSNs: high and low halves, compared as numbers", async (t) => {
  t.equal(parseLsn("0/0"), 0n);
  t.equal(parseLsn("16/B374D848"), (0x16n << 32n) | 0xb374d848n);
  // As text "9/FFFFFFFF" > "10/0"; as positions it is before.
  t.ok(parseLsn("9/FFFFFFFF") < parseLsn("10/0"));
  t.equal(replicaLagMs(sample({ primaryLsn: parseLsn("10/0"), replayLsn: parseLsn("9/FFFFFFFF"), sinceLastReplayMs: 7000 })), 7000);
  t.throws(() => parseLsn("3000148"), /not an LSN/);
  t.throws(() => parseLsn(""), /not an LSN/);
});
