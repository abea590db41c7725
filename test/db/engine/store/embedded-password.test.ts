/**
 * The embedded cluster's superuser password, on a real cluster of this file's
 * own: each data dir gets one of its own at its first start (random, readable
 * by this user alone), the password every older cluster shared is refused, and
 * a data dir made before (its cluster still on the shared password, no file)
 * is moved to one of its own at its next start, its data kept.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";
import { sqlOutcome } from "../../../support/sql-outcome.ts";
import t from "tap";
import { embeddedPassword, passwordOf, socketDirOf, startEmbeddedPostgres } from "../../../../engine/store/embedded-postgres.ts";

const SHARED = "cashier-embedded";
const dir = mkdtempSync(join(tmpdir(), "cashier-pgpw-"));
// As root the cluster runs as the system user postgres, which must enter the directory.
chmodSync(dir, 0o755);
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** Signs in to the cluster of `url` with `password`: the server's answer, "ok" or its error code. */
async function signIn(url: string, password: string): Promise<string> {
  const u = new URL(url);
  const outcome = await sqlOutcome({ host: decodeURIComponent(u.hostname), port: Number(u.port), user: "postgres", password, database: "cashier" });
  return outcome === "done" ? "ok" : outcome;
}

t.test("a new data dir: a password of its own, the shared one refused", async (t) => {
  const db = await startEmbeddedPostgres(join(dir, "pg"), () => {});
  t.teardown(() => db.stop());
  const own = embeddedPassword(dir);
  t.ok(own && own.length >= 32 && own !== SHARED, "a random password, kept in the data dir");
  t.equal(statSync(join(dir, "embedded-postgres.password")).mode & 0o777, 0o600, "readable by this user alone");
  t.equal(new URL(db.url).password, own, "the engine's URL carries it");
  t.equal(decodeURIComponent(new URL(db.url).hostname), join(dir, "pg"), "the engine reaches it by the Unix socket in its own folder");
  const port = Number(new URL(db.url).port);
  t.equal(await passwordOf(dir, port), own, "as a command beside a running engine finds it");
  t.equal(await signIn(db.url, own!), "ok");
  t.equal(await signIn(db.url, SHARED), "28P01", "the shared password is refused (invalid_password)");
  // Make it look like a data dir of an older Cashier: the shared password and no file.
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query(`alter role postgres password '${SHARED}'`);
  await admin.query("create table kept (v text); insert into kept values ('before the move')");
  await admin.end();
  t.equal(await passwordOf(dir, port), SHARED, "a command uses the password the cluster takes, while it is not moved yet");
});

t.test("an older data dir is moved to a password of its own at its next start, its data kept", async (t) => {
  unlinkSync(join(dir, "embedded-postgres.password"));
  const said: string[] = [];
  const db = await startEmbeddedPostgres(join(dir, "pg"), (m) => said.push(m));
  t.teardown(() => db.stop());
  const own = embeddedPassword(dir);
  t.ok(own && own !== SHARED, "a password of its own now");
  t.match(said.join("\n"), /shared password was replaced by this data dir's own/, "the start says so");
  t.equal(await signIn(db.url, SHARED), "28P01", "the shared password no longer signs in");
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.same((await client.query("select v from kept")).rows, [{ v: "before the move" }], "the data is the cluster's as it was");
  await client.end();
});

t.test("a data dir too deep for a socket's address is reached over TCP on 127.0.0.1", async (t) => {
  const deep = join(dir, "d".repeat(60), "e".repeat(40));
  mkdirSync(deep, { recursive: true, mode: 0o755 });
  for (let d = deep; d !== dir; d = dirname(d)) chmodSync(d, 0o755);
  t.equal(socketDirOf(join(deep, "pg"), 54321), undefined, "the socket's path would not fit");
  t.equal(socketDirOf("/srv/cashier data/pg", 54321), undefined, "a folder that would need quoting in the setting is not used");
  t.equal(socketDirOf("/srv/cashier/pg", 54321), "/srv/cashier/pg");
  const db = await startEmbeddedPostgres(join(deep, "pg"), () => {});
  t.teardown(() => db.stop());
  t.equal(new URL(db.url).hostname, "127.0.0.1");
  t.equal(await signIn(db.url, embeddedPassword(deep)!), "ok", "it starts and takes its password");
});
