/**
 * Environment -> one typed, validated settings object (CONTRACT section 1).
 * The two main.ts files (engine, edge) read the environment through
 * loadConfig; everything else receives the object, so tests build a Config from
 * a plain record without touching process.env.
 */
import { join, resolve } from "node:path";
import { DEFAULT_SCHEDULE_SETTINGS as D } from "../schedule-settings.ts";
import { parseKeys } from "./acquirer-sim-keys.ts";
import { databaseReadUrl } from "./database-read-url.ts";
import { tokenListSetting, tokenSetting } from "./bearer-tokens.ts";
import { ConfigError, flag, host, list, port, positiveInt, secondsList, wholeNumber } from "./env-readers.ts";
import { trustedProxiesSetting } from "./trusted-proxies.ts";

export interface Config {
  /** A real Postgres; undefined means the embedded one under dataDir. */
  databaseUrl: string | undefined;
  /**
   * DATABASE_READ_URL: a read replica for the Backoffice's searches, CSV exports and dashboard; undefined: they read
   * the primary (engine/store/read-orm.ts).
   */
  databaseReadUrl: string | undefined;
  dataDir: string;
  edgePort: number;
  enginePort: number;
  /** ENGINE_HOST: the address the engine's gRPC listener binds (loopback unless told otherwise). */
  engineHost: string;
  /** METRICS_HOST: the address of the engine's and the edge's metrics listeners (loopback unless told otherwise). */
  metricsHost: string;
  /** Where a separately started edge finds the engine. */
  engineUrl: string;
  merchantsFile: string | undefined;
  /** CASHIER_IP_COUNTRY_FILE: the operator's `network,country` CSV the country mismatch rule looks IP addresses up in (read at start). */
  ipCountryFile: string | undefined;
  /** Bearer tokens accepted from direct gRPC callers (each at least 32 characters: bearer-tokens.ts). */
  serviceTokens: string[];
  /** The token the edge sends to the engine. */
  edgeToken: string | undefined;
  /** The token the Backoffice console sends (the console's services only: ConsoleAuthService, ConsoleWorkService, ConsoleSettingsService). */
  backofficeToken: string | undefined;
  /** CASHIER_GRPC_REFLECTION: the engine serves server reflection, to holders of a service token only (default on). */
  grpcReflection: boolean;
  /**
   * CASHIER_TRUSTED_PROXIES: the reverse proxies (normalised networks, `10.0.0.0/8`) whose
   * X-Forwarded-For and X-Forwarded-Proto the edge and the Backoffice believe; empty: none.
   */
  trustedProxies: string[];
  /** 32-byte key, hex or base64; undefined: a dev key generated into dataDir. */
  masterKey: string | undefined;
  /** Base of redirect_urls; undefined: http://127.0.0.1:<edge port>, resolved once the edge listens. */
  publicUrl: string | undefined;
  callbackAllowPrivate: boolean;
  rfdResendSeconds: number;
  /** Sends of one RecordFailedDeposit before it is given up (then visible to operators). */
  rfdMaxAttempts: number;
  /** Timeout of each callback call (notification, UpdatePayout, RecordFailedDeposit). */
  callbackTimeoutMs: number;
  /** Timeout of the Validation call; the customer is waiting. */
  validationTimeoutMs: number;
  /** Delays between attempts of notifications and UpdatePayout; given up after the last. */
  callbackRetrySeconds: number[];
  /** How long an open 3-D Secure challenge waits for the customer. */
  challengeTtlSeconds: number;
  /** CASHIER_SESSION_TTL_SECONDS: how long a hosted Cashier session lasts from its start. */
  sessionTtlSeconds: number;
  /** CASHIER_CARD_TOKEN_TTL_SECONDS: how long a hosted payment fields' card token may be used from its minting. */
  cardTokenTtlSeconds: number;
  /** How often idle workers look for due work in the database (other engines' work included). */
  workerPollMs: number;
  /** Callback calls in flight at most, per engine (CASHIER_CALLBACK_CONCURRENCY). */
  callbackConcurrency: number;
  /**
   * Callback calls in flight at most to one merchant's platform, over all engines
   * (CASHIER_CALLBACK_MERCHANT_CONCURRENCY): a slow or dead platform holds this
   * many slots, never the others'.
   */
  callbackMerchantConcurrency: number;
  logLevel: string;
  /** Port of the engine's Prometheus endpoint (GET /metrics); 0 = any free port. */
  metricsPort: number;
  /** METRICS_PORT was unset: when 9464 is taken, a free port is used instead (engine/shared/runtime/listen.ts). */
  metricsPortIsDefault: boolean;
  /** EDGE_METRICS_PORT: the edge's own Prometheus endpoint, off its public port; 0 = any free port. */
  edgeMetricsPort: number;
  /** EDGE_METRICS_PORT was unset: when 9465 is taken, a free port is used instead. */
  edgeMetricsPortIsDefault: boolean;
  /** PEM file paths: when set, the engine serves gRPC over TLS only. */
  engineTls: { certFile: string; keyFile: string } | undefined;
  /** PEM file of a private CA the edge trusts when ENGINE_URL is https:// (else the system's roots). */
  engineTlsCaFile: string | undefined;
  /** How long SIGTERM/SIGINT may take to drain before the process is forced down (exit 1). */
  shutdownTimeoutMs: number;
  /** One processor call's limit; no answer in time is "unknown", never declined. */
  processorTimeoutMs: number;
  /** How long settled callbacks and final transactions' history are kept (days; 0 = for good), and the purge's batch. */
  retention: { callbackDays: number; eventDays: number; webhookDays: number; sessionDays: number; signInHours: number; batch: number };
  /** The simulated acquirers behind sim-a and sim-b: a running one, or the engine starts its own child process. */
  acquirerSim: {
    /** ACQUIRER_SIM_URL; undefined: the engine starts the simulator as a child process. */
    url: string | undefined;
    /** ACQUIRER_SIM_KEYS; undefined: keys made for each start (its own child only). */
    keys: Record<string, string> | undefined;
    /** ACQUIRER_SIM_PORT of the engine's own child; 0 (default) = any free port, logged. */
    port: number;
    /** ACQUIRER_SIM_TEST_MODE=1: the child's fault switch (/admin/faults) is on. Tests only. */
    testMode: boolean;
  };
}

