/**
 * The role the engine serves as, on a migrated database of this file's own:
 * made by a superuser owner, with rows to read and write and nothing more;
 * not made, with the reason, when the URL's user is not a superuser (even
 * with CREATEROLE) or the URL has no password (the engine then serves as that user). The
 * whole service serving as it is in test/e2e/transition-guard.test.ts.
 */
import t from "tap";
import { migrate, openOrm } from "../../../../engine/store/orm.ts";
import { prepareServiceRole, scramVerifier, serviceRoleName, serviceRoleUrl } from "../../../../engine/store/service-role.ts";
import { sqlOutcome } from "../../../support/sql-outcome.ts";
import { acquireDatabase } from "../../../support/test-database.ts";

const db = await acquireDatabase();
t.teardown(() => db.release());
const owner = await openOrm(db.url, () => {}, { bounded: false });
t.teardown(() => owner.close());
await migrate(owner, () => {});

t.test("a superuser owner: the service role, its URL, rows only", async (t) => {
  const made = await prepareServiceRole(owner, db.url);
  t.same(made, { url: serviceRoleUrl(db.url) });
  const role = serviceRoleName(db.name);
  t.equal(decodeURIComponent(new URL(made.url!).username), role, "the database's own role");
  t.equal(await sqlOutcome(made.url!, "update recovery_watermark set scanned_to = scanned_to"), "done", "it writes rows");
  t.equal(await sqlOutcome(made.url!, "create table intruder (x int)"), "42501", "but no schema");
  t.same(await prepareServiceRole(owner, db.url), made, "a second start keeps it as it is");

  // Changed by hand since: more rights, another password. The next start sets it right again.
  const exec = (sql: string) => owner.em.fork().execute(sql);
  await exec(`alter role "${role}" createdb bypassrls password 'changed-by-hand'`);
  await exec(`grant truncate, trigger on audit_log to "${role}"`);
  t.same(await prepareServiceRole(owner, db.url), made);
  const [attrs] = await exec(`select rolcreatedb, rolbypassrls, rolsuper from pg_roles where rolname = '${role}'`);
  t.same(attrs, { rolcreatedb: false, rolbypassrls: false, rolsuper: false }, "its attributes are set anew");
  t.equal(await sqlOutcome(made.url!, "truncate audit_log"), "42501", "and its grants: no truncate of the audit log");
  t.equal(await sqlOutcome(made.url!, "select 1"), "done", "its password is the derived one again");
  const [stored] = await exec(`select rolpassword from pg_authid where rolname = '${role}'`);
  t.match(stored, { rolpassword: /^SCRAM-SHA-256\$4096:/ }, "kept as a SCRAM verifier, set as one: the password never went to the server as text");

  // Made a member of the owner: it could SET ROLE to it. The start stops, naming it.
  const [{ me }] = (await exec("select current_user as me")) as [{ me: string }];
  await exec(`grant "${me}" to "${role}"`);
  await t.rejects(prepareServiceRole(owner, db.url), { name: "StartError", message: new RegExp(`${role} was made a member of another role`) });
  await exec(`revoke "${me}" from "${role}"`);
});

