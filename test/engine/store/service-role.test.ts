/**
 * The role the engine serves as, on a migrated database of this file's own:
 * made by a superuser owner, with rows to read and write and nothing more;
 * not made, with the reason, when the URL's user is not a superuser (even
 * with CREATEROLE) or the URL has no password (the engine then serves as that user). The
 * whole service serving as it is in test/e2e/transition-guard.test.ts.
 */
import pg from "pg";
import t from "tap";
import { migrate, openOrm } from "../../../engine/store/orm.ts";
import { prepareServiceRole, SERVICE_ROLE, serviceRoleUrl } from "../../../engine/store/service-role.ts";
import { acquireDatabase } from "../../support/test-database.ts";

const db = await acquireDatabase();
t.teardown(() => db.release());
const owner = await openOrm(db.url, () => {}, { bounded: false });
t.teardown(() => owner.close());
await migrate(owner, () => {});

async function as(url: string, sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query(sql);
    return "done";
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

t.test("a superuser owner: the service role, its URL, rows only", async (t) => {
  const made = await prepareServiceRole(owner, db.url);
  t.same(made, { url: serviceRoleUrl(db.url) });
  t.equal(decodeURIComponent(new URL(made.url!).username), SERVICE_ROLE);
  t.equal(await as(made.url!, "update recovery_watermark set scanned_to = scanned_to"), "done", "it writes rows");
  t.equal(await as(made.url!, "create table intruder (x int)"), "42501", "but no schema");
  t.same(await prepareServiceRole(owner, db.url), made, "a second start keeps it as it is");
});

t.test("not a superuser (even with CREATEROLE), or no password to derive from: the URL's own user, and why", async (t) => {
  const user = `cashier_t_plain_${process.pid}`;
  const u = new URL(db.url);
  await owner.em.fork().execute(`drop role if exists ${user}`);
  await owner.em.fork().execute(`create role ${user} login createrole password 'plain-password'`);
  await owner.em.fork().execute(`grant connect on database "${db.name}" to ${user}`);
  t.teardown(async () => {
    await owner.em.fork().execute(`revoke connect on database "${db.name}" from ${user}`);
    await owner.em.fork().execute(`drop role if exists ${user}`);
  });
  u.username = user;
  u.password = "plain-password";
  const plain = await openOrm(u.toString(), () => {}, { bounded: false });
  t.teardown(() => plain.close());
  t.match(await prepareServiceRole(plain, u.toString()), { url: undefined, why: `the database URL's user ${user} is not a superuser` });

  const noPassword = new URL(db.url);
  noPassword.password = "";
  t.match(await prepareServiceRole(owner, noPassword.toString()), { url: undefined, why: /carries no password/ });
});
