/**
 * The role the engine serves as: least privilege. Migrations and the start-up
 * steps run as the database URL's user, which owns the schema. When that user
 * is a superuser (the embedded default, the compose file's, the tests'
 * cluster's, an operator's admin URL), the serving pool connects as the
 * database's own service role instead, `cashier_service_<database>`, which may
 * read and write rows and nothing more: it cannot change the schema or switch a
 * trigger off, cannot update, delete or truncate the audit log, cannot
 * rewrite a transaction's or a callback's history (the retention purge may
 * delete it), and cannot touch the table of allowed transitions or the
 * migrations' record. A flaw
 * that let a caller run SQL through the engine would meet those walls too.
 *
 * Roles belong to the cluster, so each database has its own (two databases on
 * one cluster, with different owners' passwords, never reset each other's).
 * Every start sets the role's attributes and grants anew, whatever an earlier
 * hand changed, and refuses to use a role that was made a member of another.
 * Its password is derived from the URL's (HMAC), so every engine on one
 * database derives the same one and none needs to be stored; it is set as a
 * SCRAM verifier, so the password itself never reaches Postgres's log.
 *
 * The URL's user makes the role when it is a superuser, or when it has
 * CREATEROLE and owns the database and every table in it (a managed
 * Postgres's admin user, which ran the migrations): then it may grant every
 * table. Otherwise (CREATEROLE alone may lack the grant options on tables it
 * does not own, and GRANT would only warn), or when the URL carries no password, or the server's pg_hba.conf admits the role by no
 * password, the engine serves as the URL's user, as before, and says so. Any
 * other failure to sign in as the role stops the start: an engine must not
 * quietly serve as superuser beside others that do not.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import { StartError } from "../shared/runtime/start-error.ts";
import { STATEMENT_TIMEOUT_MS } from "./orm.ts";

const ROLE_PREFIX = "cashier_service_";
/** Postgres keeps 63 bytes of a name. */
const NAME_MAX = 63;

/**
 * The service role of a database: `cashier_service_<database>` when the
 * database's name is lowercase letters, digits and underscores and fits;
 * otherwise the name made so, shortened, and 8 hex digits of its hash, so that
 * databases whose names differ only in case or punctuation ("pay-eu" and
 * "pay_eu") or past the 63rd byte never share one role (each start would reset
 * the other's password).
 */
/** The name the role had before unusual names got a hash: lowercased, punctuation to `_`, cut to 63 bytes. */
function legacyRoleName(database: string): string {
  return `${ROLE_PREFIX}${database.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`.slice(0, NAME_MAX);
}

export function serviceRoleName(database: string): string {
  const plain = `${ROLE_PREFIX}${database}`;
  if (/^[a-z0-9_]+$/.test(database) && plain.length <= NAME_MAX) return plain;
  const tag = createHash("sha256").update(database).digest("hex").slice(0, 8);
  const made = database.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  const head = `${ROLE_PREFIX}${made}`.slice(0, NAME_MAX - tag.length - 1);
  return `${head}_${tag}`;
}

/** Tables the service role may read but never write: the rules the triggers enforce, and the schema's own record. */
const READ_ONLY = ["allowed_transition", "mikro_orm_migrations"];
/** Append-only: the service role adds rows and reads them. The audit chain's signed checkpoints (021) too: a checkpoint rewritten or deleted would hide a cut tail. Operators' notes on customers (026): kept as written. Frontends' logos (032): named by their content, never changed. */
const APPEND_ONLY = ["audit_log", "audit_checkpoint", "customer_note", "brand_logo"];
/** History: added and read, never rewritten; the retention purge deletes old rows. The acquirers' webhook inbox too: an event is kept as it came. */
const HISTORY = ["transaction_event", "callback_attempt", "acquirer_webhook_event", "acquirer_webhook_event_key"];
/** The monthly tables' upkeep (migration 022): run as the schema's owner, called by the retention worker. */
const UPKEEP = [
  "cashier_partitions_create(text, timestamptz, timestamptz)",
  "cashier_partitions_detach(text, timestamptz)",
  "cashier_partitions_drop_retired(text, timestamptz)",
];

/** The service role's password: derived from the owner's, never stored. */
export function servicePassword(ownerPassword: string, role: string): string {
  return createHmac("sha256", ownerPassword).update(`cashier:${role}`).digest("base64url");
}

