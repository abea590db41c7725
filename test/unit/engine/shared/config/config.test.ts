/**
 * The operator settings added for TLS, metrics and shutdown: defaults, and a
 * ConfigError naming the variable for each mistake (half a TLS pair above all,
 * which must never quietly mean plaintext).
 */
import t from "tap";
import { ConfigError, loadConfig } from "../../../../../engine/shared/config/config.ts";

t.test("defaults: metrics on 9464, plaintext, 10 s to shut down", async (t) => {
  const c = loadConfig({}, "/srv");
  t.equal(c.metricsPort, 9464);
  t.equal(c.engineTls, undefined);
  t.equal(c.engineTlsCaFile, undefined);
  t.equal(c.shutdownTimeoutMs, 10_000);
});

t.test("TLS paths resolve against the working directory", async (t) => {
  const c = loadConfig(
    { ENGINE_TLS_CERT: "tls/cert.pem", ENGINE_TLS_KEY: "/etc/k.pem", ENGINE_TLS_CA: "ca.pem", METRICS_PORT: "0", CASHIER_SHUTDOWN_TIMEOUT_MS: "2500" },
    "/srv",
  );
  t.same(c.engineTls, { certFile: "/srv/tls/cert.pem", keyFile: "/etc/k.pem" });
  t.equal(c.engineTlsCaFile, "/srv/ca.pem");
  t.equal(c.metricsPort, 0);
  t.equal(c.shutdownTimeoutMs, 2500);
});

t.test("one TLS file without the other names the missing one", async (t) => {
  t.throws(
    () => loadConfig({ ENGINE_TLS_CERT: "c.pem" }),
    new ConfigError("ENGINE_TLS_KEY is missing: ENGINE_TLS_CERT is set, and TLS needs both (PEM file paths)"),
  );
  t.throws(() => loadConfig({ ENGINE_TLS_KEY: "k.pem" }), /^ENGINE_TLS_CERT is missing/);
});

t.test("bad numbers and URLs name their variable", async (t) => {
  t.throws(() => loadConfig({ METRICS_PORT: "70000" }), /^METRICS_PORT must be a port number/);
  t.throws(() => loadConfig({ CASHIER_SHUTDOWN_TIMEOUT_MS: "0" }), /^CASHIER_SHUTDOWN_TIMEOUT_MS must be a positive integer/);
  t.throws(() => loadConfig({ ENGINE_URL: "engine:50051" }), /^ENGINE_URL must be an http:\/\/ or https:\/\/ URL/);
  t.equal(loadConfig({ ENGINE_URL: "https://engine.internal:50051" }).engineUrl, "https://engine.internal:50051");
});

t.test("LOG_LEVEL is one of pino's levels; a prototype word is refused, not quietly silent", async (t) => {
  t.equal(loadConfig({}).logLevel, "info");
  t.equal(loadConfig({ LOG_LEVEL: "debug" }).logLevel, "debug");
  for (const word of ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "verbose"]) {
    t.throws(() => loadConfig({ LOG_LEVEL: word }), /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/, word);
  }
});

