/**
 * Composition of the engine: database (embedded or DATABASE_URL), migrations,
 * keys, stores, merchants, processors and the gRPC server. Returns a handle
 * that stops everything in order. main.ts is the only caller outside tests.
 */
import { randomBytes } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import { type Config, embeddedDbDir } from "./config.ts";
import type { Logger } from "./log.ts";
import { bootstrapMerchants } from "./app/bootstrap-merchants.ts";
import type { ProcessDeps } from "./app/ports.ts";
import { ProcessorRegistry } from "./processors/registry.ts";
import { SimProcessor } from "./processors/simulator/sim-processor.ts";
import { buildGrpcServer, listen } from "./rpc/server.ts";
import { deriveKeys, loadMasterKey } from "./security/keys.ts";
import { startEmbeddedPostgres, type EmbeddedDb } from "./store/embedded-postgres.ts";
import { PgMerchantStore } from "./store/merchant-store.ts";
import { PgOrderStore } from "./store/order-store.ts";
import { openOrm } from "./store/orm.ts";

export interface EngineHandle {
  port: number;
  /** The token the edge should send (CASHIER_EDGE_TOKEN or one made for this process). */
  edgeToken: string;
  orm: MikroORM;
  deps: ProcessDeps;
  databaseUrl: string;
  setPublicUrl(url: string): void;
  stop(): Promise<void>;
}

export async function startEngine(config: Config, log: Logger, opts: { host?: string } = {}): Promise<EngineHandle> {
  let embedded: EmbeddedDb | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(embeddedDbDir(config), (m) => log.warn(m));
    databaseUrl = embedded.url;
    log.info({ dir: embeddedDbDir(config) }, "embedded postgres started");
  }
  const orm = await openOrm(databaseUrl, (m) => log.info({ component: "orm" }, m));
  const master = await loadMasterKey(config.masterKey, config.dataDir);
  const keys = deriveKeys(master.key);
  if (!config.masterKey) log.warn({ keyId: keys.keyId, generated: master.generated }, "using the dev master key from the data dir; set CASHIER_MASTER_KEY in production");

  const merchants = new PgMerchantStore(orm, keys.encryption);
  await bootstrapMerchants(merchants, config.merchantsFile, config.dataDir, (msg, extra) => log.info(extra ?? {}, msg));

  let publicUrl = config.publicUrl ?? `http://127.0.0.1:${config.edgePort}`;
  const deps: ProcessDeps = {
    merchants,
    orders: new PgOrderStore(orm),
    processors: new ProcessorRegistry([new SimProcessor("sim-a"), new SimProcessor("sim-b")]),
    keys,
    now: () => new Date(),
    publicUrl: () => publicUrl,
  };

  const edgeToken = config.edgeToken ?? randomBytes(24).toString("base64url");
  const tokens = [...config.serviceTokens, edgeToken];
  const probe = async () => {
    await orm.em.fork().execute("select 1");
  };
  const { server, health } = buildGrpcServer(deps, tokens, log, probe);
  const port = await listen(server, opts.host ?? "0.0.0.0", config.enginePort);
  log.info({ port }, "engine listening (gRPC)");

  return {
    port,
    edgeToken,
    orm,
    deps,
    databaseUrl,
    setPublicUrl(url: string) {
      if (!config.publicUrl) publicUrl = url;
    },
    async stop() {
      health.stop();
      // In-flight calls finish; idle client sessions (the edge's HTTP/2
      // connection) do not hold the shutdown past a short grace period.
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 3000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await orm.close();
      if (embedded) await embedded.stop();
    },
  };
}
