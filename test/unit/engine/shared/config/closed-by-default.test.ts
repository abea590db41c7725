/**
 * The settings that keep a start closed by default: the engine's and the
 * metrics listeners on loopback unless told otherwise, bearer tokens of at
 * least 32 characters (a weaker one stops the start, naming the setting and
 * never echoing the token), reflection on for token holders unless switched
 * off, the edge's metrics on a port of their own, and no proxy trusted until
 * CASHIER_TRUSTED_PROXIES names it (addresses and networks read strictly).
 */
import t from "tap";
import { loadBackofficeConfig } from "../../../../../engine/shared/config/backoffice-config.ts";
import { ConfigError, loadConfig } from "../../../../../engine/shared/config/config.ts";

const STRONG = "0123456789abcdef0123456789abcdef";

t.test("defaults: loopback listeners, no proxy trusted, reflection on, the edge's metrics on 9465", async (t) => {
  const c = loadConfig({});
  t.equal(c.engineHost, "127.0.0.1");
  t.equal(c.metricsHost, "127.0.0.1");
  t.same(c.trustedProxies, []);
  t.equal(c.grpcReflection, true);
  t.equal(c.edgeMetricsPort, 9465);
  t.equal(c.edgeMetricsPortIsDefault, true);
  t.same(c.serviceTokens, []);
  t.equal(c.edgeToken, undefined);
});

t.test("hosts, reflection and the edge's metrics port as set", async (t) => {
  const c = loadConfig({ ENGINE_HOST: "0.0.0.0", METRICS_HOST: "::", CASHIER_GRPC_REFLECTION: "0", EDGE_METRICS_PORT: "0" });
  t.equal(c.engineHost, "0.0.0.0");
  t.equal(c.metricsHost, "::");
  t.equal(c.grpcReflection, false);
  t.equal(c.edgeMetricsPort, 0);
  t.equal(c.edgeMetricsPortIsDefault, false);
  t.throws(() => loadConfig({ ENGINE_HOST: "http://0.0.0.0" }), /^ENGINE_HOST must be an address or a host name/);
  t.throws(() => loadConfig({ METRICS_HOST: "a b" }), /^METRICS_HOST must be an address or a host name/);
  t.throws(() => loadConfig({ CASHIER_GRPC_REFLECTION: "yes" }), /^CASHIER_GRPC_REFLECTION must be 0 or 1/);
  t.throws(() => loadConfig({ EDGE_METRICS_PORT: "65536" }), /^EDGE_METRICS_PORT must be a port number/);
});

t.test("tokens of 32 characters or more are taken; a shorter one stops the start, naming the setting, not the token", async (t) => {
  const c = loadConfig({ CASHIER_SERVICE_TOKENS: `${STRONG}, ${STRONG}x`, CASHIER_EDGE_TOKEN: STRONG, CASHIER_BACKOFFICE_TOKEN: STRONG });
  t.same(c.serviceTokens, [STRONG, `${STRONG}x`]);
  t.equal(c.edgeToken, STRONG);
  t.equal(c.backofficeToken, STRONG);
  const cases: [Record<string, string>, RegExp][] = [
    [{ CASHIER_SERVICE_TOKENS: "ops-token" }, /^CASHIER_SERVICE_TOKENS: the token has 9 characters; a bearer token needs at least 32/],
    [{ CASHIER_SERVICE_TOKENS: `${STRONG},short-one` }, /^CASHIER_SERVICE_TOKENS: token 2 of 2 has 9 characters/],
    [{ CASHIER_EDGE_TOKEN: "edge-token" }, /^CASHIER_EDGE_TOKEN: the token has 10 characters/],
    [{ CASHIER_BACKOFFICE_TOKEN: STRONG.slice(1) }, /^CASHIER_BACKOFFICE_TOKEN: the token has 31 characters/],
    [{ CASHIER_EDGE_TOKEN: `${STRONG} with a space` }, /^CASHIER_EDGE_TOKEN: the token holds a space, a control or a non-ASCII character/],
    [{ CASHIER_EDGE_TOKEN: `${STRONG}é` }, /^CASHIER_EDGE_TOKEN: the token holds a space/],
  ];
  for (const [env, message] of cases) {
    let err: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      err = e;
    }
    if (!(err instanceof ConfigError)) {
      t.fail(`${JSON.stringify(Object.keys(env))}: a ConfigError`);
      continue;
    }
    t.match(err.message, message, JSON.stringify(Object.keys(env)));
    t.match(err.message, /openssl rand -hex 24/, "says how to make one");
    for (const value of Object.values(env)) for (const token of value.split(",")) t.notOk(err.message.includes(token.trim()), "never echoes the token");
  }
  t.throws(
    () => loadBackofficeConfig({ CASHIER_BACKOFFICE_TOKEN: "x" }),
    /^CASHIER_BACKOFFICE_TOKEN: the token has 1 characters/,
    "the console's own reading too",
  );
  t.equal(loadBackofficeConfig({ CASHIER_BACKOFFICE_TOKEN: STRONG }).token, STRONG);
});

t.test("CASHIER_TRUSTED_PROXIES: addresses and networks, normalised; anything else stops the start naming it", async (t) => {
  const c = loadConfig({ CASHIER_TRUSTED_PROXIES: " 10.0.0.0/8, 192.0.2.7 ,::1, 2001:db8::/32, 10.1.2.3/16, ::ffff:198.51.100.0/120" });
  t.same(c.trustedProxies, ["10.0.0.0/8", "192.0.2.7/32", "::1/128", "2001:db8::/32", "10.1.0.0/16", "198.51.100.0/24"]);
  for (const bad of ["10.0.0.0/33", "::1/129", "proxy.internal", "127.1", "10.0.0.0/", "10.0.0.0/8/8", "unix:", "0x7f.0.0.1", "10.0.0.0/-1"]) {
    t.throws(
      () => loadConfig({ CASHIER_TRUSTED_PROXIES: `10.0.0.1,${bad}` }),
      new RegExp(
        `^CASHIER_TRUSTED_PROXIES must be comma-separated IP addresses or CIDR networks .*got ${JSON.stringify(bad).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`,
      ),
      bad,
    );
  }
  t.same(loadConfig({ CASHIER_TRUSTED_PROXIES: " , " }).trustedProxies, [], "blank entries are no entries");
});
