/**
 * After a kill -9 of the engine with attempts in flight, the acquirer's record
 * settles them: the restarted engine looks each one up by trace_id, and
 * every one is final within a minute of the restart, measured from outside
 * (this test's clock, the database's rows), instead of the ten minutes "no
 * record" used to wait. Twenty sales are taken by the acquirer, whose answers
 * are held back (a fault of the simulator), and ten wait on the platform's
 * Validation and never reach the acquirer: the lookup finds the first ones
 * approved and fences the others, which end declined (E).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import pg from "pg";
import { launch, platformWorld, stopProcess } from "../support/processes.ts";
import { orderId, processSale } from "../support/wire.ts";
import { until } from "../support/until.ts";

const HELD = 20;
const AT_VALIDATION = 10;

t.test("kill -9 with 30 attempts in flight: after the restart each is settled by a lookup", async (t) => {
  const world = await platformWorld(t);
  const { stub, db } = world;
  // The lookup horizon is Validation's timeout + the processor's + 10 s (35 s by default, which
  // test/unit/engine/payments/app/schedule.test.ts keeps within the minute); a 10 s processor timeout makes it 25 s here.
  // The kill comes before the 5 s Validation timeout runs out, so every held sale is still in its call.
  const env = { ...world.env, ACQUIRER_SIM_TEST_MODE: "1", CASHIER_VALIDATION_TIMEOUT_MS: "5000", CASHIER_PROCESSOR_TIMEOUT_MS: "10000" };
  const first = await launch("engine/main.ts", env, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(first.child, "SIGKILL"));
  const simLine = first
    .out()
    .split("\n")
    .find((l) => l.includes("acquirer simulator started"));
  const simUrl = (JSON.parse(simLine ?? "{}") as { url?: string }).url;
  t.ok(simUrl, "the engine started its acquirer simulator");
  const fault = await fetch(`${simUrl}/admin/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fault: "timeout", card: "5555555555554444", count: HELD, delay_ms: 600_000 }),
  });
  t.equal(fault.status, 201, "the acquirer will take the held sales and not answer");
  stub.script("validation", ...Array.from({ length: AT_VALIDATION }, () => ({ hang: true })));

  const edge = `http://127.0.0.1:${first.line.edgePort}`;
  const held = Array.from({ length: HELD }, () => orderId("held"));
  const validating = Array.from({ length: AT_VALIDATION }, () => orderId("val"));
  const inFlight = [
    ...held.map((oid) => processSale(edge, { merchant_id: "m-plat-quiet", frontend: "quiet-usd", order_id: oid, card_number: "5555555555554444" })),
    ...validating.map((oid) => processSale(edge, { merchant_id: "m-plat", frontend: "plat-usd", order_id: oid })),
  ].map((p) => p.catch(() => undefined));

  // In flight: the acquirer has recorded every held sale, the platform is validating the others.
  const ledger = join(db.dir, "acquirer-sim", "ledger.jsonl");
  const taken = await until(
    async () => {
      let text = "";
      try {
        text = readFileSync(ledger, "utf8");
      } catch {}
      return text.split("\n").filter((l) => l.includes('"t":"payment"')).length >= HELD;
    },
    60_000,
    100,
  );
  t.ok(taken, `the acquirer took the ${HELD} held sales`);
  await stub.waitFor("validation", { count: AT_VALIDATION, timeoutMs: 60_000 });
  await stopProcess(first.child, "SIGKILL");
  await Promise.all(inFlight);

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.teardown(() => client.end());
  const rows = async () =>
    (
      await client.query<{ order_id: string; status: string; deposit_state: string | null; error_code: number | null; transaction_id: string | null }>(
        `select o.order_id, t.status, t.deposit_state, t.error_code, t.transaction_id
           from transaction t join payment_order o on o.id = t.order_ref where o.order_id = any($1)`,
        [[...held, ...validating]],
      )
    ).rows;
  const before = await rows();
  t.equal(before.length, HELD + AT_VALIDATION, "30 attempts");
  t.ok(
    before.every((r) => r.status === "pending"),
    "all 30 left pending by the kill",
  );

  const restartAt = Date.now();
  const second = await launch("engine/main.ts", env, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(second.child));
  const settled = await until(
    async () => {
      const r = await rows();
      return r.every((x) => x.status === "approved" || x.status === "declined") ? r : undefined;
    },
    90_000,
    200,
  );
  const tookMs = Date.now() - restartAt;
  t.ok(settled, "every attempt is final");
  t.comment(`30 in-flight attempts settled ${(tookMs / 1000).toFixed(1)} s after the restart began`);
  const byOrder = new Map((settled ?? []).map((r) => [r.order_id, r]));
  t.ok(
    held.every((oid) => byOrder.get(oid)?.status === "approved" && byOrder.get(oid)?.transaction_id?.startsWith("sim-a-")),
    `the ${HELD} sales the acquirer took: approved, with its payment id, found by the lookup`,
  );
  t.ok(
    validating.every((oid) => {
      const r = byOrder.get(oid);
      return r?.status === "declined" && r.deposit_state === "E" && r.error_code === 9001;
    }),
    `the ${AT_VALIDATION} that never reached it: declined (E, 9001), their keys fenced`,
  );
  // The fence holds: the acquirer refuses those keys now, so a late original request could never be taken.
  const fencedLines = readFileSync(ledger, "utf8")
    .split("\n")
    .filter((l) => l.includes('"t":"fence"'));
  t.equal(fencedLines.length, AT_VALIDATION, "one fence per attempt that never reached the acquirer");
});
