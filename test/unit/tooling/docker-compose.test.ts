/**
 * docker-compose.yml is the production shape (CONTRACT section 1): postgres,
 * engine and edge as separate services from one Dockerfile. No Docker engine
 * runs in CI, so this checks the file's structure instead: the services, their
 * commands, settings named as engine/shared/config/config.ts reads them, healthchecks and
 * start order, and that the image holds every file the commands import.
 */
import t from "tap";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parse } from "yaml";

const root = resolve(import.meta.dirname, "../../..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

interface Service {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | { target: number; published?: string | number })[];
  expose?: (string | number)[];
  volumes?: (string | { type?: string; source?: string; target: string })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  container_name?: string;
  [key: string]: unknown;
}

const compose = parse(read("docker-compose.yml")) as { services: Record<string, Service>; volumes?: Record<string, unknown> };
const services = compose.services ?? {};

/** environment as a map, whichever of the two compose spellings is used. */
function env(service: Service): Record<string, string> {
  const raw = service.environment ?? {};
  if (Array.isArray(raw)) {
    return Object.fromEntries(
      raw.map((line) => {
        const i = line.indexOf("=");
        return i < 0 ? [line, ""] : [line.slice(0, i), line.slice(i + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v === null ? "" : String(v)]));
}

function command(service: Service): string[] {
  const c = service.command ?? [];
  return Array.isArray(c) ? c.map(String) : c.trim().split(/\s+/);
}

function healthcheck(service: Service): string {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(" ") : (test ?? "");
}

function dependsOn(service: Service): Record<string, string | undefined> {
  const d = service.depends_on ?? {};
  return Array.isArray(d) ? Object.fromEntries(d.map((name) => [name, undefined])) : Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v?.condition]));
}

/** The settings engine/shared/config/config.ts reads, e.g. env.DATABASE_URL or port(env, "EDGE_PORT", ...). */
const configVars = new Set(
  [...read("engine/shared/config/config.ts").matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[\s*"([A-Z][A-Z0-9_]*)"\s*\]|\s*,\s*"([A-Z][A-Z0-9_]*)")/g)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  ),
);

/** Relative .ts/.js files reachable by import from entry (repo-relative paths). */
function importClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = read(file);
    for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = relative(root, resolve(root, dirname(file), m[1]));
      if (existsSync(join(root, target))) queue.push(target);
      else seen.add(`${target} (missing, imported by ${file})`);
    }
  }
  return seen;
}

t.test("five services: postgres, engine and edge, the acquirer simulator behind sim-a and sim-b, and the Backoffice", async (t) => {
  t.same(Object.keys(services).sort(), ["acquirer-sim", "backoffice", "edge", "engine", "postgres"]);
});

/** The settings the Backoffice's own config (engine/shared/config/backoffice-config.ts) reads. */
const backofficeVars = new Set([...read("engine/shared/config/backoffice-config.ts").matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));

t.test("backoffice: its own service and port, on the host's loopback only, reaching the engine by name with its own token", async (t) => {
  const bo = services.backoffice;
  t.same(command(bo), ["node", "edge/backoffice/main.ts"]);
  t.same(bo.build, services.engine.build, "the same image build as the engine");
  const e = env(bo);
  for (const name of Object.keys(e)) t.ok(configVars.has(name) || backofficeVars.has(name), `${name} is a setting the code reads`);
  t.equal(e.BACKOFFICE_PORT, "8081");
  t.not(e.BACKOFFICE_PORT, env(services.edge).EDGE_PORT, "never the public edge's port");
  t.same(
    (bo.ports ?? []).map((p) => (typeof p === "string" ? p.replace(/^"|"$/g, "") : `${p.published}:${p.target}`)),
    ["127.0.0.1:8081:8081"],
    "published on the host's loopback only",
  );
  const engineUrl = new URL(e.ENGINE_URL);
  t.equal(engineUrl.hostname, "engine", "ENGINE_URL names the engine service");
  t.equal(engineUrl.port, env(services.engine).ENGINE_PORT);
  t.match(e.CASHIER_BACKOFFICE_TOKEN, /^\$\{CASHIER_BACKOFFICE_TOKEN:\?[^}]*\}$/, "its token required from the environment");
  t.equal(env(services.engine).CASHIER_BACKOFFICE_TOKEN, e.CASHIER_BACKOFFICE_TOKEN, "the same token the engine accepts");
  t.not(e.CASHIER_BACKOFFICE_TOKEN, env(services.edge).CASHIER_EDGE_TOKEN, "not the edge's token");
  t.notOk("CASHIER_EDGE_TOKEN" in e, "the console does not hold the edge's token");
  t.ok(e.BACKOFFICE_PUBLIC_URL, "the address operators' browsers use (passkeys are bound to it)");
  t.equal(dependsOn(bo).engine, "service_healthy", "starts once the engine is healthy");
  t.match(healthcheck(bo), /http:\/\/127\.0\.0\.1:8081\/healthz/, "healthcheck GETs /healthz");
  t.notOk(
    services.edge.ports?.some((p) => String(typeof p === "string" ? p : p.target).includes("8081")),
    "the edge does not publish the console's port",
  );
});

