/**
 * A database of its own for each test file (or each service a file starts),
 * from the cheapest source there is:
 *
 * 1. The run's shared cluster: `npm test` / `npx tap` start one Postgres for
 *    the whole run and migrate a template database once (test/support/cluster/,
 *    tap's `before` and `after` scripts); each database is then
 *    `CREATE DATABASE x TEMPLATE cashier_template`, a file copy of an
 *    already-migrated schema, instead of an initdb plus the migrations.
 *    .taprc's `test-env` sets CASHIER_TEST_CLUSTER to the file the cluster's
 *    host writes once it is ready; the first file that needs it waits.
 * 2. Run alone (`node test/e2e/x.test.ts`, no CASHIER_TEST_CLUSTER): a new
 *    empty database on DATABASE_URL when it is set, else an embedded cluster
 *    this process starts for itself, stopped when its last database is given
 *    back. The engine migrates an empty database as it does in production.
 *
 * Files that must own their cluster (they stop, freeze or kill Postgres, or
 * test the embedded default) do not come here.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedDb } from "../../engine/store/embedded-postgres.ts";

const repo = new URL("../..", import.meta.url).pathname;

/** What the run's before script writes for the test files (test/support/cluster/). */
export interface SharedCluster {
  /** A superuser URL on the cluster's `postgres` database (or DATABASE_URL's own database). */
  adminUrl: string;
  /** The migrated database every test database is cloned from. */
  template: string;
  /** The process holding the embedded cluster (none on DATABASE_URL). */
  hostPid: number | null;
  /** Its temp dir, removed by the after script. */
  dir: string | null;
}

/** Where the shared cluster's description is, when this run has one. */
export function sharedClusterFile(): string | undefined {
  const f = process.env.CASHIER_TEST_CLUSTER;
  return f ? resolve(repo, f) : undefined;
}

/** How long a test file waits for the run's cluster to be ready (it starts while the first files run). */
const CLUSTER_WAIT_MS = 180_000;

/**
 * The run's shared cluster, once host.ts has it ready; undefined when this
 * process is not part of a tap run. Throws, saying why, when it cannot start.
 */
async function sharedCluster(): Promise<SharedCluster | undefined> {
  if (process.env.CASHIER_TEST_TIER === "unit") {
    throw new Error("a unit test asked for Postgres: the unit tier has none (CASHIER_TEST_TIER=unit); this file belongs in test/db/ or test/e2e/");
  }
  const file = sharedClusterFile();
  if (!file) return undefined;
  const end = Date.now() + CLUSTER_WAIT_MS;
  for (;;) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as SharedCluster;
    if (existsSync(`${file}.error`)) throw new Error(readFileSync(`${file}.error`, "utf8"));
    if (Date.now() > end) throw new Error(`the run's shared test cluster was not ready within ${CLUSTER_WAIT_MS / 1000} s (see ${file}.log)`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface TestDatabase {
  /** The database's URL, for DATABASE_URL. */
  url: string;
  name: string;
  /** Where it came from, for a test's diagnostics and the docs. */
  source: "shared-template" | "database-url" | "own-cluster";
  /** Drops the database (and stops this process's own cluster after its last one). */
  release(): Promise<void>;
}

let counter = 0;
function uniqueName(): string {
  counter += 1;
  return `cashier_t_${process.pid}_${counter}_${Math.random().toString(36).slice(2, 8)}`;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end().catch(() => {});
  }
}

async function createOn(adminUrl: string, template?: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = uniqueName();
  await adminQuery(adminUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  return {
    name,
    url: withDatabase(adminUrl, name),
    // Best effort: the run's after script removes the whole cluster anyway.
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`).catch(() => {}),
  };
}

/** This process's own embedded cluster, when there is no shared one: started on first use, stopped after the last. */
let own: { db: Promise<{ pg: EmbeddedDb; dir: string }>; users: number } | undefined;

async function ownCluster(): Promise<{ adminUrl: string; done(): Promise<void> }> {
  if (!own) {
    const dir = mkdtempSync(join(tmpdir(), "cashier-testdb-"));
    // The embedded cluster runs as the unprivileged "postgres" user when we are root.
    chmodSync(dir, 0o755);
    own = { db: startEmbeddedPostgres(join(dir, "pg"), () => {}).then((pg) => ({ pg, dir })), users: 0 };
  }
  const mine = own;
  mine.users += 1;
  const { pg: cluster } = await mine.db;
  return {
    adminUrl: withDatabase(cluster.url, "postgres"),
    async done() {
      mine.users -= 1;
      if (mine.users > 0) return;
      if (own === mine) own = undefined;
      const { pg: c, dir } = await mine.db;
      await c.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh database for one service or one group of processes; give it back with release(). */
export async function acquireDatabase(): Promise<TestDatabase> {
  const shared = await sharedCluster();
  if (shared) {
    const db = await createOn(shared.adminUrl, shared.template);
    return { url: db.url, name: db.name, source: "shared-template", release: db.drop };
  }
  if (process.env.DATABASE_URL) {
    const db = await createOn(process.env.DATABASE_URL);
    return { url: db.url, name: db.name, source: "database-url", release: db.drop };
  }
  const cluster = await ownCluster();
  try {
    const db = await createOn(cluster.adminUrl);
    return {
      url: db.url,
      name: db.name,
      source: "own-cluster",
      async release() {
        await db.drop();
        await cluster.done();
      },
    };
  } catch (err) {
    await cluster.done();
    throw err;
  }
}
