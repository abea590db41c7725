/**
 * Composition of the engine: database (embedded or DATABASE_URL), migrations,
 * keys, stores, merchants, processors, the gRPC server, the workers and the
 * listener that lets other engines wake them. Returns a handle that stops
 * everything in order. main.ts is the only caller outside tests.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { MikroORM } from "@mikro-orm/postgresql";
import { type Config, embeddedDbDir } from "./shared/config/config.ts";
import type { Logger } from "./shared/runtime/log.ts";
import { bootstrapMerchants, demoFrontendSettings, merchantWarnings, readMerchantsFile } from "./payments/app/bootstrap-merchants.ts";
import { type Clock, systemClock } from "./shared/runtime/clock.ts";
import { ownAccounts, ProcessorRegistry } from "./payments/processors/registry.ts";
import { spawnAcquirerSim, type SpawnedSim } from "./payments/processors/acquirer-sim/spawn.ts";
import { buildGrpcServer, listen } from "./rpc/server.ts";
import { engineServices, type EngineServicesDeps, REFLECTED_FILES } from "./grpc-services.ts";
import { deriveKeys, type Keys, loadMasterKey } from "./security/keys.ts";
import { startEmbeddedPostgres, type EmbeddedDb } from "./store/embedded-postgres.ts";
import { PgMerchantStore } from "./payments/store/merchant-store.ts";
import { PgOrderStore } from "./payments/store/order-store.ts";
import { PgWebhookInbox } from "./payments/store/webhook-inbox-store.ts";
import type { EngineServiceDeps } from "./payments/rpc/engine-service.ts";
import { PgSessionStore } from "./cashier/store/session-store.ts";
import { PgBrandLogoStore } from "./payments/store/brand-logo-store.ts";
import { PgCardTokenStore } from "./payments/store/card-token-store.ts";
import { readIpCountryFile } from "./payments/app/ip-country-file.ts";
import type { IpCountryTable } from "./payments/domain/ip-country-table.ts";
import type { CashierDeps } from "./cashier/ports/ports.ts";
import type { MerchantSpec } from "./payments/ports/merchants.ts";
import { PgFollowUpStore } from "./payments/store/follow-up-store.ts";
import { PgRetentionStore } from "./retention/store/retention-store.ts";
import { migrate, openOrm, withStartupLock } from "./store/orm.ts";
import { prepareServiceRole } from "./store/service-role.ts";
import { createEngineMetrics, recordProcessorOutcome, type PoolLike } from "./runtime/metrics.ts";
import { startMetricsServer } from "./shared/runtime/metrics-server.ts";
import { loadServerTls } from "./runtime/tls.ts";
import { createSender } from "./payments/callbacks/http-sender.ts";
import { callbackUrlCheck } from "./payments/callbacks/address-guard.ts";
import { PgCallbackStore } from "./payments/store/callback-store.ts";
import { PgBlockList } from "./payments/store/block-lookup.ts";
import { PgRiskRules } from "./payments/store/risk-rules-store.ts";
import { PgRiskRuleStore } from "./console/store/risk-rule-store.ts";
import { PgCustomerStore } from "./console/store/customer-store.ts";
import { startWorkers, stopWorkers, wakeWorkers, type Workers } from "./workers.ts";
import { scheduleFromConfig } from "./payments/app/schedule.ts";
import { startWorkListener } from "./store/work-listener.ts";
import { newOrigin, WORK_CHANNEL } from "./store/work-notice.ts";
import { pgOperatorAccounts } from "./console/store/operator-accounts.ts";
import { PgAuditStore } from "./console/store/audit-store.ts";
import { applyFileRiskRules } from "./console/app/file-risk-rules.ts";
import { txOf } from "./store/tx.ts";
import { PgBackofficeStore } from "./console/store/backoffice-store.ts";
import { openReplicaReads } from "./replica-wiring.ts";
import { createSupervision, EMBEDDED_POSTGRES, OWN_ACQUIRER_SIM, type Supervision } from "./supervision.ts";

export interface EngineHandle {
  port: number;
  /** Where GET /metrics is served (METRICS_PORT, or the free port chosen for 0). */
  metricsPort: number;
  /** The token the edge should send (CASHIER_EDGE_TOKEN or one made for this process). */
  edgeToken: string;
  /** The token the Backoffice console should send (CASHIER_BACKOFFICE_TOKEN or one made for this process). */
  backofficeToken: string;
  orm: MikroORM;
  deps: CashierDeps & EngineServiceDeps;
  databaseUrl: string;
  /** The engine's own acquirer simulator (a child process, its pid the current child's), when ACQUIRER_SIM_URL was not set. */
  acquirerSim: { url: string; pid: number } | undefined;
  setPublicUrl(url: string): void;
  /** Stops restarting the processes it supervises: the first step of a shutdown (Ctrl-C also stops the embedded Postgres). */
  stopSupervising(): Promise<void>;
  stop(): Promise<void>;
}