/** `url` with its database's service role and password. */
export function serviceRoleUrl(url: string): string {
  const u = new URL(url);
  const role = serviceRoleName(decodeURIComponent(u.pathname.slice(1)));
  u.username = role;
  u.password = encodeURIComponent(servicePassword(decodeURIComponent(u.password), role));
  return u.toString();
}

/** A SCRAM-SHA-256 verifier of `password` (RFC 7677, as Postgres stores one): what ALTER ROLE takes instead of the password. */
export function scramVerifier(password: string, iterations = 4096): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password.normalize("NFKC"), salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
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

interface Me {
  name: string;
  db: string;
  super: boolean;
  createrole: boolean;
  createdb: boolean;
  replication: boolean;
  bypassrls: boolean;
  owns_db: boolean;
  not_owned: number;
  /** server_version_num: before 16, only a superuser may name REPLICATION or BYPASSRLS in ALTER ROLE at all. */
  version: number;
}

/**
 * The role's attributes as ALTER ROLE sets them: no power of any kind. Only a role that has an attribute may
 * set or clear it on another (Postgres 16 on; before, REPLICATION and BYPASSRLS were a superuser's alone), so one
 * without it leaves it out; the role is read back after.
 */
function attributesFor(me: Me): string {
  const mayName = (has: boolean) => me.super || (has && me.version >= 160000);
  const off = [
    me.super && "nosuperuser",
    (me.super || me.createdb) && "nocreatedb",
    "nocreaterole",
    mayName(me.replication) && "noreplication",
    mayName(me.bypassrls) && "nobypassrls",
  ].filter(Boolean);
  return ["login", ...off, "noinherit", "connection limit -1"].join(" ");
}

/**
 * Makes (or sets anew) the database's service role and its grants, on the
 * start-up pool under the start-up lock; the URL the serving pool should use,
 * or undefined to serve as the URL's own user (`why` says why).
 */
