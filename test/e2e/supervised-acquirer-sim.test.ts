/**
 * The engine's own acquirer simulator under `npm start` is supervised (issue
 * 31, point 6): a kill -9 of its child takes health to NOT_SERVING, and a sale
 * meanwhile is a retryable refusal (503, status -2, Retry-After) that makes no
 * order, never a `pending` that waits for a simulator no one restarts; the
 * child is started again on the same port with the same keys, health is
 * SERVING again, the refused order is processed when sent again, and new sales
 * are approved, with no restart of Cashier.
 */
import { unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { until } from "../support/until.ts";
import { alive, healthy, sale, simPid, startCashier } from "../support/supervised.ts";

t.test("kill -9 of the acquirer simulator's child: 503 and NOT_SERVING while it is down, then approved again", async (t) => {
  const s = await startCashier(t);
  const engine = s.launched.child.pid!;
  const before = await sale(s);
  t.same([before.http, before.body.transaction_status], [200, "approved"], "a sale is approved");
  const first = await simPid(engine);
  t.ok(first, "the engine has its simulator child");

  // Holds the restart back until released: the ledger's lock names a living process (this one), so the next child
  // waits for it before it listens.
  const lock = join(s.dir, "acquirer-sim", "ledger.jsonl.lock");
  writeFileSync(lock, String(process.pid));
  process.kill(first!, "SIGKILL");
  t.ok(await until(async () => !(await healthy(s.engineHost)), 60_000), "health says NOT_SERVING while the simulator is down");
  const down = await sale(s);
  t.same([down.http, down.body.status, down.retryAfter], [503, -2, "5"], "a sale meanwhile: 503, status -2, Retry-After");
  t.match(s.launched.out(), /the acquirer simulator ended \(killed by SIGKILL\); restarting it in 500 ms/, "one line says it ended");

  unlinkSync(lock);
  t.ok(await until(async () => await healthy(s.engineHost), 120_000), "health is SERVING again");
  const second = await simPid(engine);
  t.ok(second !== undefined && second !== first && alive(second), "a new child runs");
  t.ok(alive(engine), "in the same Cashier process");
  t.match(s.launched.out(), /the acquirer simulator is running again/, "one line says it is back");

  const again = await sale(s, down.sent);
  t.same([again.http, again.body.transaction_status], [200, "approved"], "the refused order, sent again, is processed now: the refusal made none");
  const fresh = await sale(s);
  t.same([fresh.http, fresh.body.transaction_status], [200, "approved"], "and a new sale is approved");
  const old = await sale(s, before.sent);
  t.same([old.http, old.body.trace_id, old.body.transaction_status], [200, before.body.trace_id, "approved"], "the first sale is as it was");
});
