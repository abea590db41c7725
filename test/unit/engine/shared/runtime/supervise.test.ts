/**
 * The supervisor of the processes Cashier starts (shared/runtime/supervise.ts):
 * its backoff table (0.5 s doubling to 30 s), the window that decides when to
 * give up, and its walk over a stand-in process that ends, fails to start and
 * comes back: down and up told once each, a stable run resetting the delays,
 * too many failures giving up with one line naming the process and the last
 * reason, and nothing restarted once stopped.
 */
import t from "tap";
import pino from "pino";
import { until } from "../../../../support/until.ts";
import {
  DEFAULT_RESTART_POLICY,
  failuresInWindow,
  restartDelay,
  type RestartPolicy,
  type Supervisable,
  supervise,
} from "../../../../../engine/shared/runtime/supervise.ts";

t.test("the backoff table: 0.5 s doubling, capped at 30 s", async (t) => {
  const table = [1, 2, 3, 4, 5, 6, 7, 8, 20, 2000].map((n) => restartDelay(DEFAULT_RESTART_POLICY, n));
  t.same(table, [500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  t.equal(restartDelay(DEFAULT_RESTART_POLICY, 0), 500, "before the first: the first delay");
});

t.test("the window: failures older than it are forgotten; maxFailures inside it give up", async (t) => {
  const p = DEFAULT_RESTART_POLICY;
  const now = 1_000_000;
  const five = [now - 5000, now - 4000, now - 3000, now - 2000, now - 1000];
  t.same(failuresInWindow(p, five, now), { kept: five, giveUp: false });
  t.equal(failuresInWindow(p, [...five, now], now).giveUp, true, "the sixth within two minutes");
  const old = now - p.windowMs;
  t.same(failuresInWindow(p, [old, ...five.slice(1), now], now), { kept: [...five.slice(1), now], giveUp: false }, "one just out of the window");
  // An end, then five failed restarts after 0.5, 1, 2, 4 and 8 s: given up on about 15 s after the end.
  const untilGivenUp = [1, 2, 3, 4, 5].reduce((sum, n) => sum + restartDelay(p, n), 0);
  t.equal(untilGivenUp, 15_500);
  t.ok(untilGivenUp < p.windowMs, "all six inside the window");
});

/** A stand-in process: `end()` ends the current run; restarts succeed or fail as `starts` says, in turn. */
function standIn(starts: boolean[]) {
  let ended: (how: string) => void = () => {};
  let run = 0;
  const target: Supervisable = {
    exited: () => new Promise((resolve) => (ended = resolve)),
    async restart() {
      const ok = starts.shift() ?? true;
      if (!ok) throw new Error(`no start (try ${++run})\nsecond line not logged`);
      run++;
    },
  };
  return { target, end: (how = "killed by SIGKILL") => ended(how), restarts: () => run };
}

/** A logger that keeps its lines. */
function lines() {
  const kept: { level: string; msg: string }[] = [];
  const log = pino({ formatters: { level: (label) => ({ level: label }) } }, { write: (l: string) => void kept.push(JSON.parse(l)) });
  return { log, kept };
}

const FAST: RestartPolicy = { firstDelayMs: 5, maxDelayMs: 40, stableMs: 60_000, maxFailures: 4, windowMs: 60_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `done` holds (a hang guard of a minute, not a speed check: the machine may be loaded). */
const settled = (done: () => boolean) => until(async () => done(), 60_000, 10);

t.test("an end is restarted after the first delay; down then up, one line each", async (t) => {
  const p = standIn([true]);
  const { log, kept } = lines();
  const told: string[] = [];
  const s = supervise(
    "the thing",
    p.target,
    { onDown: (why) => told.push(`down: ${why}`), onUp: () => told.push("up"), onGiveUp: () => told.push("gave up") },
    log,
    FAST,
  );
  t.equal(s.down, false);
  p.end();
  t.equal(s.down, false, "told only once the end is seen");
  await settled(() => told.length === 2);
  t.same(told, ["down: killed by SIGKILL", "up"]);
  t.equal(s.down, false, "up again");
  t.match(kept[0], { level: "error", msg: "the thing ended (killed by SIGKILL); restarting it in 5 ms" });
  t.match(kept[1], { level: "info", msg: "the thing is running again" });
  t.equal(kept.length, 2);
  await s.stop();
});

t.test("failed starts are retried with growing delays, and the last one brings it back", async (t) => {
  const p = standIn([false, false, true]);
  const { log, kept } = lines();
  let up = 0;
  const s = supervise("the thing", p.target, { onDown: () => {}, onUp: () => up++, onGiveUp: () => t.fail("gave up") }, log, FAST);
  p.end();
  await settled(() => up === 1);
  t.equal(up, 1);
  t.same(
    kept.map((l) => l.msg),
    [
      "the thing ended (killed by SIGKILL); restarting it in 5 ms",
      "the thing did not start again (no start (try 1)); next try in 10 ms",
      "the thing did not start again (no start (try 2)); next try in 20 ms",
      "the thing is running again",
    ],
    "each failure doubles the delay; one line of each reason, its first line only",
  );
  await s.stop();
});

t.test("too many failures within the window give up, once, with one line naming the last reason", async (t) => {
  const p = standIn([false, false, false, false, false, false]);
  const { log, kept } = lines();
  const gaveUp: string[] = [];
  const s = supervise("the embedded Postgres", p.target, { onDown: () => {}, onUp: () => t.fail("came back"), onGiveUp: (l) => gaveUp.push(l) }, log, FAST);
  p.end();
  await settled(() => gaveUp.length > 0);
  await sleep(100);
  t.equal(gaveUp.length, 1, "given up once");
  t.equal(
    gaveUp[0],
    "the embedded Postgres could not be restarted: 4 failures within 60 s (last: no start (try 3)); exiting so that a supervisor restarts Cashier",
  );
  t.match(kept.at(-1), { level: "fatal", msg: gaveUp[0] });
  t.equal(s.down, true, "still down: nothing brought it back");
  t.equal(p.restarts(), 3, "the end soon after the start was the first failure; no try after giving up");
  await s.stop();
});

t.test("runs that end soon after their start count as failures (a crash loop gives up too)", async (t) => {
  const p = standIn([]);
  const { log } = lines();
  const gaveUp: string[] = [];
  const s = supervise(
    "the child",
    p.target,
    { onDown: () => {}, onUp: () => setTimeout(() => p.end("exit code 1"), 1), onGiveUp: (l) => gaveUp.push(l) },
    log,
    FAST,
  );
  p.end("exit code 1");
  await settled(() => gaveUp.length > 0);
  t.equal(gaveUp.length, 1);
  t.match(gaveUp[0], /^the child could not be restarted: 4 failures within 60 s \(last: it ended \(exit code 1\) \d+ ms after it started\)/);
  await s.stop();
});

t.test("a stable run's end starts the delays again and counts no failure", async (t) => {
  let clock = 0;
  const p = standIn([false, true, true]);
  const { log, kept } = lines();
  let ups = 0;
  const s = supervise("the thing", p.target, { onDown: () => {}, onUp: () => ups++, onGiveUp: () => t.fail("gave up") }, log, FAST, () => clock);
  p.end();
  await settled(() => ups === 1);
  clock += FAST.stableMs;
  p.end();
  await settled(() => ups === 2);
  t.same(
    kept.filter((l) => l.level === "error").map((l) => l.msg),
    [
      "the thing ended (killed by SIGKILL); restarting it in 5 ms",
      "the thing did not start again (no start (try 1)); next try in 10 ms",
      "the thing ended (killed by SIGKILL); restarting it in 5 ms",
    ],
  );
  await s.stop();
});

t.test("stopped: an end is not restarted, and a stop during the delay cancels it", async (t) => {
  const quiet = standIn([]);
  const { log, kept } = lines();
  const s = supervise("the thing", quiet.target, { onDown: () => t.fail("down"), onUp: () => t.fail("up"), onGiveUp: () => t.fail("gave up") }, log, FAST);
  await s.stop();
  quiet.end();
  await sleep(50);
  t.equal(kept.length, 0, "an end after stop() is the owner's own stop");

  const waiting = standIn([]);
  const slow = supervise("the other", waiting.target, { onDown: () => {}, onUp: () => t.fail("up"), onGiveUp: () => t.fail("gave up") }, log, {
    ...FAST,
    firstDelayMs: 60_000,
  });
  waiting.end();
  await settled(() => slow.down);
  await slow.stop();
  t.equal(waiting.restarts(), 0, "the pending restart never ran");
});