/** What startEngine may be given besides its settings. */
export interface EngineOptions {
  host?: string;
  /** The clock the use cases read (app/clock.ts); the system's unless a test passes one it moves. */
  now?: Clock;
  /**
   * A supervised process (the embedded Postgres, the acquirer simulator's child) could not be restarted; the
   * supervisor has logged `line`. The default exits the process with status 1; main.ts stops the rest first.
   */
  onGiveUp?: (line: string) => void;
}

export async function startEngine(config: Config, log: Logger, opts: EngineOptions = {}): Promise<EngineHandle> {
  // Read before anything starts: a wrong TLS file or merchants file stops the start at once.
  const tls = loadServerTls(config);
  const checkCallbackUrl = callbackUrlCheck({ allowPrivate: config.callbackAllowPrivate });
  const merchantsFile = config.merchantsFile ? await readMerchantsFile(config.merchantsFile, checkCallbackUrl) : undefined;
  const ipCountries = config.ipCountryFile ? await readIpCountryFile(config.ipCountryFile) : undefined;
  if (ipCountries) log.info({ file: config.ipCountryFile, networks: ipCountries.size }, "IP country table loaded");
  let embedded: EmbeddedDb | undefined;
  let orm: MikroORM | undefined;
  let sim: SpawnedSim | undefined;
  const supervision = createSupervision(log, opts.onGiveUp ?? (() => process.exit(1)));
  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres(embeddedDbDir(config), (m) => log.warn(m));
      databaseUrl = embedded.url;
      supervision.watch(EMBEDDED_POSTGRES, embedded);
      log.info({ dir: embeddedDbDir(config) }, "embedded postgres started");
    }
    const master = await loadMasterKey(config.masterKey, config.dataDir);
    const keys = deriveKeys(master.key);
    if (!config.masterKey)
      log.warn({ keyId: keys.keyId, generated: master.generated }, "using the dev master key from the data dir; set CASHIER_MASTER_KEY in production");
    const servingUrl = await prepareDatabase(config, log, databaseUrl, keys, merchantsFile, opts.now ?? systemClock);
    orm = await openOrm(servingUrl, (m) => log.info({ component: "orm" }, m));
    // After the data dir is prepared for Postgres: the simulator's ledger directory is made inside it.
    if (!config.acquirerSim.url) {
      const simLog = log.child({ process: "acquirer-sim" });
      sim = await spawnAcquirerSim({
        dataDir: join(config.dataDir, "acquirer-sim"),
        port: config.acquirerSim.port,
        testMode: config.acquirerSim.testMode,
        logLevel: config.logLevel === "debug" || config.logLevel === "trace" ? "info" : config.logLevel,
        keys: config.acquirerSim.keys,
        onLine: (line) => simLog.info(lineMessage(line)),
      });
      supervision.watch(OWN_ACQUIRER_SIM, sim);
      log.info({ url: sim.url, pid: sim.pid }, "acquirer simulator started (child process)");
    }
    return await startServing({ config, log, opts, tls, keys, databaseUrl, servingUrl, embedded, orm, sim, supervision, ipCountries });
  } catch (err) {
    await supervision.stop();
    await sim?.stop().catch(() => {});
    // A start that fails (a bad merchants file, a taken port) leaves no pool and no Postgres behind.
    await orm?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw err;
  }
}

interface StartContext {
  config: Config;
  log: Logger;
  opts: EngineOptions;
  tls: ReturnType<typeof loadServerTls>;
  keys: Keys;
  /** The database as configured (the schema's owner). */
  databaseUrl: string;
  /** What the serving pool and the work listener connect with: the service role's URL, or databaseUrl. */
  servingUrl: string;
  embedded: EmbeddedDb | undefined;
  orm: MikroORM;
  sim: SpawnedSim | undefined;
  supervision: Supervision;
  /** CASHIER_IP_COUNTRY_FILE's table, read before anything started. */
  ipCountries: IpCountryTable | undefined;
}

/** A line the simulator child logged (pino JSON), as a message for this engine's log. */
function lineMessage(line: string): string {
  try {
    const o = JSON.parse(line) as { msg?: unknown };
    return typeof o.msg === "string" ? o.msg : line;
  } catch {
    return line;
  }
}

/**
 * The registry: merchants' accounts opened through the connectors list, and the engine's own accounts (the default
 * cascade's) at the configured simulator or the engine's own child.
 */
