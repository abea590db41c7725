/**
 * The session purge against the running service and its Postgres, with the
 * service's clock moved on: console sessions ended (signed out) or expired
 * more than the period ago go, and unfinished sign-ins and enrolment tokens a
 * day after their expiry; what is fresh or live stays; a hosted Cashier
 * session an order names is kept for good, one without an order goes; each
 * step deletes at most its batch. The service's own purge of sessions is off
 * here (periods of 0), so every deletion seen is one of these steps.
 */
import t from "tap";
import type { MikroORM } from "@mikro-orm/postgresql";
import { migrate, openOrm } from "../../engine/store/orm.ts";
import { PgRetentionStore } from "../../engine/retention/store/retention-store.ts";
import type { SessionRetention } from "../../engine/retention/ports/ports.ts";
import { postSession, sessionBody } from "../support/cashier-session.ts";
import { movableClock } from "../support/clock.ts";
import { backofficeClient, ctx, enrolOperator, PASSWORD } from "../support/operators.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const DAY = 86_400_000;
const clock = movableClock();
const svc = useService(t, { CASHIER_RETENTION_SESSION_DAYS: "0", CASHIER_RETENTION_SIGN_IN_HOURS: "0" }, { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

let orm: MikroORM;
t.before(async () => {
  orm = await openOrm(svc().engine.databaseUrl, () => {});
  await migrate(orm, () => {});
});
t.teardown(async () => {
  await orm?.close();
});

const count = async (sql: string, params: unknown[] = []) => (await svc().sql<{ n: number }>(sql, params))[0].n;

/** Steps the purge of `kind` with `batch` until a step deletes nothing; every step's count. */
async function purgeAll(kind: SessionRetention, ageMs: number, batch: number): Promise<number[]> {
  const store = new PgRetentionStore(orm);
  const steps: number[] = [];
  for (let i = 0; i < 100; i++) {
    const n = await store.purgeSessions(kind, new Date(clock.now().getTime() - ageMs), batch);
    steps.push(n);
    if (n === 0) break;
  }
  return steps;
}

const startHosted = async () => {
  const r = await postSession(svc().edgeUrl, sessionBody({ timestamp: Math.floor(clock.now().getTime() / 1000), pin: orderId("pin") }));
  t.equal(r.body.status, 0, r.body.description);
  return (await svc().sql<{ id: number }>("select max(id)::int as id from hosted_session"))[0].id;
};

t.test("old ended sessions, sign-ins and enrolment tokens go; fresh and live ones stay; steps stay within their batch", async (t) => {
  // Then: three operators, each enrolled and signed in; two sign out, the third's session just expires.
  const ops = [];
  for (const login of ["ret-a", "ret-b", "ret-c"]) ops.push(await enrolOperator(svc(), bo(), clock, login, "viewer"));
  await bo().signOut({ context: ctx(ops[0].sessionToken) });
  await bo().signOut({ context: ctx(ops[1].sessionToken) });
  // Two sign-ins never finished, and an enrolment never used.
  await bo().signIn({ context: ctx(), login: "ret-a", password: PASSWORD });
  await bo().signIn({ context: ctx(), login: "ret-b", password: PASSWORD });
  await svc().admin.createOperator({ login: "ret-never", role: 1, merchantIds: [], operator: "tests" });
  // Two hosted sessions: an order is made in one of them.
  const lone = await startHosted();
  const withOrder = await startHosted();
  const sale = await processSale(svc().edgeUrl, { order_id: orderId("ret") });
  await svc().sql("update payment_order set session_ref = $1 where id = (select order_ref from transaction where trace_id = $2)", [
    withOrder,
    sale.body.trace_id,
  ]);

  const oldSessions = await count("select count(*)::int as n from console_session where kind = 'session'");
  const oldPending = await count("select count(*)::int as n from console_session where kind = 'pending'");
  t.ok(oldSessions >= 3, `sessions then: ${oldSessions}`);
  t.ok(oldPending >= 2, `pending sign-ins then: ${oldPending}`);

  // A month and a day later: a fresh sign-in (live), a fresh unfinished one, a fresh hosted session, a fresh enrolment.
  clock.advance(31 * DAY);
  const live = await enrolOperator(svc(), bo(), clock, "ret-now", "viewer");
  await bo().signIn({ context: ctx(), login: "ret-now", password: PASSWORD });
  const fresh = await startHosted();
  await svc().admin.createOperator({ login: "ret-new", role: 1, merchantIds: [], operator: "tests" });

  const sessionSteps = await purgeAll("console_session", 30 * DAY, 2);
  t.ok(
    sessionSteps.every((n) => n <= 2),
    `each step within its batch: ${sessionSteps.join(", ")}`,
  );
  t.equal(
    sessionSteps.reduce((a, b) => a + b, 0),
    oldSessions,
    "every old session went",
  );
  t.same(await svc().sql("select login from console_session where kind = 'session'"), [{ login: "ret-now" }], "the live session stays");
  t.equal((await bo().getConsoleSession({ context: ctx(live.sessionToken) })).session?.operator?.login, "ret-now", "and still works");

  const pendingSteps = await purgeAll("console_sign_in", DAY, 1);
  t.ok(
    pendingSteps.every((n) => n <= 1),
    `one per step: ${pendingSteps.join(", ")}`,
  );
  t.equal(
    pendingSteps.reduce((a, b) => a + b, 0),
    oldPending,
  );
  t.same(await svc().sql("select login from console_session where kind = 'pending'"), [{ login: "ret-now" }], "the fresh sign-in stays");

  t.same(await purgeAll("enrolment_token", DAY, 10), [1, 0], "the old enrolment token is cleared");
  t.same(
    await svc().sql("select login, state, enrol_token_hash is not null as token from operator where login in ('ret-never', 'ret-new') order by login"),
    [
      { login: "ret-never", state: "enrolling", token: false },
      { login: "ret-new", state: "enrolling", token: true },
    ],
    "the operator is kept, only its expired token is gone",
  );

  const hostedSteps = await purgeAll("hosted_session", 30 * DAY, 1);
  t.ok(
    hostedSteps.every((n) => n <= 1),
    `one per step: ${hostedSteps.join(", ")}`,
  );
  const left = (await svc().sql<{ id: number }>("select id::int as id from hosted_session order by id")).map((r) => r.id);
  t.notOk(left.includes(lone), "the old session without an order went");
  t.ok(left.includes(withOrder), "the one an order names stays");
  t.ok(left.includes(fresh), "the fresh one stays");
  t.equal(await count("select count(*)::int as n from payment_order where session_ref = $1", [withOrder]), 1, "its order still names it");
});

t.test("two engines purging at once delete each ended session once", async (t) => {
  const end = new Date(clock.now().getTime() - 40 * DAY);
  await svc().sql(
    `insert into console_session (token_hash, login, kind, created_at, last_seen_at, expires_at, ended_at)
     select md5('two-' || i), 'ret-now', 'session', $1, $1, $1, $1 from generate_series(1, 60) i`,
    [end],
  );
  const a = new PgRetentionStore(orm);
  const b = new PgRetentionStore(orm);
  const cut = () => new Date(clock.now().getTime() - 30 * DAY);
  const drain = async (s: PgRetentionStore) => {
    let total = 0;
    for (let i = 0; i < 100; i++) {
      const n = await s.purgeSessions("console_session", cut(), 7);
      t.ok(n <= 7, "within the batch");
      total += n;
      if (n === 0) break;
    }
    return total;
  };
  const [x, y] = await Promise.all([drain(a), drain(b)]);
  t.equal(x + y, 60, `all 60 gone, each once (${x} + ${y})`);
  t.equal(await count("select count(*)::int as n from console_session where ended_at = $1", [end]), 0);
  t.equal(await count("select count(*)::int as n from console_session where kind = 'session'"), 1, "the live one stays");
});