t.test("acquirer-sim: its own service, reached by the engine by name with the same required keys", async (t) => {
  const sim = services["acquirer-sim"];
  t.same(command(sim), ["node", "engine/payments/processors/acquirer-sim/main.ts"]);
  t.ok(existsSync(join(root, "engine/payments/processors/acquirer-sim/main.ts")), "its command's file exists");
  const e = env(sim);
  t.equal(e.ACQUIRER_SIM_HOST, "0.0.0.0", "listens for the compose network");
  t.match(e.ACQUIRER_SIM_KEYS, /^\$\{ACQUIRER_SIM_KEYS:\?[^}]*\}$/, "keys required from the environment (no dev keys in this shape)");
  t.match(healthcheck(sim), new RegExp(`127\\.0\\.0\\.1:${e.ACQUIRER_SIM_PORT}/healthz`), "healthy once /healthz answers on its port");
  t.notOk(sim.ports, "not published on the host");
  const engine = env(services.engine);
  t.equal(engine.ACQUIRER_SIM_URL, `http://acquirer-sim:${e.ACQUIRER_SIM_PORT}`, "the engine reaches it by service name");
  t.equal(engine.ACQUIRER_SIM_KEYS, e.ACQUIRER_SIM_KEYS, "with the same keys");
  t.equal(dependsOn(services.engine)["acquirer-sim"], "service_healthy", "the engine starts once it is healthy");
});

t.test("engine/shared/config/config.ts names the settings this file relies on", async (t) => {
  for (const name of [
    "DATABASE_URL",
    "ENGINE_PORT",
    "EDGE_PORT",
    "ENGINE_URL",
    "CASHIER_SERVICE_TOKENS",
    "CASHIER_EDGE_TOKEN",
    "CASHIER_MASTER_KEY",
    "CASHIER_PUBLIC_URL",
    "CASHIER_DATA_DIR",
    "ENGINE_HOST",
    "METRICS_HOST",
    "EDGE_METRICS_PORT",
    "CASHIER_TRUSTED_PROXIES",
    "CASHIER_GRPC_REFLECTION",
  ]) {
    t.ok(configVars.has(name), `config.ts reads ${name}`);
  }
});

t.test("postgres: the postgres:17 image, pg_isready healthcheck, data on a named volume", async (t) => {
  const pg = services.postgres;
  t.match(pg.image, /^postgres:17(\b|$)/);
  t.match(healthcheck(pg), /pg_isready/);
  const e = env(pg);
  t.equal(e.POSTGRES_USER, "cashier");
  t.equal(e.POSTGRES_DB, "cashier");
  t.ok(e.POSTGRES_PASSWORD, "a password is set");
  const dataVolume = (pg.volumes ?? [])
    .map((v) => (typeof v === "string" ? v.split(":") : [v.source, v.target]))
    .find(([, target]) => target === "/var/lib/postgresql/data");
  t.ok(dataVolume, "a volume on /var/lib/postgresql/data");
  t.ok(dataVolume && compose.volumes && dataVolume[0]! in compose.volumes, `the data volume ${dataVolume?.[0]} is a declared named volume`);
  t.notOk(pg.ports, "Postgres is not published on the host");
});