function processorRegistry(config: Config, sim: SpawnedSim | undefined, timeoutMs: number, supervision: Supervision): ProcessorRegistry {
  const url = config.acquirerSim.url ?? sim?.url;
  const keys = config.acquirerSim.keys ?? sim?.keys;
  if (!url || !keys) throw new Error("no acquirer simulator: set ACQUIRER_SIM_URL and ACQUIRER_SIM_KEYS, or leave both unset");
  // The engine's own child is known to be down while its supervisor restarts it; a simulator at ACQUIRER_SIM_URL is not watched.
  const ownDown = sim ? () => supervision.isDown(OWN_ACQUIRER_SIM.name) : undefined;
  return new ProcessorRegistry(ownAccounts(url, keys, timeoutMs), { timeoutMs, ownDown });
}

/**
 * One engine at a time, as the database URL's user (the schema's owner), on a start-up pool of its own without the
 * serving pool's query bound: the schema, the service role (engine/store/service-role.ts), then the merchants (the
 * demo one is made once). The URL the engine then serves with.
 */
async function prepareDatabase(
  config: Config,
  log: Logger,
  databaseUrl: string,
  keys: Keys,
  merchantsFile: MerchantSpec[] | undefined,
  now: Clock,
): Promise<string> {
  const startup = await openOrm(databaseUrl, (m) => log.info({ component: "orm" }, m), { poolSize: 2, bounded: false });
  try {
    return await withStartupLock(startup, async () => {
      await migrate(startup, (m) => log.info({ component: "orm" }, m));
      const role = await prepareServiceRole(startup, databaseUrl);
      if ("why" in role) log.warn({ reason: role.why }, "serving as the database URL's own user (no least-privilege role)");
      else
        log.info(
          { role: decodeURIComponent(new URL(role.url).username) },
          "serving as the database's service role: rows only, no schema, the audit log append-only",
        );
      await bootstrapMerchants(
        new PgMerchantStore(startup, keys.encryption, undefined, now),
        merchantsFile,
        config.dataDir,
        (msg, extra) => log.info(extra ?? {}, msg),
        demoFrontendSettings(config.edgePort, config.publicUrl),
        (spec) => {
          for (const w of merchantWarnings(spec)) log.warn({ merchant_id: spec.merchantId, ...w.fields }, w.message);
        },
      );
      if (merchantsFile) {
        const changed = await applyFileRiskRules(
          {
            riskRules: new PgRiskRuleStore(startup),
            audit: new PgAuditStore(startup, keys.auditChain, now),
            transaction: (fn) => startup.em.fork().transactional((em) => fn(txOf(em))),
          },
          merchantsFile,
        );
        for (const c of changed)
          log.info({ merchant_id: c.merchantId, removed: c.removed, added: c.added }, "merchants file: the merchant's file risk rules replaced");
      }
      return role.url ?? databaseUrl;
    });
  } finally {
    await startup.close();
  }
}

