/**
 * The role the engine serves as: least privilege. Migrations and the start-up
 * steps run as the database URL's user, which owns the schema. When that user
 * is a superuser (the embedded default, the compose file's, the tests'
 * cluster's, an operator's admin URL), the serving pool connects as
 * `cashier_service` instead, which may read and write rows and nothing more: it
 * cannot change the schema or switch a trigger off, cannot update, delete or
 * truncate the audit log, and cannot touch the table of allowed transitions or
 * the migrations' record. A flaw that let a caller run SQL through the engine
 * would meet those walls too.
 *
 * Its password is derived from the URL's (HMAC), so every engine on one
 * database derives the same one and none needs to be stored. When the URL's user
 * is not a superuser (one with CREATEROLE alone may lack the grant options on
 * tables it does not own, and GRANT would only warn), the URL carries no
 * password, or the role cannot sign in
 * (a pg_hba.conf that admits only the URL's user), the engine serves as the
 * URL's user, as before, and says so.
 */
import { createHmac } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";

export const SERVICE_ROLE = "cashier_service";

/** Tables the service role may read but never write: the rules the triggers enforce, and the schema's own record. */
const READ_ONLY = ["allowed_transition", "mikro_orm_migrations"];
/** Append-only: the service role adds rows and reads them. */
const APPEND_ONLY = ["audit_log"];

/** The service role's password on the database of `url`: derived from the owner's, never stored. */
export function servicePassword(ownerPassword: string): string {
  return createHmac("sha256", ownerPassword).update(`cashier:${SERVICE_ROLE}`).digest("base64url");
}

/** `url` with the service role's name and password. */
export function serviceRoleUrl(url: string): string {
  const u = new URL(url);
  const password = servicePassword(decodeURIComponent(u.password));
  u.username = SERVICE_ROLE;
  u.password = encodeURIComponent(password);
  return u.toString();
}

type Exec = (sql: string) => Promise<Record<string, unknown>[]>;

/** Whether `url`'s role signs in, or the code it was refused with. */
async function signsIn(url: string): Promise<true | string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Makes (or keeps) the service role and its grants on this database, on the
 * start-up pool under the start-up lock; the URL the serving pool should use,
 * or undefined to serve as the URL's own user (`why` says why).
 */
export async function prepareServiceRole(startup: MikroORM, url: string): Promise<{ url: string } | { url: undefined; why: string }> {
  const exec: Exec = (sql) => startup.em.fork().execute(sql);
  const u = new URL(url);
  if (!u.password) return { url: undefined, why: "the database URL carries no password to derive the service role's from" };
  const [me] = await exec("select current_user as name, rolsuper as can from pg_roles where rolname = current_user");
  if (me?.name === SERVICE_ROLE) return { url: undefined, why: `the database URL's user is ${SERVICE_ROLE} itself` };
  if (!me?.can)
    return { url: undefined, why: `the database URL's user ${String(me?.name)} is not a superuser, which alone may make the role and grant it every table` };

  // Several engines (or test files on one cluster) may start at once: a role made meanwhile is kept.
  await exec(
    `do $$ begin create role ${SERVICE_ROLE} login nosuperuser nocreatedb nocreaterole noreplication nobypassrls noinherit;
     exception when duplicate_object or unique_violation then null; end $$`,
  );
  const [{ db }] = (await exec("select current_database() as db")) as [{ db: string }];
  await exec(`grant connect, temporary on database ${quoteIdent(db)} to ${SERVICE_ROLE}`);
  await exec(`grant usage on schema public to ${SERVICE_ROLE}`);
  await exec(`grant select, insert, update, delete on all tables in schema public to ${SERVICE_ROLE}`);
  await exec(`grant usage, select on all sequences in schema public to ${SERVICE_ROLE}`);
  await exec(`revoke insert, update, delete, truncate on ${READ_ONLY.join(", ")} from ${SERVICE_ROLE}`);
  await exec(`revoke update, delete, truncate on ${APPEND_ONLY.join(", ")} from ${SERVICE_ROLE}`);

  const serving = serviceRoleUrl(url);
  let signed = await signsIn(serving);
  // 28P01: not this password yet (a new role, or the owner's password changed since). Two engines setting the same
  // value at once may collide on the role's row: one more try.
  for (let i = 0; signed === "28P01" && i < 3; i++) {
    const password = servicePassword(decodeURIComponent(u.password)).replaceAll("'", "''");
    await exec(`alter role ${SERVICE_ROLE} password '${password}'`).catch((err: { code?: string }) => {
      if (err.code !== "XX000" && err.code !== "40001") throw err;
    });
    signed = await signsIn(serving);
  }
  if (signed !== true) return { url: undefined, why: `${SERVICE_ROLE} could not sign in (${signed})` };
  return { url: serving };
}
