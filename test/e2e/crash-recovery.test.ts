/**
 * A crash between a status change and its delivery loses nothing: the engine
 * is killed (SIGKILL) while the notification owed by an approval is in flight
 * and unrecorded; after a restart the same callback, with the same
 * X-Cashier-Event-Id, is delivered and recorded once the dead engine's lease
 * (the call's timeout plus 30 s) has run out (aged in the database, as the
 * second test ages its attempts, instead of waited for).
 */
import t from "tap";
import pg from "pg";
import { launch, platformWorld, stopProcess } from "../support/processes.ts";
import { orderId, processSale } from "../support/wire.ts";
import { until } from "../support/until.ts";

t.test("kill -9 while a notification is in flight; after the restart it is delivered", async (t) => {
  const world = await platformWorld(t);
  const { stub, db } = world;
  const env = { ...world.env, CASHIER_CALLBACK_TIMEOUT_MS: "2000" };
  const first = await launch("engine/main.ts", env, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(first.child, "SIGKILL"));

  stub.script("notification", { hang: true });
  const oid = orderId("crash");
  const r = await processSale(`http://127.0.0.1:${first.line.edgePort}`, {
    merchant_id: "m-plat-quiet",
    frontend: "quiet-usd",
    order_id: oid,
    card_number: "4000000000000077",
    notification_url: `${stub.url}/notify`,
  });
  t.equal(r.body.transaction_status, "pending");
  const [inFlight] = await stub.waitFor("notification", (c) => (c.body as { order_id?: string })?.order_id === oid);
  t.equal((inFlight.body as { transaction_status: string }).transaction_status, "approved");

  await stopProcess(first.child, "SIGKILL");
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.teardown(() => client.end());
  const before = (
    await client.query(
      `select c.state, (select count(*) from callback_attempt a where a.callback_id = c.id)::int as attempts
    from callback c join transaction t on t.trace_id = c.trace_id where c.kind = 'notification' and t.trace_id = $1`,
      [r.body.trace_id],
    )
  ).rows;
  t.same(before, [{ state: "pending", attempts: 0 }], "killed mid-call: owed, no attempt recorded");
  const [{ status }] = (await client.query("select status from transaction where trace_id = $1", [r.body.trace_id])).rows;
  t.equal(status, "approved", "the status change itself was committed");

  // The dead engine's claim still holds the callback: due again only when its lease (the call's 2 s plus the
  // 30 s margin) runs out. Those 32 s pass: the lease is aged by its length instead of waited for.
  const [lease] = (
    await client.query<{ held: boolean; within: boolean }>(
      `select next_attempt_at > now() as held, next_attempt_at <= now() + interval '32 seconds' as within
         from callback where kind = 'notification' and trace_id = $1`,
      [r.body.trace_id],
    )
  ).rows;
  t.same(lease, { held: true, within: true }, "the dead engine's lease holds it for at most 32 s");
  await client.query("update callback set next_attempt_at = next_attempt_at - interval '32 seconds' where kind = 'notification' and trace_id = $1", [
    r.body.trace_id,
  ]);

  const second = await launch("engine/main.ts", env, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(second.child));
  const calls = await stub.waitFor("notification", (c) => (c.body as { order_id?: string })?.order_id === oid, { count: 2, timeoutMs: 60_000 });
  t.equal(calls[1].eventId, calls[0].eventId, "the resend carries the same X-Cashier-Event-Id");
  t.ok(calls[1].signatureValid);
  let after: { state: string; outcome: string }[] = [];
  await until(async () => {
    after = (
      await client.query(
        `select c.state, a.outcome from callback c join callback_attempt a on a.callback_id = c.id
      where c.kind = 'notification' and c.trace_id = $1 order by a.id`,
        [r.body.trace_id],
      )
    ).rows;
    return after[0]?.state === "delivered";
  });
  t.same(after, [{ state: "delivered", outcome: "delivered" }], "delivered and recorded after the restart");
});

t.test("kill -9 while an attempt is in progress; after the restart it is recovered, not left pending", async (t) => {
  const world = await platformWorld(t);
  const { stub, db } = world;
  const env = { ...world.env, CASHIER_VALIDATION_TIMEOUT_MS: "30000" };
  const first = await launch("engine/main.ts", env, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(first.child, "SIGKILL"));
  // The engine dies while the platform is validating: no processor answer was ever recorded.
  stub.script("validation", { hang: true }, { hang: true });
  const oid = orderId("midway");
  const payoutOid = orderId("midway-po");
  const edge = `http://127.0.0.1:${first.line.edgePort}`;
  const plat = { merchant_id: "m-plat", frontend: "plat-usd", notification_url: `${stub.url}/notify` };
  const inFlight = [
    processSale(edge, { ...plat, order_id: oid }).catch(() => undefined),
    processSale(edge, { ...plat, order_id: payoutOid, transaction_type: "payout", cvv: undefined }).catch(() => undefined),
  ];
  const [validation] = await stub.waitFor("validation", (c) => (c.body as { order_id?: string }).order_id === oid);
  const [payoutValidation] = await stub.waitFor("validation", (c) => (c.body as { order_id?: string }).order_id === payoutOid);
  const traceId = (validation.body as { trace_id: number }).trace_id;
  const payoutTraceId = (payoutValidation.body as { trace_id: number }).trace_id;
  await stopProcess(first.child, "SIGKILL");
  await Promise.all(inFlight);

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.teardown(() => client.end());
  const [row] = (await client.query("select status, next_check_at from transaction where trace_id = $1", [traceId])).rows;
  t.same(row, { status: "pending", next_check_at: null }, "left pending, nothing planned for it");

  // Eleven minutes pass (the sweep looks after two, "no record" is believed after ten):
  // age the attempt, and the sweep's watermark with it, instead of waiting.
  await client.query("update recovery_watermark set scanned_to = scanned_to - interval '20 minutes'");
  await client.query("update transaction set created_at = created_at - interval '11 minutes' where trace_id = any($1)", [[traceId, payoutTraceId]]);
  const second = await launch("engine/main.ts", env, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(second.child));
  const [rfd] = await stub.waitFor("record_failed_deposit", (c) => (c.body as { TraceID?: number }).TraceID === traceId);
  t.match(rfd.body, { errorCode: "9001" }, "the processor had no record of it: a failed deposit (E)");
  const [n] = await stub.waitFor("notification", (c) => (c.body as { order_id?: string }).order_id === oid);
  t.match(n.body, { transaction_status: "declined", error_code: 9001 }, "and the platform is told");
  const [after] = (await client.query("select status, deposit_state, next_check_at from transaction where trace_id = $1", [traceId])).rows;
  t.same(after, { status: "declined", deposit_state: "E", next_check_at: null }, "final, nothing more to check");
  // The payout stopped in requested before it was sent: nothing was paid, the platform is told J.
  const [j] = await stub.waitFor("update_payout", (c) => (c.body as { TraceID?: number }).TraceID === payoutTraceId);
  t.match(j.body, { Status: "J", ExtPayoutID: payoutOid }, "the interrupted payout is rejected (J), which tells the platform to release the funds");
  const [po] = (await client.query("select status, payout_letter, error_code from transaction where trace_id = $1", [payoutTraceId])).rows;
  t.same(po, { status: "declined", payout_letter: "J", error_code: 9001 });
});
