/**
 * Starts the real service for a test file: engine (gRPC on a free port) and
 * edge (HTTP on a free port) in this process, on a fresh database of its own
 * (test-database.ts: cloned from the run's migrated template, or on
 * DATABASE_URL, or on a cluster of this process when run alone). A file that
 * must own its cluster (it freezes Postgres) asks for `ownCluster`: the
 * engine's embedded default in the service's data dir.
 * Logs go to a file the card-data tests scan.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import pino from "pino";
import { loadConfig } from "../../engine/shared/config/config.ts";
import { createLogger } from "../../engine/shared/runtime/log.ts";
import { startEngine, type EngineHandle } from "../../engine/engine.ts";
import { startEdgeWorker, type EdgeWorker } from "../../edge/worker-host.ts";
import { createEngineClient, type EngineClient } from "../../edge/engine-client.ts";
import { MERCHANTS } from "./merchants.ts";
import { acquireDatabase } from "./test-database.ts";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AdminService } from "../../gen/cashier/admin/v1/admin_service_pb.js";

/** A service token as the engine accepts them: 32 characters or more. */
export const SERVICE_TOKEN = "test-service-token-0123456789abcdef";

/** A Connect client of cashier.admin.v1.AdminService over gRPC, with a bearer token. */
export function adminClient(engineUrl: string, token: string): Client<typeof AdminService> {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  return createClient(AdminService, createGrpcTransport({ baseUrl: engineUrl, interceptors: [auth] }));
}

export interface Service {
  edgeUrl: string;
  engineUrl: string;
  engine: EngineHandle;
  /** The edge on a worker thread, as `npm start` runs it. */
  edge: EdgeWorker;
  /** A Connect client with the service token, as an internal caller would use. */
  client: EngineClient;
  /** The operators' AdminService, with the service token. */
  admin: Client<typeof AdminService>;
  dataDir: string;
  logFile: string;
  logs(): string;
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** The service database's name, and SQL on the cluster's `postgres` database (to take ours away). */
  databaseName: string;
  adminSql(text: string): Promise<void>;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** The merchants file's content; the standard test merchants when not given. */
  merchants?: { merchants: unknown[] };
  /**
   * The engine starts its embedded Postgres in the data dir (or a fresh
   * database on DATABASE_URL), as production does: for tests that stop or
   * freeze the cluster, which others must not share.
   */
  ownCluster?: boolean;
  /** The clock the engine's use cases read (test/support/clock.ts moves it); the system's when not given. */
  now?: () => Date;
}

export async function startService(env: Record<string, string> = {}, opts: ServiceOptions = {}): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), "cashier-test-"));
  // The embedded cluster runs as the unprivileged "postgres" user when we are root.
  chmodSync(dataDir, 0o755);
  const merchantsFile = join(dataDir, "merchants.json");
  writeFileSync(merchantsFile, JSON.stringify(opts.merchants ?? MERCHANTS));
  const db = opts.ownCluster ? (process.env.DATABASE_URL ? await acquireDatabase() : undefined) : await acquireDatabase();
  const databaseUrl = db?.url;
  const config = loadConfig({
    CASHIER_DATA_DIR: dataDir,
    EDGE_PORT: "0",
    ENGINE_PORT: "0",
    CASHIER_MERCHANTS_FILE: merchantsFile,
    CASHIER_SERVICE_TOKENS: SERVICE_TOKEN,
    METRICS_PORT: "0",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const logFile = join(dataDir, "service.log");
  const logLevel = env.LOG_LEVEL ?? "debug";
  const log = createLogger(logLevel, pino.destination({ dest: logFile, sync: true }));
  const engine = await startEngine(config, log.child({ process: "engine" }), { host: "127.0.0.1", now: opts.now }).catch(async (err: unknown) => {
    await db?.release();
    throw err;
  });
  const engineUrl = `http://127.0.0.1:${engine.port}`;
  const edge = await startEdgeWorker({
    port: 0,
    host: "127.0.0.1",
    engineUrl,
    token: engine.edgeToken,
    // As `npm start` hands them over: CASHIER_TRUSTED_PROXIES in `env` puts the edge behind a proxy.
    trustedProxies: config.trustedProxies,
    logLevel,
    logFile,
    onCrash: (err) => {
      throw err;
    },
  });
  const edgeUrl = `http://127.0.0.1:${edge.port}`;
  engine.setPublicUrl(edgeUrl);
  const sqlClient = new pg.Client({ connectionString: engine.databaseUrl });
  sqlClient.on("error", () => {});
  await sqlClient.connect();
  return {
    edgeUrl,
    engineUrl,
    engine,
    edge,
    client: createEngineClient(engineUrl, SERVICE_TOKEN),
    admin: adminClient(engineUrl, SERVICE_TOKEN),
    dataDir,
    logFile,
    logs: () => readFileSync(logFile, "utf8"),
    databaseName: new URL(engine.databaseUrl).pathname.slice(1),
    async adminSql(text) {
      const u = new URL(engine.databaseUrl);
      u.pathname = "/postgres";
      const admin = new pg.Client({ connectionString: u.toString() });
      await admin.connect();
      try {
        await admin.query(text);
      } finally {
        await admin.end();
      }
    },
    async sql(text, params = []) {
      return (await sqlClient.query(text, params)).rows;
    },
    async stop() {
      // Every step is taken even when one fails: a step that threw once (under CI's load) left the engine, its pool
      // and its simulator child running, so the file never ended and was killed 20 minutes later without its error.
      const failures: unknown[] = [];
      const step = async (fn: () => unknown) => {
        try {
          await fn();
        } catch (err) {
          failures.push(err);
        }
      };
      await step(() => sqlClient.end());
      await step(() => edge.close());
      await step(() => engine.stop());
      await step(() => db?.release());
      rmSync(dataDir, { recursive: true, force: true });
      if (failures.length)
        throw new AggregateError(failures, `stopping the service: ${failures.map((e) => (e instanceof Error ? e.message : String(e))).join("; ")}`);
    },
  };
}

/** Starts the service before a test file's tests and stops it after them. */
export function useService(
  t: { before(fn: () => Promise<void>): void; teardown(fn: () => Promise<void>): void },
  env: Record<string, string> | (() => Record<string, string>) = {},
  opts: ServiceOptions | (() => ServiceOptions) = {},
): () => Service {
  let svc: Service | undefined;
  t.before(async () => {
    svc = await startService(typeof env === "function" ? env() : env, typeof opts === "function" ? opts() : opts);
  });
  t.teardown(async () => {
    await svc?.stop();
  });
  return () => {
    if (!svc) throw new Error("the service is not started yet");
    return svc;
  };
}