t.test("every table has its access decided: a table a later migration adds fails here until it is put in a class", async (t) => {
  await prepareServiceRole(owner, db.url);
  const role = serviceRoleName(db.name);
  const rows = (await owner.em.fork().execute(
    `select c.relname as name,
       has_table_privilege('${role}', c.oid, 'SELECT') as s, has_table_privilege('${role}', c.oid, 'INSERT') as i,
       has_table_privilege('${role}', c.oid, 'UPDATE') as u, has_table_privilege('${role}', c.oid, 'DELETE') as d
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
  )) as { name: string; s: boolean; i: boolean; u: boolean; d: boolean }[];
  const access = Object.fromEntries(rows.map((r) => [r.name, `${r.s ? "r" : "-"}${r.i ? "a" : "-"}${r.u ? "w" : "-"}${r.d ? "d" : "-"}`]));
  const ROWS = "rawd";
  t.same(access, {
    acquirer_webhook_event: "ra-d",
    acquirer_webhook_event_key: "ra-d",
    allowed_transition: "r---",
    audit_checkpoint: "ra--",
    audit_log: "ra--",
    // Frontends' logos: named by their content (032), added and never changed.
    brand_logo: "ra--",
    callback: ROWS,
    callback_attempt: "ra-d",
    card_token: ROWS,
    cashier_session: ROWS,
    console_session: ROWS,
    customer_block: ROWS,
    customer_note: "ra--",
    four_eyes_threshold: ROWS,
    frontend: ROWS,
    hosted_session: ROWS,
    merchant: ROWS,
    mikro_orm_migrations: "r---",
    operator: ROWS,
    operator_passkey: ROWS,
    operator_preference: ROWS,
    operator_saved_search: ROWS,
    payment_order: ROWS,
    payout_first_approval: ROWS,
    payout_hold: ROWS,
    processor_account: ROWS,
    recovery_watermark: ROWS,
    refund_first_approval: ROWS,
    retention_watermark: ROWS,
    // A merchant's risk rules: admins add, change and delete them (every change audited).
    risk_rule: ROWS,
    saved_card: ROWS,
    transaction: ROWS,
    transaction_event: "ra-d",
  });
});

t.test("the months of the partitioned tables are reached through their tables only; their upkeep is the role's to call", async (t) => {
  const made = await prepareServiceRole(owner, db.url);
  const role = serviceRoleName(db.name);
  const months = (await owner.em.fork().execute(
    `select c.relname as name,
       has_table_privilege('${role}', c.oid, 'SELECT') or has_table_privilege('${role}', c.oid, 'INSERT')
         or has_table_privilege('${role}', c.oid, 'UPDATE') or has_table_privilege('${role}', c.oid, 'DELETE') as any
     from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' and c.relispartition`,
  )) as { name: string; any: boolean }[];
  t.ok(months.length >= 15, `the three tables' months and default partitions are there (${months.length})`);
  t.strictSame(
    months.filter((m) => m.any).map((m) => m.name),
    [],
    "no right on any month itself: a month named directly cannot be rewritten",
  );
  const [month] = months.filter((m) => m.name.startsWith("transaction_event_2"));
  t.equal(await sqlOutcome(made.url!, `update ${month.name} set cause = 'rewritten'`), "42501", `update ${month.name}: refused`);
  t.equal(await sqlOutcome(made.url!, "update transaction_event set cause = 'rewritten'"), "42501", "update through the table: refused, as before");
  t.equal(
    await sqlOutcome(made.url!, "select cashier_partitions_create('callback_attempt', now(), now() + interval '3 months')"),
    "done",
    "the upkeep runs as the role",
  );
  t.equal(await sqlOutcome(made.url!, "select cashier_partitions_create('audit_log', now(), now())"), "22023", "on the three monthly tables only");
  const other = `cashier_t_other_${process.pid}`;
  await owner.em.fork().execute(`drop role if exists ${other}`);
  await owner.em.fork().execute(`create role ${other}`);
  t.teardown(() => owner.em.fork().execute(`drop role if exists ${other}`));
  const [{ may }] = (await owner.em
    .fork()
    .execute(`select has_function_privilege('${other}', 'cashier_partitions_detach(text, timestamptz)', 'EXECUTE') as may`)) as [{ may: boolean }];
  t.equal(may, false, "another role of the cluster may not call it");
});

t.test("a SCRAM verifier that Postgres takes: the password signs in", async (t) => {
  const user = `cashier_t_scram_${process.pid}`;
  const exec = (sql: string) => owner.em.fork().execute(sql);
  await exec(`drop role if exists ${user}`);
  await exec(`create role ${user} login password '${scramVerifier("p@ss w/ord:é")}'`);
  await exec(`grant connect on database "${db.name}" to ${user}`);
  t.teardown(async () => {
    await exec(`revoke connect on database "${db.name}" from ${user}`);
    await exec(`drop role if exists ${user}`);
  });
  const u = new URL(db.url);
  u.username = user;
  u.password = encodeURIComponent("p@ss w/ord:é");
  t.equal(await sqlOutcome(u.toString(), "select 1"), "done");
});

