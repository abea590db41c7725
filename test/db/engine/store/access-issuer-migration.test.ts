/**
 * Migration 015 on a database that already has operators (an upgrade): each
 * operator's access is issued by whoever last reset it successfully, as the
 * audit log says, or else by its creator. Run for real: the migrations up to
 * 014 on an empty schema, the rows an older engine wrote, then 015.
 */
import t from "tap";
import { migrate, openOrm } from "../../../../engine/store/orm.ts";
import { testDatabase } from "../../../support/processes.ts";

t.test("an upgrade takes each operator's access issuer from its last successful reset, or its creator", async (t) => {
  const db = await testDatabase();
  t.teardown(() => db.stop());
  const orm = await openOrm(db.url, () => {}, { bounded: false });
  t.teardown(() => orm.close());
  const sql = <T>(text: string) => orm.em.fork().getConnection().execute<T[]>(text);
  // The run's databases come migrated: start this one over, as a database of the version before.
  await sql("drop schema public cascade; create schema public;");
  await orm.migrator.up({ to: "014-session-retention" });

  await sql(`insert into operator (login, role, state, created_by) values
    ('ann', 'viewer', 'active', 'cli:root'),
    ('bob', 'payouts', 'active', 'alice'),
    ('bo', 'payouts', 'active', 'alice'),
    ('eve', 'support', 'enrolling', 'alice')`);
  const audit = (id: number, actor: string, action: string, outcome: string, target: string) =>
    `(${id}, now(), '${actor}', '${action}', '${outcome}', '${target}', '', 'h${id}')`;
  await sql(`insert into audit_log (id, at, actor, action, outcome, target, prev_hash, hash) values
    ${[
      audit(1, "carol", "operator.reset", "success", "operator:bob"),
      audit(2, "dave", "operator.reset", "success", "operator:bob"),
      audit(3, "mallory", "operator.reset", "failure", "operator:bob"),
      audit(4, "frank", "operator.reset", "failure", "operator:eve"),
      audit(5, "grace", "operator.update", "success", "operator:ann"),
    ].join(",\n    ")}`);

  await migrate(orm, () => {});
  const rows = await sql<{ login: string; access_issued_by: string }>("select login, access_issued_by from operator order by login");
  t.same(
    rows.map((r) => [r.login, r.access_issued_by]),
    [
      ["ann", "cli:root"],
      ["bo", "alice"],
      ["bob", "dave"],
      ["eve", "alice"],
    ],
    "the last successful reset wins; a refused reset, another action or another operator's reset does not count",
  );
  await sql("insert into operator (login, role, state, created_by) values ('zed', 'viewer', 'enrolling', 'older-engine')");
  const [zed] = await sql<{ access_issued_by: string }>("select access_issued_by from operator where login = 'zed'");
  t.equal(zed.access_issued_by, "", "an older engine's insert, without the column, still works");
});
