/**
 * The session purge's statements stay index walks with a LIMIT as the tables
 * grow: console sessions and sign-ins (filled in SQL, most of them live or
 * recent) are found by console_session_end_idx, expired enrolment tokens by
 * operator_enrol_expiry_idx, never by a sequential scan. The statements are
 * the store's own (session-purge.ts), compiled and explained, not run. Plans,
 * never timings. (Hosted sessions are read by id after a watermark: the
 * primary key.)
 */
import pg from "pg";
import t from "tap";
import { consolePurge, enrolmentClear } from "../../../../../engine/retention/store/session-purge.ts";
import { typedDb } from "../../../../../engine/store/typed-db.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const SESSIONS = 60_000;
const OPERATORS = 20_000;

const engine = useEngineDeps(t);
let explainer: pg.Client;

t.before(async () => {
  explainer = new pg.Client({ connectionString: engine().orm.config.get("clientUrl") as string });
  await explainer.connect();
  // Operators, one in a hundred still enrolling (a token, its expiry spread over a year), and their sessions: a few
  // ended or expired a long time ago, the rest recent.
  await explainer.query(
    `insert into operator (login, role, state, created_by, access_issued_by, enrol_token_hash, enrol_expires_at)
     select 'plan-' || i, 'viewer', case when i % 100 = 0 then 'enrolling' else 'active' end, 'tests', 'tests',
            case when i % 100 = 0 then md5(i::text) end, case when i % 100 = 0 then now() - (i % 365) * interval '1 day' end
       from generate_series(1, $1::int) i`,
    [OPERATORS],
  );
  await explainer.query(
    `insert into console_session (token_hash, login, kind, created_at, last_seen_at, expires_at, ended_at)
     select md5('s' || i), 'plan-' || (1 + i % $2::int), case when i % 10 = 0 then 'pending' else 'session' end,
            now() - (i % 90) * interval '1 day', now() - (i % 90) * interval '1 day',
            now() - (i % 90) * interval '1 day' + interval '30 minutes', case when i % 3 = 0 then now() - (i % 90) * interval '1 day' end
       from generate_series(1, $1::int) i`,
    [SESSIONS, OPERATORS],
  );
  await explainer.query("analyze operator");
  await explainer.query("analyze console_session");
});
t.teardown(async () => {
  await explainer?.end();
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

async function plan(q: { compile(): { sql: string; parameters: readonly unknown[] } }): Promise<PlanNode[]> {
  const c = q.compile();
  const r = await explainer.query(`explain (format json) ${c.sql}`, [...c.parameters]);
  if (process.env.SHOW_PLANS) console.error(c.sql, JSON.stringify(r.rows[0]["QUERY PLAN"], null, 1));
  return nodes((r.rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0].Plan);
}

const db = () => typedDb(engine().orm.em.fork());
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);

t.test("ended console sessions and sign-ins: an index walk by end, limited", async (t) => {
  for (const kind of ["session", "pending"] as const) {
    const p = await plan(consolePurge(db(), kind, daysAgo(kind === "session" ? 30 : 1), 1000));
    t.ok(
      p.some((n) => n["Index Name"] === "console_session_end_idx"),
      `${kind}: walks console_session_end_idx (${p.map((n) => n["Index Name"] ?? n["Node Type"]).join(", ")})`,
    );
    t.ok(
      p.some((n) => n["Node Type"] === "Limit"),
      `${kind}: limited to its batch`,
    );
    t.same(
      p.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]),
      [],
      `${kind}: no sequential scan`,
    );
  }
});

t.test("expired enrolment tokens: the partial index of operators holding one, limited", async (t) => {
  const p = await plan(enrolmentClear(db(), daysAgo(1), 1000));
  t.ok(
    p.some((n) => n["Index Name"] === "operator_enrol_expiry_idx"),
    `walks operator_enrol_expiry_idx (${p.map((n) => n["Index Name"] ?? n["Node Type"]).join(", ")})`,
  );
  t.ok(p.some((n) => n["Node Type"] === "Limit"));
  t.same(
    p.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]),
    [],
    "no sequential scan",
  );
});