t.test("the acquirer simulator: the engine's own child by default, or a URL with its keys", async (t) => {
  const d = loadConfig({});
  t.same(d.acquirerSim, { url: undefined, keys: undefined, port: 0, testMode: false }, "default: a child on any free port, keys made per start");
  t.equal(d.processorTimeoutMs, 20_000);
  const c = loadConfig({
    ACQUIRER_SIM_URL: "http://acquirer-sim:8090/",
    ACQUIRER_SIM_KEYS: "sim-a=key-a-123456, sim-b=key-b-123456",
    CASHIER_PROCESSOR_TIMEOUT_MS: "1500",
  });
  t.same(c.acquirerSim.keys, { "sim-a": "key-a-123456", "sim-b": "key-b-123456" });
  t.equal(c.acquirerSim.url, "http://acquirer-sim:8090");
  t.equal(c.processorTimeoutMs, 1500);
  t.throws(() => loadConfig({ ACQUIRER_SIM_URL: "http://sim:8090" }), /^ACQUIRER_SIM_KEYS is required with ACQUIRER_SIM_URL/);
  t.throws(
    () => loadConfig({ ACQUIRER_SIM_URL: "sim:8090", ACQUIRER_SIM_KEYS: "sim-a=key-a-123456,sim-b=key-b-123456" }),
    /^ACQUIRER_SIM_URL must be an http\(s\) URL/,
  );
  t.throws(() => loadConfig({ ACQUIRER_SIM_KEYS: "sim-a=key-a-123456" }), /^ACQUIRER_SIM_KEYS has no key for sim-b/);
  t.throws(() => loadConfig({ ACQUIRER_SIM_KEYS: "sim-a=short,sim-b=key-b-123456" }), /^ACQUIRER_SIM_KEYS must be sim-a=<key of 8 characters or more>/);
  t.throws(() => loadConfig({ ACQUIRER_SIM_KEYS: "sim-c=key-c-123456" }), /^ACQUIRER_SIM_KEYS must be/);
  t.throws(() => loadConfig({ ACQUIRER_SIM_TEST_MODE: "yes" }), /^ACQUIRER_SIM_TEST_MODE must be 0 or 1/);
  t.throws(() => loadConfig({ CASHIER_PROCESSOR_TIMEOUT_MS: "-1" }), /^CASHIER_PROCESSOR_TIMEOUT_MS must be a positive integer/);
});

t.test(
  "retention: callbacks 90 days, history kept, webhook events 90 days, sessions 30 days, sign-ins 24 hours, 1000 a step; 0 keeps, a negative or fraction is refused by name",
  async (t) => {
    t.strictSame(loadConfig({}).retention, { callbackDays: 90, eventDays: 0, webhookDays: 90, sessionDays: 30, signInHours: 24, batch: 1000 });
    t.strictSame(
      loadConfig({
        CASHIER_RETENTION_CALLBACK_DAYS: "0",
        CASHIER_RETENTION_EVENT_DAYS: "1825",
        CASHIER_RETENTION_WEBHOOK_DAYS: "30",
        CASHIER_RETENTION_SESSION_DAYS: "0",
        CASHIER_RETENTION_SIGN_IN_HOURS: "2",
        CASHIER_RETENTION_BATCH: "50",
      }).retention,
      { callbackDays: 0, eventDays: 1825, webhookDays: 30, sessionDays: 0, signInHours: 2, batch: 50 },
    );
    t.throws(() => loadConfig({ CASHIER_RETENTION_SESSION_DAYS: "-3" }), /^CASHIER_RETENTION_SESSION_DAYS must be a whole number/);
    t.throws(() => loadConfig({ CASHIER_RETENTION_SIGN_IN_HOURS: "0.5" }), /^CASHIER_RETENTION_SIGN_IN_HOURS must be a whole number/);
    t.throws(() => loadConfig({ CASHIER_RETENTION_CALLBACK_DAYS: "-1" }), /^CASHIER_RETENTION_CALLBACK_DAYS must be a whole number \(0 or more\)/);
    t.throws(() => loadConfig({ CASHIER_RETENTION_EVENT_DAYS: "1.5" }), /^CASHIER_RETENTION_EVENT_DAYS must be a whole number/);
    t.throws(() => loadConfig({ CASHIER_RETENTION_BATCH: "0" }), /^CASHIER_RETENTION_BATCH must be a positive integer/);
  },
);

t.test("CASHIER_SESSION_TTL_SECONDS: 900 by default, a positive integer when set", async (t) => {
  t.equal(loadConfig({}).sessionTtlSeconds, 900);
  t.equal(loadConfig({ CASHIER_SESSION_TTL_SECONDS: "120" }).sessionTtlSeconds, 120);
  t.equal(loadConfig({}).cardTokenTtlSeconds, 900);
  t.equal(loadConfig({ CASHIER_CARD_TOKEN_TTL_SECONDS: "60" }).cardTokenTtlSeconds, 60);
  t.throws(() => loadConfig({ CASHIER_SESSION_TTL_SECONDS: "0" }), /CASHIER_SESSION_TTL_SECONDS/);
});