t.test("engine: node engine/main.ts on the compose Postgres, ready once its port answers", async (t) => {
  const engine = services.engine;
  t.same(command(engine), ["node", "engine/main.ts"]);
  const build = typeof engine.build === "string" ? { context: engine.build } : engine.build;
  t.ok(build, "built from the repo");
  t.equal(resolve(root, build?.context ?? "."), root, "build context is the repo root");
  t.equal(build?.dockerfile ?? "Dockerfile", "Dockerfile");
  const e = env(engine);
  for (const name of Object.keys(e)) t.ok(configVars.has(name), `${name} is a setting engine/shared/config/config.ts reads`);
  t.equal(e.DATABASE_URL, "postgres://cashier:cashier@postgres:5432/cashier");
  const db = new URL(e.DATABASE_URL);
  const pgEnv = env(services.postgres);
  t.equal(db.hostname, "postgres", "DATABASE_URL names the postgres service");
  t.same([db.username, db.password, db.pathname.slice(1)], [pgEnv.POSTGRES_USER, pgEnv.POSTGRES_PASSWORD, pgEnv.POSTGRES_DB], "and its credentials");
  t.equal(e.ENGINE_PORT, "50051");
  // Closed by default (127.0.0.1) everywhere else; the file says its own choice, as a deployment must.
  t.equal(e.ENGINE_HOST, "0.0.0.0", "ENGINE_HOST said explicitly: the compose network reaches the engine");
  t.equal(e.METRICS_HOST, "0.0.0.0", "METRICS_HOST said explicitly: a Prometheus on the compose network scrapes it");
  t.same(engine.expose?.map(String).sort(), [e.ENGINE_PORT, e.METRICS_PORT].sort(), "gRPC and metrics exposed to the network only");
  t.match(e.CASHIER_SERVICE_TOKENS, /^\$\{CASHIER_SERVICE_TOKENS(:?-[^}]*)?\}$/, "service tokens from the environment");
  t.match(e.CASHIER_EDGE_TOKEN, /^\$\{CASHIER_EDGE_TOKEN:\?[^}]*\}$/, "edge token required from the environment (no published default)");
  t.match(e.CASHIER_MASTER_KEY, /^\$\{CASHIER_MASTER_KEY:\?[^}]*\}$/, "master key required from the environment (no dev key in production)");
  t.ok(e.CASHIER_PUBLIC_URL, "the engine builds redirect_urls, so it knows the public URL");
  t.equal(dependsOn(engine).postgres, "service_healthy", "starts once Postgres is healthy");
  t.match(healthcheck(engine), /node engine\/healthcheck\.ts/, "healthcheck asks grpc.health.v1 (engine/healthcheck.ts)");
  t.ok(existsSync(resolve(root, "engine/healthcheck.ts")), "and that script exists");
  t.notOk(engine.container_name, "no container_name, so --scale engine=2 works");
  t.notOk(engine.ports, "no fixed host port, so --scale engine=2 works");
  const dataDir = e.CASHIER_DATA_DIR;
  if (dataDir) {
    const mounted = (engine.volumes ?? []).map((v) => (typeof v === "string" ? v.split(":") : [v.source, v.target]));
    const volume = mounted.find(([, target]) => target === dataDir);
    t.ok(volume, `CASHIER_DATA_DIR ${dataDir} is a volume`);
    t.ok(volume && compose.volumes && volume[0]! in compose.volumes, "a declared named volume");
  }
});

