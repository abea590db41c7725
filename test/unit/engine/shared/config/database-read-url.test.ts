/**
 * DATABASE_READ_URL as loadConfig reads it: unset or blank is no replica (every read on the primary, as before the
 * setting), a Postgres URL is kept as given, and anything else stops the start with a ConfigError naming the
 * variable, without repeating a password it held.
 */
import t from "tap";
import { ConfigError, loadConfig } from "../../../../../engine/shared/config/config.ts";

t.test("unset or blank: no replica", async (t) => {
  t.equal(loadConfig({}).databaseReadUrl, undefined);
  t.equal(loadConfig({ DATABASE_READ_URL: "" }).databaseReadUrl, undefined);
  t.equal(loadConfig({ DATABASE_READ_URL: "   " }).databaseReadUrl, undefined);
});

t.test("a Postgres URL is kept as given, a socket's directory as its host too", async (t) => {
  for (const url of [
    "postgres://cashier:s3cret@replica.internal:5433/cashier",
    "postgresql://cashier@10.0.0.7/cashier?sslmode=require",
    "postgres://cashier:pw@%2Ftmp%2Freplica:5433/cashier",
  ])
    t.equal(loadConfig({ DATABASE_READ_URL: url }).databaseReadUrl, url, url);
});

t.test("anything else names the variable and what it must be", async (t) => {
  t.throws(
    () => loadConfig({ DATABASE_READ_URL: "replica.internal:5433" }),
    /^DATABASE_READ_URL must be a Postgres URL \(postgres:\/\/user:password@host:port\/database\), got "replica\.internal:5433"$/,
  );
  t.throws(() => loadConfig({ DATABASE_READ_URL: "http://replica.internal/cashier" }), /^DATABASE_READ_URL must be a Postgres URL/);
  t.throws(() => loadConfig({ DATABASE_READ_URL: "postgres://cashier:pw@replica.internal:5433" }), /^DATABASE_READ_URL must name the database/);
  t.throws(() => loadConfig({ DATABASE_READ_URL: "postgres:///cashier" }), /^DATABASE_READ_URL must name the replica's host/);
});

t.test("a refused URL's password is not repeated", async (t) => {
  const err = t.throws(() => loadConfig({ DATABASE_READ_URL: "mysql://cashier:hunter2@db/cashier" })) as unknown as Error;
  t.ok(err instanceof ConfigError);
  t.notMatch(err.message, /hunter2/);
  t.match(err.message, /"mysql:\/\/cashier:\*\*\*@db\/cashier"/);
});