export async function prepareServiceRole(startup: MikroORM, url: string): Promise<{ url: string } | { url: undefined; why: string }> {
  const exec: Exec = (sql) => startup.em.fork().execute(sql);
  const u = new URL(url);
  if (!u.password) return { url: undefined, why: "the database URL carries no password to derive the service role's from" };
  const [me] = (await exec(
    `select current_user as name, current_database() as db, r.rolsuper as super, r.rolcreaterole as createrole,
       r.rolcreatedb as createdb, r.rolreplication as replication, r.rolbypassrls as bypassrls,
       (select d.datdba = r.oid from pg_database d where d.datname = current_database()) as owns_db,
       (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('r', 'p', 'S', 'v', 'm') and c.relowner <> r.oid) as not_owned,
       current_setting('server_version_num')::int as version
     from pg_roles r where r.rolname = current_user`,
  )) as unknown as [Me];
  const role = serviceRoleName(me.db);
  if (me.name === role) return { url: undefined, why: `the database URL's user is ${role} itself` };
  // A superuser may make the role and grant it anything. So may the owner of the database and of everything in it
  // when it has CREATEROLE (a managed Postgres's admin user: not a superuser, but the owner of what it migrated).
  if (!me.super && !(me.createrole && me.owns_db && me.not_owned === 0))
    return {
      url: undefined,
      why: `the database URL's user ${me.name} is neither a superuser nor, with CREATEROLE, the owner of the database and of every table in it, which alone may make the role and grant it every table`,
    };
  const r = quoteIdent(role);

  // Several engines may start at once on one cluster: a role made meanwhile is kept, and set as below.
  await exec(`do $$ begin create role ${r}; exception when duplicate_object or unique_violation then null; end $$`);
  const [{ n }] = (await exec(`select count(*)::int as n from pg_auth_members where member = (select oid from pg_roles where rolname = '${role}')`)) as [
    { n: number },
  ];
  if (n > 0)
    throw new StartError(
      `the database role ${role} was made a member of another role`,
      `revoke that membership (\\du ${role} in psql), or drop the role: the next start makes it anew`,
    );
  // One transaction: engines already serving as the role never see it between the revoke and the grants.
  await startup.em
    .fork()
    .transactional(async (tx) => {
      for (const sql of [
        `alter role ${r} ${attributesFor(me)}`,
        `revoke all on all tables in schema public from ${r}`,
        `revoke all on all sequences in schema public from ${r}`,
        `grant connect, temporary on database ${quoteIdent(me.db)} to ${r}`,
        `grant usage on schema public to ${r}`,
        `grant select, insert, update, delete on all tables in schema public to ${r}`,
        `grant usage, select on all sequences in schema public to ${r}`,
        `revoke insert, update, delete on ${READ_ONLY.join(", ")} from ${r}`,
        `revoke update, delete on ${APPEND_ONLY.join(", ")} from ${r}`,
        `revoke update on ${HISTORY.join(", ")} from ${r}`,
        // A month of a partitioned table is reached through its table, whose rights apply: none on the month itself,
        // or the history could be rewritten by naming its month.
        `do $$ declare m regclass; begin
           for m in select c.oid::regclass from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' and c.relispartition loop
             execute format('revoke all on %s from %I', m, '${role}');
           end loop;
         end $$`,
        `grant execute on function ${UPKEEP.join(", ")} to ${r}`,
        // The server's own bound on the role's statements (orm.ts), kept with the role rather than sent at each
        // connection's start, which a pooler such as PgBouncer would refuse.
        `alter role ${r} in database ${quoteIdent(me.db)} set statement_timeout = ${STATEMENT_TIMEOUT_MS}`,
      ])
        await tx.execute(sql);
      // Before roles were named with a hash, a database with an unusual name shared the plain-named role (which may
      // now be another database's): it keeps no right here.
      const legacy = legacyRoleName(me.db);
      if (legacy !== role && (await tx.execute(`select 1 from pg_roles where rolname = '${legacy}'`)).length > 0)
        for (const sql of [
          `revoke all on all tables in schema public from ${quoteIdent(legacy)}`,
          `revoke all on all sequences in schema public from ${quoteIdent(legacy)}`,
          `revoke all on schema public from ${quoteIdent(legacy)}`,
          `revoke connect, temporary on database ${quoteIdent(me.db)} from ${quoteIdent(legacy)}`,
        ])
          await tx.execute(sql);
    })
    .catch((err: { code?: string; message?: string }) => {
      // 42501: a role made by another (a superuser, an earlier owner) that this CREATEROLE user has no ADMIN on.
      if (err.code !== "42501") throw err;
      throw new StartError(
        `${me.name} may not set up the database role ${role}: ${err.message ?? "permission denied"}`,
        `have a superuser run GRANT ${role} TO ${me.name} WITH ADMIN OPTION, or drop the role: the next start makes it anew`,
      );
    });

  const [kept] = (await exec(`select rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls from pg_roles where rolname = '${role}'`)) as [
    Record<string, boolean>,
  ];
  const powers = Object.entries(kept)
    .filter(([, on]) => on)
    .map(([name]) => name.slice(3).toUpperCase());
  if (powers.length > 0)
    throw new StartError(
      `the database role ${role} has ${powers.join(", ")}, which ${me.name} may not take away`,
      `have a superuser run ALTER ROLE ${role} ${powers.map((p) => `NO${p}`).join(" ")}, or drop the role: the next start makes it anew`,
    );

  const serving = serviceRoleUrl(url);
  let signed = await signsIn(serving);
  // 28P01: not this password yet (a new role, or the owner's password changed since). Two engines setting it at once
  // may collide on the role's row: one more try.
  for (let i = 0; signed === "28P01" && i < 3; i++) {
    const verifier = scramVerifier(servicePassword(decodeURIComponent(u.password), role));
    await exec(`alter role ${r} password '${verifier}'`).catch((err: { code?: string }) => {
      if (err.code !== "XX000" && err.code !== "40001") throw err;
    });
    signed = await signsIn(serving);
  }
  if (signed === true) return { url: serving };
  // 28000: pg_hba.conf admits no such sign-in; 28P01 still: it takes no SCRAM password. The URL's user serves.
  if (signed === "28000" || signed === "28P01") return { url: undefined, why: `${role} is not admitted by the server (${signed})` };
  throw new StartError(`the engine could not sign in as its database role ${role} (${signed})`, "check that Postgres accepts connections, then start again");
}