export { ConfigError };

/** Both TLS files or neither: half a TLS setting is a mistake, not a request for plaintext. */
function tlsPair(env: NodeJS.ProcessEnv, cwd: string): Config["engineTls"] {
  const cert = env.ENGINE_TLS_CERT || undefined;
  const key = env.ENGINE_TLS_KEY || undefined;
  if (!cert && !key) return undefined;
  if (!cert) throw new ConfigError("ENGINE_TLS_CERT is missing: ENGINE_TLS_KEY is set, and TLS needs both (PEM file paths)");
  if (!key) throw new ConfigError("ENGINE_TLS_KEY is missing: ENGINE_TLS_CERT is set, and TLS needs both (PEM file paths)");
  return { certFile: resolve(cwd, cert), keyFile: resolve(cwd, key) };
}

/** One engine URL, or several separated by commas (the edge spreads calls over them). */
function engineUrl(env: NodeJS.ProcessEnv, enginePort: number): string {
  const raw = env.ENGINE_URL || `http://127.0.0.1:${enginePort}`;
  const urls = list(raw);
  if (urls.length === 0 || urls.some((u) => !/^https?:\/\/[^/]+/i.test(u))) {
    throw new ConfigError(`ENGINE_URL must be an http:// or https:// URL (or several, comma-separated), got ${JSON.stringify(raw)}`);
  }
  return urls.join(",");
}

/** pino's own levels. A Set, not pino's table: LOG_LEVEL=constructor would "find" a function there and log nothing. */
export const LOG_LEVELS: ReadonlySet<string> = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

