/**
 * DATABASE_READ_URL: a Postgres read replica the Backoffice's searches, CSV
 * exports and dashboard may read from (docs/operations.md, "Read replicas"),
 * so that an operator's wide search never competes with payments on the
 * primary. Checked at start like every setting: a value that is not a
 * Postgres URL stops the start naming the variable, rather than failing (and
 * falling back to the primary) on every page later.
 */
import { ConfigError } from "./env-readers.ts";

const WHAT = "a Postgres URL (postgres://user:password@host:port/database)";

/** The replica's URL as given, or undefined when unset or empty (everything is read from the primary). */
export function databaseReadUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = (env[name] ?? "").trim();
  if (raw === "") return undefined;
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== "postgres:" && u.protocol !== "postgresql:")) throw new ConfigError(`${name} must be ${WHAT}, got ${shown(raw)}`);
  // A Unix socket's directory is the host, URL-encoded (postgres://user@%2Fvar%2Frun%2Fpostgresql/db), as the ORM reads it.
  if (!u.hostname) throw new ConfigError(`${name} must name the replica's host (a socket's directory URL-encoded): ${WHAT}`);
  if (u.pathname.length <= 1) throw new ConfigError(`${name} must name the database (the primary's, as the replica has it): ${WHAT}`);
  return raw;
}

/** The value as a message may show it: a password in it is never repeated. */
function shown(raw: string): string {
  return JSON.stringify(raw.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@"));
}