async function startServing({
  config,
  log,
  opts,
  tls,
  keys,
  databaseUrl,
  servingUrl,
  embedded,
  orm,
  sim,
  supervision,
  ipCountries,
}: StartContext): Promise<EngineHandle> {
  const now = opts.now ?? systemClock;
  const merchants = new PgMerchantStore(orm, keys.encryption, undefined, now);

  let publicUrl = config.publicUrl ?? `http://127.0.0.1:${config.edgePort}`;
  const schedule = scheduleFromConfig(config);
  // This engine's name in the work notices its statements send (work-notice.ts).
  const origin = newOrigin();
  // Workers are started below; until then a wake-up has no one to wake.
  let workers: Workers | undefined;
  // The Backoffice's searches, exports and dashboard: on DATABASE_READ_URL's replica when set.
  const replica = await openReplicaReads(config, log, { databaseUrl, servingUrl, orm });
  const deps: EngineServicesDeps = {
    merchants,
    merchantStore: merchants,
    orders: new PgOrderStore(orm, origin),
    webhookInbox: new PgWebhookInbox(orm),
    followUps: new PgFollowUpStore(orm),
    callbacks: new PgCallbackStore(orm, origin),
    blocks: new PgBlockList(orm),
    risk: new PgRiskRules(orm, undefined, (fields, message) => log.warn(fields, message)),
    ipCountries,
    customers: new PgCustomerStore(orm),
    riskRules: new PgRiskRuleStore(orm),
    processors: processorRegistry(config, sim, schedule.processor.timeoutMs, supervision),
    keys,
    send: createSender({ allowPrivate: config.callbackAllowPrivate }),
    checkCallbackUrl: callbackUrlCheck({ allowPrivate: config.callbackAllowPrivate }),
    schedule,
    now,
    publicUrl: () => publicUrl,
    wake: () => {
      if (workers) wakeWorkers(workers);
    },
    onProcessorOutcome: recordProcessorOutcome,
    warn: (fields, message) => log.warn(fields, message),
    sessions: new PgSessionStore(orm),
    logos: new PgBrandLogoStore(orm),
    sessionTtlSeconds: config.sessionTtlSeconds,
    cardTokens: new PgCardTokenStore(orm),
    cardTokenTtlSeconds: config.cardTokenTtlSeconds,
    operators: pgOperatorAccounts(orm),
    audit: new PgAuditStore(orm, keys.auditChain, now),
    backoffice: new PgBackofficeStore(orm, origin),
    reads: replica.reads,
  };

  // The audit chain's head, signed at each start apart from the chain and logged: a tail cut later is found.
  try {
    const head = await deps.audit.checkpointHead();
    log.info({ auditRow: head.rowId, auditHash: head.rowHash, checkpoint: head.mac }, "audit chain head checkpointed");
  } catch (err) {
    log.warn({ err }, "could not checkpoint the audit chain's head at start; each new audit row still writes its own");
  }

  const edgeToken = config.edgeToken ?? randomBytes(24).toString("base64url");
  const backofficeToken = config.backofficeToken ?? randomBytes(24).toString("base64url");
  const tokens = { engine: [...config.serviceTokens, edgeToken], admin: config.serviceTokens, backoffice: [...config.serviceTokens, backofficeToken] };
  const probe = async () => {
    await orm.em.fork().execute("select 1");
  };
  const metrics = createEngineMetrics(() => orm.em.getConnection().getNativeClient() as Promise<PoolLike>, {
    replicaLag: config.databaseReadUrl ? replica.reads.lag : undefined,
  });
  const { server, health } = buildGrpcServer(engineServices(deps, tokens), REFLECTED_FILES, log, probe, {
    observe: metrics.interceptor,
    onAuthRefused: metrics.authRefused,
    reflection: config.grpcReflection ? config.serviceTokens : undefined,
    notServing: supervision.notServing,
  });
  supervision.onChange(() => health.recheck());
  const port = await listen(server, opts.host ?? config.engineHost, config.enginePort, tls);
  const metricsServer = await startMetricsServer(
    metrics.registry,
    opts.host ?? config.metricsHost,
    config.metricsPort,
    (err) => log.error({ err }, "metrics scrape failed"),
    config.metricsPortIsDefault,
  );
  if (metricsServer.movedFromDefault) {
    log.warn(
      { metricsPort: metricsServer.port },
      `metrics: port ${config.metricsPort} is taken (another Cashier?), serving on ${metricsServer.port}; set METRICS_PORT to choose`,
    );
  }
  log.info({ port, tls: tls !== undefined, metricsPort: metricsServer.port }, "engine listening (gRPC)");
  const running = startWorkers(deps, new PgRetentionStore(orm), log, {
    callbacks: config.callbackConcurrency,
    callbacksPerMerchant: config.callbackMerchantConcurrency,
  });
  workers = running;
  // Other engines' work wakes these workers at once; the poll stays the fallback.
  const listener = await startWorkListener({
    url: servingUrl,
    origin,
    timing: schedule.wakeUp,
    wake: (kind) => wakeWorkers(running, kind),
    onState: (state, err) =>
      state === "listening"
        ? log.info({ channel: WORK_CHANNEL }, "listening for other engines' work")
        : log.warn(
            { err, channel: WORK_CHANNEL, pollMs: schedule.workers.pollMs },
            "lost the LISTEN connection; other engines' work is found by polling until it is back",
          ),
  });

  return {
    port,
    metricsPort: metricsServer.port,
    edgeToken,
    backofficeToken,
    orm,
    deps,
    databaseUrl,
    acquirerSim: sim,
    stopSupervising: () => supervision.stop(),
    setPublicUrl(url: string) {
      if (!config.publicUrl) publicUrl = url;
    },
    async stop() {
      // Health says NOT_SERVING and the server stops accepting at once; calls in
      // flight finish (idle client sessions, such as the edge's HTTP/2
      // connection, do not hold it past a short grace period). Meanwhile the
      // listener closes (no more wake-ups from other engines) and the workers
      // stop claiming and give their calls in flight a moment: what they
      // leave is safe, a claim that is never recorded falls due again.
      // First: a process stopped below is not one that died.
      await supervision.stop();
      health.stop();
      const rpc = new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 3000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await Promise.all([rpc, listener.stop(), stopWorkers(running)]);
      await metricsServer.close();
      await replica.close();
      await orm.close();
      await sim?.stop();
      if (embedded) await embedded.stop();
    },
  };
}