function logLevel(env: NodeJS.ProcessEnv): string {
  const raw = env.LOG_LEVEL || "info";
  if (!LOG_LEVELS.has(raw)) throw new ConfigError(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(", ")}, got ${JSON.stringify(raw)}`);
  return raw;
}

/** An http(s) URL setting as the URL parser reads it, or a ConfigError naming the variable and `what` it must be. */
export function httpUrlSetting(name: string, raw: string, what = "an http(s) URL"): URL {
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {
    u = undefined;
  }
  if (u?.protocol !== "http:" && u?.protocol !== "https:") throw new ConfigError(`${name} must be ${what}, got ${JSON.stringify(raw)}`);
  return u;
}

/** CASHIER_PUBLIC_URL: the http(s) base of every address handed to customers, without a trailing slash. */
function publicUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.CASHIER_PUBLIC_URL;
  if (!raw) return undefined;
  const what = "an http(s) URL without a query or fragment (https://cashier.example)";
  const u = httpUrlSetting("CASHIER_PUBLIC_URL", raw, what);
  if (/[?#]/.test(raw) || u.username || u.password) throw new ConfigError(`CASHIER_PUBLIC_URL must be ${what}, got ${JSON.stringify(raw)}`);
  // As the URL parser reads it (spaces trimmed, the host in lower case), without a trailing slash.
  return `${u.origin}${u.pathname}`.replace(/\/+$/, "");
}

function acquirerSimUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.ACQUIRER_SIM_URL;
  if (!raw) return undefined;
  httpUrlSetting("ACQUIRER_SIM_URL", raw);
  return raw.replace(/\/+$/, "");
}

function acquirerSimKeys(env: NodeJS.ProcessEnv): Record<string, string> | undefined {
  if (!env.ACQUIRER_SIM_KEYS) {
    if (env.ACQUIRER_SIM_URL) throw new ConfigError("ACQUIRER_SIM_KEYS is required with ACQUIRER_SIM_URL (sim-a=<key>,sim-b=<key>)");
    return undefined;
  }
  try {
    return parseKeys("ACQUIRER_SIM_KEYS", env.ACQUIRER_SIM_KEYS);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const edgePort = port(env, "EDGE_PORT", 8080);
  const enginePort = port(env, "ENGINE_PORT", 50051);
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReadUrl: databaseReadUrl(env, "DATABASE_READ_URL"),
    dataDir: resolve(cwd, env.CASHIER_DATA_DIR || ".data"),
    edgePort,
    enginePort,
    engineHost: host(env, "ENGINE_HOST", "127.0.0.1"),
    metricsHost: host(env, "METRICS_HOST", "127.0.0.1"),
    engineUrl: engineUrl(env, enginePort),
    merchantsFile: env.CASHIER_MERCHANTS_FILE ? resolve(cwd, env.CASHIER_MERCHANTS_FILE) : undefined,
    ipCountryFile: env.CASHIER_IP_COUNTRY_FILE ? resolve(cwd, env.CASHIER_IP_COUNTRY_FILE) : undefined,
    serviceTokens: tokenListSetting(env, "CASHIER_SERVICE_TOKENS"),
    edgeToken: tokenSetting(env, "CASHIER_EDGE_TOKEN"),
    backofficeToken: tokenSetting(env, "CASHIER_BACKOFFICE_TOKEN"),
    grpcReflection: flag(env, "CASHIER_GRPC_REFLECTION", true),
    trustedProxies: trustedProxiesSetting(env, "CASHIER_TRUSTED_PROXIES"),
    masterKey: env.CASHIER_MASTER_KEY || undefined,
    publicUrl: publicUrl(env),
    callbackAllowPrivate: flag(env, "CASHIER_CALLBACK_ALLOW_PRIVATE"),
    // The timing settings' defaults are the schedule's (engine/payments/app/schedule.ts, docs/schedule.md).
    rfdResendSeconds: positiveInt(env, "CASHIER_RFD_RESEND_SECONDS", D.callbacks.rfdResendSeconds),
    rfdMaxAttempts: positiveInt(env, "CASHIER_RFD_MAX_ATTEMPTS", D.callbacks.rfdMaxAttempts),
    callbackTimeoutMs: positiveInt(env, "CASHIER_CALLBACK_TIMEOUT_MS", D.callbacks.timeoutMs),
    validationTimeoutMs: positiveInt(env, "CASHIER_VALIDATION_TIMEOUT_MS", D.validation.timeoutMs),
    callbackRetrySeconds: secondsList(env, "CASHIER_CALLBACK_RETRY_SECONDS", D.callbacks.retrySeconds),
    challengeTtlSeconds: positiveInt(env, "CASHIER_CHALLENGE_TTL_SECONDS", D.challenge.ttlSeconds),
    sessionTtlSeconds: positiveInt(env, "CASHIER_SESSION_TTL_SECONDS", 900),
    cardTokenTtlSeconds: positiveInt(env, "CASHIER_CARD_TOKEN_TTL_SECONDS", 900),
    workerPollMs: positiveInt(env, "CASHIER_WORKER_POLL_MS", D.workers.pollMs),
    callbackConcurrency: positiveInt(env, "CASHIER_CALLBACK_CONCURRENCY", 32),
    callbackMerchantConcurrency: positiveInt(env, "CASHIER_CALLBACK_MERCHANT_CONCURRENCY", 8),
    logLevel: logLevel(env),
    metricsPort: port(env, "METRICS_PORT", 9464),
    metricsPortIsDefault: !env.METRICS_PORT,
    edgeMetricsPort: port(env, "EDGE_METRICS_PORT", 9465),
    edgeMetricsPortIsDefault: !env.EDGE_METRICS_PORT,
    engineTls: tlsPair(env, cwd),
    engineTlsCaFile: env.ENGINE_TLS_CA ? resolve(cwd, env.ENGINE_TLS_CA) : undefined,
    shutdownTimeoutMs: positiveInt(env, "CASHIER_SHUTDOWN_TIMEOUT_MS", 10_000),
    processorTimeoutMs: positiveInt(env, "CASHIER_PROCESSOR_TIMEOUT_MS", D.processor.timeoutMs),
    retention: {
      callbackDays: wholeNumber(env, "CASHIER_RETENTION_CALLBACK_DAYS", D.retention.callbackDays),
      eventDays: wholeNumber(env, "CASHIER_RETENTION_EVENT_DAYS", D.retention.eventDays),
      webhookDays: wholeNumber(env, "CASHIER_RETENTION_WEBHOOK_DAYS", D.retention.webhookDays),
      sessionDays: wholeNumber(env, "CASHIER_RETENTION_SESSION_DAYS", D.retention.sessionDays),
      signInHours: wholeNumber(env, "CASHIER_RETENTION_SIGN_IN_HOURS", D.retention.signInHours),
      batch: positiveInt(env, "CASHIER_RETENTION_BATCH", D.retention.batch),
    },
    acquirerSim: {
      url: acquirerSimUrl(env),
      keys: acquirerSimKeys(env),
      port: port(env, "ACQUIRER_SIM_PORT", 0),
      testMode: flag(env, "ACQUIRER_SIM_TEST_MODE"),
    },
  };
}

/** Where the embedded database lives inside the data dir. */
export function embeddedDbDir(config: Config): string {
  return join(config.dataDir, "pg");
}