t.test("not a superuser, CREATEROLE without owning the tables, or no password to derive from: the URL's own user, and why", async (t) => {
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
  t.match(await prepareServiceRole(plain, u.toString()), {
    url: undefined,
    why: `the database URL's user ${user} is neither a superuser nor, with CREATEROLE, the owner of the database and of every table in it`,
  });

  const noPassword = new URL(db.url);
  noPassword.password = "";
  t.match(await prepareServiceRole(owner, noPassword.toString()), { url: undefined, why: /carries no password/ });
});

t.test("databases whose names differ only in case, punctuation or past the 63rd byte have roles of their own", async (t) => {
  t.equal(serviceRoleName("cashier"), "cashier_service_cashier", "a plain name is kept as it is");
  const names = ["pay-eu", "pay_eu", "Pay_EU", "pay.eu", `${"x".repeat(60)}a`, `${"x".repeat(60)}b`];
  const roles = names.map(serviceRoleName);
  t.equal(new Set(roles).size, names.length, roles.join(", "));
  for (const r of roles) t.ok(/^[a-z0-9_]{1,63}$/.test(r), `${r}: a Postgres name that needs no quoting`);

  // On the cluster: two databases named so, each migrated, each with its role; neither role reads the other's rows.
  const admin = new URL(db.url);
  admin.pathname = "/postgres";
  const exec = (sql: string) => owner.em.fork().execute(sql);
  const made: { name: string; url: string }[] = [];
  for (const name of [`${db.name}-pun`, `${db.name}_pun`]) {
    await sqlOutcome(admin.toString(), `create database "${name}"`);
    const u = new URL(db.url);
    u.pathname = `/${encodeURIComponent(name)}`;
    made.push({ name, url: u.toString() });
  }
  t.teardown(async () => {
    for (const { name } of made) await sqlOutcome(admin.toString(), `drop database if exists "${name}" with (force)`);
    for (const { name } of made) await exec(`drop role if exists "${serviceRoleName(name)}"`).catch(() => {});
  });
  const served: string[] = [];
  for (const { url } of made) {
    const orm = await openOrm(url, () => {}, { bounded: false });
    try {
      await migrate(orm, () => {});
      const r = await prepareServiceRole(orm, url);
      served.push(r.url!);
    } finally {
      await orm.close();
    }
  }
  t.not(new URL(served[0]).username, new URL(served[1]).username, "two roles");
  for (const [mine, other] of [
    [0, 1],
    [1, 0],
  ]) {
    t.equal(await sqlOutcome(served[mine], "select count(*) from audit_log"), "done", `${made[mine].name}: its own rows`);
    const across = new URL(served[mine]);
    across.pathname = new URL(made[other].url).pathname;
    t.equal(await sqlOutcome(across.toString(), "select count(*) from audit_log"), "42501", `${made[mine].name}'s role: not the other's`);
  }
});

