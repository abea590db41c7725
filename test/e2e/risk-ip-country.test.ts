/**
 * The IP country of the country mismatch rule, against the running service
 * started with CASHIER_IP_COUNTRY_FILE: a rule that lists the test card's BIN
 * under GB lets a GB customer from a GB address through, declines one from an
 * address the file puts in DE with 9009 and the catalogue's words, before any
 * processor, its history naming the rule and the countries compared (the IP's
 * DE), and lets through an address the file lacks and a request without one
 * (unknown is never a refusal). A file with a bad row stops the start, naming
 * the setting, the file, the line and the field, before Postgres starts.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import t from "tap";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ConsoleRiskService } from "../../gen/cashier/admin/v1/console_risk_service_pb.js";
import { movableClock } from "../support/clock.ts";
import { backofficeClient, ctx, enrolOperator } from "../support/operators.ts";
import { SERVICE_TOKEN, useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const repo = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "cashier-ipc-"));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const csv = join(dir, "ip-country.csv");
writeFileSync(csv, ["network,country", "81.2.69.0/24,GB", "2001:db8::/32,DE", "192.0.2.0/24,DE", ""].join("\n"));

const clock = movableClock();
const svc = useService(t, () => ({ CASHIER_IP_COUNTRY_FILE: csv }), { now: clock.now });

function risk() {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${SERVICE_TOKEN}`);
    return next(req);
  };
  return createClient(ConsoleRiskService, createGrpcTransport({ baseUrl: svc().engineUrl, interceptors: [auth] }));
}

const sale = (over: Record<string, unknown>) => processSale(svc().edgeUrl, { order_id: orderId("ipc"), pin: `ipc-${process.pid}`, ...over });

t.test("a sale from an address the file puts in another country is declined 9009, its history naming the rule and the IP country", async (t) => {
  const admin = await enrolOperator(svc(), backofficeClient(svc().engineUrl), clock, "ipc-ann", "admin");
  const saved = await risk().saveRiskRule({
    context: ctx(admin.sessionToken),
    merchantId: "m-test",
    id: 0n,
    spec: { name: "Countries agree", kind: "country_mismatch", binCountries: "411111=GB" },
  });
  const id = saved.rule?.id ?? 0n;
  t.ok(id > 0n);

  const home = await sale({ requester_ip: "81.2.69.10" });
  t.equal(home.body.transaction_status, "approved", "card GB, customer GB, IP GB");

  const away = await sale({ requester_ip: "2001:db8::7" });
  t.same(
    [away.http, away.body.transaction_status, away.body.error_code, away.body.error_details],
    [200, "declined", 9009, "Declined by the merchant's risk rules"],
  );
  t.notMatch(away.text, /Countries agree|ip DE/, "neither the rule nor the country is the platform's to read");
  const got = await svc().client.getTransaction({ traceId: away.body.trace_id });
  const history = got.transaction?.history.map((h) => h.cause) ?? [];
  t.ok(history.includes(`risk:${id}:Countries agree [card GB, customer GB, ip DE]`), "the operator's detail names the rule and the IP country");
  t.same(
    history.filter((c) => c.startsWith("processor:")),
    [],
    "no processor was called",
  );

  const v4 = await sale({ requester_ip: "192.0.2.55" });
  t.equal(v4.body.error_code, 9009, "an IPv4 address the file puts in DE too");
  const unknown = await sale({ requester_ip: "203.0.113.9" });
  t.equal(unknown.body.transaction_status, "approved", "an address the file lacks: its country unknown, never a refusal");
  const none = await sale({});
  t.equal(none.body.transaction_status, "approved", "no requester_ip: unknown");
});

t.test("a file with a bad row stops the start naming the file, the line and the field", async (t) => {
  const bad = join(dir, "bad.csv");
  writeFileSync(bad, "network,country\n81.2.69.0/24,GB\n2001:db8::/32,Germany\n");
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("CASHIER_") || k.endsWith("_PORT") || k === "DATABASE_URL") delete base[k];
  if (base.NODE_OPTIONS) base.NODE_OPTIONS = base.NODE_OPTIONS.replaceAll("=./", `=${repo}/`);
  const child = spawn(process.execPath, [join(repo, "engine/main.ts")], {
    cwd: repo,
    env: { ...base, CASHIER_ENV_FILE: "/dev/null", CASHIER_IP_COUNTRY_FILE: bad, CASHIER_DATA_DIR: join(dir, "data") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise((done) => child.on("exit", done));
  t.equal(code, 1);
  t.match(stderr, `cashier failed to start: CASHIER_IP_COUNTRY_FILE ${bad}: line 3: country "Germany" is not an ISO 3166-1 alpha-2 code`);
  t.notMatch(stdout, /embedded postgres started/, "stopped before Postgres started");
});