t.test("edge: node edge/main.ts on port 8080, reaching the engine by service name", async (t) => {
  const edge = services.edge;
  const engine = services.engine;
  t.same(command(edge), ["node", "edge/main.ts"]);
  t.same(edge.build, engine.build, "the same image build as the engine");
  const e = env(edge);
  for (const name of Object.keys(e)) t.ok(configVars.has(name), `${name} is a setting engine/shared/config/config.ts reads`);
  t.equal(e.EDGE_PORT, "8080");
  const engineUrl = new URL(e.ENGINE_URL);
  t.equal(engineUrl.hostname, "engine", "ENGINE_URL names the engine service");
  t.equal(engineUrl.port, env(engine).ENGINE_PORT, "on the engine's port");
  t.equal(e.CASHIER_EDGE_TOKEN, env(engine).CASHIER_EDGE_TOKEN, "the same edge token the engine accepts");
  t.ok("CASHIER_PUBLIC_URL" in e, "CASHIER_PUBLIC_URL is passed");
  t.match(e.CASHIER_TRUSTED_PROXIES, /^\$\{CASHIER_TRUSTED_PROXIES:-\}$/, "no proxy trusted unless the operator names one");
  t.equal(e.METRICS_HOST, "0.0.0.0", "its metrics listener said explicitly");
  t.equal(e.EDGE_METRICS_PORT, "9465");
  t.same(edge.expose?.map(String), ["9465"], "exposed to the compose network, not published");
  t.notOk(
    (edge.ports ?? []).some((p) => String(typeof p === "string" ? p : p.target).includes("9465")),
    "the metrics port is not published on the host",
  );
  t.ok(
    (edge.ports ?? []).some((p) => (typeof p === "string" ? p.replace(/^"|"$/g, "") === "8080:8080" : p.target === 8080 && String(p.published) === "8080")),
    "publishes 8080:8080",
  );
  t.equal(dependsOn(edge).engine, "service_healthy", "starts once the engine is healthy");
  t.match(healthcheck(edge), /http:\/\/127\.0\.0\.1:8080\/healthz/, "healthcheck GETs /healthz");
});

t.test("every named volume a service mounts is declared", async (t) => {
  for (const [name, service] of Object.entries(services)) {
    for (const v of service.volumes ?? []) {
      const source = typeof v === "string" ? v.split(":")[0] : v.source;
      if (!source || source.startsWith(".") || source.startsWith("/") || source.startsWith("~")) continue;
      t.ok(compose.volumes && source in compose.volumes, `${name}: volume ${source} is declared`);
    }
  }
});

t.test("every service with a healthcheck is checked with an exec-form or shell command", async (t) => {
  for (const name of ["postgres", "engine", "edge", "backoffice"]) {
    const test = services[name].healthcheck?.test;
    t.ok(Array.isArray(test) && ["CMD", "CMD-SHELL"].includes(test[0]!), `${name} healthcheck`);
    t.notOk(services[name].healthcheck?.disable, `${name} healthcheck enabled`);
  }
});

t.test("the Dockerfile: Node 24, production dependencies, non-root, and every file the commands import", async (t) => {
  t.ok(existsSync(join(root, "Dockerfile")), "Dockerfile exists");
  const dockerfile = read("Dockerfile");
  const from = [...dockerfile.matchAll(/^FROM\s+(\S+)/gim)].map((m) => m[1]);
  t.ok(from.length > 0, "has a FROM");
  t.match(from.at(-1), /^node:24(\b|[-.])/, "the runtime stage is Node 24");
  t.match(dockerfile, /npm ci --omit=dev/);
  const user = [...dockerfile.matchAll(/^USER\s+(\S+)/gim)].map((m) => m[1]).at(-1);
  t.ok(user && !/^(root|0)(:|$)/.test(user), `runs as a non-root user (${user})`);
  const copied = new Set(
    [...dockerfile.matchAll(/^COPY\s+(?!--from)(.+)$/gim)].flatMap((m) => m[1].trim().split(/\s+/).slice(0, -1)).map((p) => p.replace(/\/+$/, "")),
  );
  for (const file of ["package.json", "package-lock.json"]) t.ok(copied.has(file) || copied.has("."), `COPY ${file}`);
  const ignored = existsSync(join(root, ".dockerignore"))
    ? read(".dockerignore")
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith("#"))
    : [];

  for (const name of ["engine", "edge", "backoffice"]) {
    const script = command(services[name]).find((arg) => arg.endsWith(".ts"));
    t.ok(script, `${name} runs a .ts file`);
    if (!script) continue;
    t.ok(existsSync(join(root, script)), `${script} exists in the repo`);
    const files = importClosure(script);
    const missing = [...files].filter((f) => f.includes("(missing"));
    t.same(missing, [], `every relative import of ${script} exists`);
    const topDirs = [...new Set([...files].filter((f) => !f.includes("(missing")).map((f) => f.split("/")[0]))].sort();
    for (const dir of topDirs) {
      t.ok(copied.has(dir) || copied.has("."), `the image holds ${dir}/ (imported by ${script})`);
      t.notOk(ignored.includes(dir) || ignored.includes(`${dir}/`), `.dockerignore keeps ${dir}/`);
    }
  }
});