t.test("a managed Postgres's admin user (CREATEROLE, owner of the database it migrated, no superuser): the service role too", async (t) => {
  const exec = (sql: string) => owner.em.fork().execute(sql);
  const admin = new URL(db.url);
  admin.pathname = "/postgres";
  const user = `cashier_t_owner_${process.pid}`;
  const name = `${db.name}_own`;
  const role = serviceRoleName(name);
  await exec(`drop role if exists ${user}`);
  await exec(`create role ${user} login createrole password 'owner-password'`);
  await sqlOutcome(admin.toString(), `create database "${name}" owner ${user}`);
  t.teardown(async () => {
    await sqlOutcome(admin.toString(), `drop database if exists "${name}" with (force)`);
    await exec(`drop role if exists ${role}`);
    await exec(`drop role if exists ${user}`);
  });
  const u = new URL(db.url);
  u.username = user;
  u.password = "owner-password";
  u.pathname = `/${name}`;
  const mine = await openOrm(u.toString(), () => {}, { bounded: false });
  t.teardown(() => mine.close());
  await migrate(mine, () => {});

  const made = await prepareServiceRole(mine, u.toString());
  t.same(made, { url: serviceRoleUrl(u.toString()) }, "made by the owner");
  t.equal(decodeURIComponent(new URL(made.url!).username), role);
  t.equal(await sqlOutcome(made.url!, "update recovery_watermark set scanned_to = scanned_to"), "done", "it writes rows");
  t.equal(await sqlOutcome(made.url!, "create table intruder (x int)"), "42501", "but no schema");
  t.equal(await sqlOutcome(made.url!, "truncate audit_log"), "42501", "nor truncates the audit log");
  t.equal(await sqlOutcome(made.url!, "delete from allowed_transition"), "42501", "nor rewrites the rules");
  const [attrs] = await exec(`select rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls from pg_roles where rolname = '${role}'`);
  t.same(attrs, { rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolreplication: false, rolbypassrls: false }, "no power");
  t.same(await prepareServiceRole(mine, u.toString()), made, "a second start keeps it");

  // A power the owner may not take away (only a role with BYPASSRLS may clear it): the start stops, naming it.
  await exec(`alter role ${role} bypassrls`);
  await t.rejects(prepareServiceRole(mine, u.toString()), {
    name: "StartError",
    message: `the database role ${role} has BYPASSRLS, which ${user} may not take away`,
  });
  await exec(`alter role ${role} nobypassrls`);

  // The role as if made by someone else: the owner holds no ADMIN on it. The start stops, saying what to grant.
  await exec(`revoke admin option for ${role} from ${user}`);
  await t.rejects(prepareServiceRole(mine, u.toString()), {
    name: "StartError",
    message: new RegExp(`^${user} may not set up the database role ${role}`),
    fix: new RegExp(`GRANT ${role} TO ${user} WITH ADMIN OPTION`),
  });
  await exec(`grant ${role} to ${user} with admin option`);
  t.same(await prepareServiceRole(mine, u.toString()), made, "with ADMIN granted, it is set up");
});

t.test("an upgrade: the plain-named role an unusual database name shared keeps no right there; the bound rides on the role", async (t) => {
  const exec = (sql: string) => owner.em.fork().execute(sql);
  const admin = new URL(db.url);
  admin.pathname = "/postgres";
  const name = `${db.name}-leg`;
  // The role the database got before names had a hash, with the rights it had then.
  const legacy = `cashier_service_${name.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`.slice(0, 63);
  t.not(serviceRoleName(name), legacy, "the new name differs");
  await sqlOutcome(admin.toString(), `create database "${name}"`);
  await exec(`drop role if exists ${legacy}`);
  await exec(`create role ${legacy} login password 'legacy-password'`);
  t.teardown(async () => {
    await sqlOutcome(admin.toString(), `drop database if exists "${name}" with (force)`);
    await exec(`drop role if exists ${legacy}`).catch(() => {});
    await exec(`drop role if exists "${serviceRoleName(name)}"`).catch(() => {});
  });
  const u = new URL(db.url);
  u.pathname = `/${encodeURIComponent(name)}`;
  const orm = await openOrm(u.toString(), () => {}, { bounded: false });
  t.teardown(() => orm.close());
  await migrate(orm, () => {});
  await orm.em.fork().execute(`grant select, insert, update, delete on all tables in schema public to ${legacy}`);
  const asLegacy = new URL(u.toString());
  asLegacy.username = legacy;
  asLegacy.password = "legacy-password";
  t.equal(await sqlOutcome(asLegacy.toString(), "select count(*) from audit_log"), "done", "before: the old role reads its rows");

  const made = await prepareServiceRole(orm, u.toString());
  t.equal(decodeURIComponent(new URL(made.url!).username), serviceRoleName(name));
  t.equal(await sqlOutcome(asLegacy.toString(), "select count(*) from audit_log"), "42501", "after: the old role reads nothing here");
  t.equal(await sqlOutcome(made.url!, "select count(*) from audit_log"), "done", "the new one does");

  const [setting] = await exec(
    `select s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole join pg_database d on d.oid = s.setdatabase
     where r.rolname = '${serviceRoleName(name)}' and d.datname = '${name}'`,
  );
  t.same(setting, { setconfig: ["statement_timeout=9000"] }, "the role carries the statement bound (no start-up parameter a pooler would refuse)");
});
