/**
 * When Postgres is gone, a platform gets a retryable 503 with a negative
 * status (never a 500 with internals), health says NOT_SERVING; when it is
 * back, both recover with no restart.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { freeze, signalPids } from "../support/child-pids.ts";
import { SERVICE_TOKEN, useService } from "../support/service.ts";
import { until as poll } from "../support/until.ts";

/** True once `what` holds, within `ms` (15 s unless said). */
const until = async (what: () => Promise<boolean>, ms = 15000) => (await poll(what, ms, 200)) === true;
import { processSale } from "../support/wire.ts";

const run = promisify(execFile);
// Its own cluster: the second test freezes the postmaster, which no other file may share.
const service = useService(t, {}, { ownCluster: true });

async function health(): Promise<string> {
  const { stdout } = await run("node_modules/.bin/buf", [
    "curl",
    "--protocol",
    "grpc",
    "--http2-prior-knowledge",
    // Health needs no token, but buf curl finds its schema through reflection, which is a service token holder's.
    "--reflect-header",
    `authorization: Bearer ${SERVICE_TOKEN}`,
    `${service().engineUrl}/grpc.health.v1.Health/Check`,
  ]);
  return JSON.parse(stdout).status;
}

/** The compose healthcheck's exit code. */
async function probe(): Promise<number> {
  try {
    await run(process.execPath, ["engine/healthcheck.ts", new URL(service().engineUrl).host]);
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

t.test("database unavailable: 503 with status -2, then recovery", async (t) => {
  t.equal((await processSale(service().edgeUrl)).http, 200);
  const db = service().databaseName;
  await service().adminSql(`alter database "${db}" allow_connections false`);
  await service().adminSql(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${db}'`);
  const down = await processSale(service().edgeUrl);
  t.equal(
    down.http,
    503,
    `HTTP 503 (${down.text}) ${
      down.http === 503
        ? ""
        : service()
            .logs()
            .split("\n")
            .filter((l) => l.includes("rpc failed"))
            .slice(-1)[0]
    }`,
  );
  t.equal(down.body.status, -2);
  t.notMatch(down.text, /at |Error|pg_|ECONN/, "no internals in the reply");
  t.ok(await until(async () => (await health()) === "NOT_SERVING"), "health goes NOT_SERVING");
  t.equal(await probe(), 1, "docker-compose's healthcheck (engine/healthcheck.ts) fails");

  await service().adminSql(`alter database "${db}" allow_connections true`);
  t.ok(await until(async () => (await health()) === "SERVING"), "health is SERVING again");
  t.equal(await probe(), 0, "and the healthcheck passes");
  t.ok(await until(async () => (await processSale(service().edgeUrl)).http === 200), "Process works again");
});

t.test(
  "database hung (not refusing, not answering): health goes NOT_SERVING, then back",
  { skip: process.env.DATABASE_URL ? "needs the embedded Postgres to freeze" : false },
  async (t) => {
    const pidFile = join(service().dataDir, "pg", "postmaster.pid");
    const postmaster = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    // The postmaster first, then its children as they are once it forks no more: a backend it started
    // meanwhile (the pool reconnecting after the first test) would otherwise keep answering the probe.
    const pids = freeze([postmaster]);
    try {
      const said: string[] = [];
      const stopped = Date.now();
      const notServing = await until(async () => {
        const status = await health();
        said.push(`${status} at ${Date.now() - stopped} ms`);
        return status === "NOT_SERVING";
      });
      t.ok(notServing, `a probe that does not answer counts as NOT_SERVING (health said ${said.join(", ")}; ${pids.length} processes frozen)`);
      const stuck = await processSale(service().edgeUrl);
      t.equal(stuck.http, 503, "a Process call fails as retryable (bounded waits), it is not held");
      t.equal(stuck.body.status, -2);
    } finally {
      signalPids(pids, "SIGCONT");
    }
    t.ok(await until(async () => (await health()) === "SERVING"), "SERVING again once it answers");
    t.ok(await until(async () => (await processSale(service().edgeUrl)).http === 200), "Process works again");
  },
);
