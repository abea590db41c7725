/**
 * A callback address the running service's SSRF guard would refuse to call
 * (CASHIER_CALLBACK_ALLOW_PRIVATE off, as here) is refused when it is saved,
 * not taken to decline every Validation later: through AdminService, through
 * the console (audited as a failure) and in the merchants file at start, each
 * with the guard's own words and the field named. An address written in the
 * URL is judged as written; a name by what it resolves to now (localhost, from
 * the hosts file); a name that does not resolve is taken.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import t from "tap";
import { movableClock } from "../support/clock.ts";
import { backofficeClient, ctx, enrolOperator } from "../support/operators.ts";
import { useService } from "../support/service.ts";
import { refusal } from "../support/refusal.ts";

const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });
const bo = () => backofficeClient(svc().engineUrl);

const guardSays = (host: string) =>
  `address refused: ${host} is or resolves to a loopback, private, link-local or metadata address (CASHIER_CALLBACK_ALLOW_PRIVATE is off)`;

/** The shared refusal's first violation (its field and description), its message where it names none, or undefined when the call was taken. */
async function named(p: Promise<unknown>): Promise<{ field: string; description: string } | undefined> {
  const r = await refusal(p);
  if (r.code === undefined) return undefined;
  const [v] = r.violations;
  return v ? { field: v.field, description: v.description } : { field: "", description: r.message };
}

const stored = async (merchantId: string) =>
  (
    await svc().sql<{ platform_url: string | null; validation_url: string | null; update_payout_url: string | null }>(
      "select platform_url, validation_url, update_payout_url from merchant where id = $1",
      [merchantId],
    )
  )[0];

/** Each reason the guard gives, in each field a merchant's callbacks are sent to. */
const REFUSED: [field: "platform_url" | "validation_url" | "update_payout_url", url: string, host: string][] = [
  ["validation_url", "http://127.0.0.1:9/api/validation", "127.0.0.1"],
  ["validation_url", "https://10.1.2.3/validate", "10.1.2.3"],
  ["platform_url", "http://169.254.169.254/latest/meta-data", "169.254.169.254"],
  ["platform_url", "http://[::1]:8080/", "[::1]"],
  ["update_payout_url", "http://[::ffff:192.168.0.1]/UpdatePayout", "[::ffff:c0a8:1]"],
  ["update_payout_url", "http://localhost:9/UpdatePayout", "localhost"],
];
const KEY = { platform_url: "platformUrl", validation_url: "validationUrl", update_payout_url: "updatePayoutUrl" } as const;

t.test("AdminService refuses each address the guard would refuse, naming the field with the guard's words", async (t) => {
  const before = await stored("m-single");
  for (const [field, url, host] of REFUSED) {
    const r = await named(svc().admin.updateMerchant({ merchant: { merchantId: "m-single", [KEY[field]]: url }, updateMask: { paths: [field] } }));
    t.same(r, { field: `merchant.${field}`, description: guardSays(host) }, url);
  }
  t.same(await stored("m-single"), before, "nothing stored");

  const created = await named(
    svc().admin.createMerchant({
      merchant: { merchantId: "m-new-guarded", validationUrl: "http://192.168.1.20/validate", frontends: [{ name: "g-usd", baseCurrency: "USD" }] },
      secret: "a-long-enough-secret-0123",
    }),
  );
  t.same(created, { field: "merchant.validation_url", description: guardSays("192.168.1.20") }, "CreateMerchant too");
  t.equal((await svc().sql("select 1 from merchant where id = 'm-new-guarded'")).length, 0, "no merchant made");

  const scheme = await named(
    svc().admin.updateMerchant({ merchant: { merchantId: "m-single", platformUrl: "ftp://platform.example/" }, updateMask: { paths: ["platform_url"] } }),
  );
  t.same(scheme, { field: "merchant.platform_url", description: "must be an http(s) URL" }, "not http(s): the field's own rule, before the guard");
});

t.test("a public address, and a name that does not resolve now, are taken", async (t) => {
  const r = await svc().admin.updateMerchant({
    merchant: { merchantId: "m-single", validationUrl: "https://8.8.8.8/validate", platformUrl: "https://platform.invalid/api" },
    updateMask: { paths: ["validation_url", "platform_url"] },
  });
  t.equal(r.merchant?.validationUrl, "https://8.8.8.8/validate");
  t.equal(r.merchant?.platformUrl, "https://platform.invalid/api", "the guard judges the name again at each call");
});

t.test("an address stored before does not block a change to another setting", async (t) => {
  await svc().sql("update merchant set validation_url = 'http://127.0.0.1:9/old' where id = 'm-manual'");
  const r = await svc().admin.updateMerchant({ merchant: { merchantId: "m-manual", processors: ["sim-b", "sim-a"] }, updateMask: { paths: ["processors"] } });
  t.same(r.merchant?.processors, ["sim-b", "sim-a"]);
  const again = await named(
    svc().admin.updateMerchant({ merchant: { merchantId: "m-manual", validationUrl: "http://127.0.0.1:9/old" }, updateMask: { paths: ["validation_url"] } }),
  );
  t.equal(again?.field, "merchant.validation_url", "saving it again is refused");
});

t.test("the console refuses it too, audited as a failed merchant.update with the reason", async (t) => {
  const admin = await enrolOperator(svc(), bo(), clock, "guard-admin", "admin");
  const r = await named(
    bo().updateMerchant({
      context: ctx(admin.sessionToken),
      update: { merchant: { merchantId: "m-single", validationUrl: "http://10.0.0.8/v" }, updateMask: { paths: ["validation_url"] } },
    }),
  );
  t.same(r, { field: "merchant.validation_url", description: guardSays("10.0.0.8") });
  const rows = await svc().sql<{ outcome: string; detail: string; actor: string }>(
    "select outcome, detail, actor from audit_log where action = 'merchant.update' and merchant_id = 'm-single' order by id desc limit 1",
  );
  t.equal(rows[0].outcome, "failure");
  t.equal(rows[0].actor, "guard-admin");
  t.match(rows[0].detail, "merchant.validation_url");
  t.match(rows[0].detail, "address refused: 10.0.0.8");
});

const repo = resolve(import.meta.dirname, "../..");

/** Starts Cashier with a merchants file and waits for it to end: the file is read before anything else starts. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("CASHIER_") || k.endsWith("_PORT") || k === "DATABASE_URL") delete base[k];
  if (base.NODE_OPTIONS) base.NODE_OPTIONS = base.NODE_OPTIONS.replaceAll("=./", `=${repo}/`);
  const child = spawn(process.execPath, [join(repo, "engine/main.ts")], {
    cwd: repo,
    env: { ...base, CASHIER_ENV_FILE: "/dev/null", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((done) => child.on("exit", (code) => done({ code, stderr, stdout })));
}

t.test("a merchants file naming such an address stops the start, naming the entry, the field and the reason", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cashier-guard-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "merchants.json");
  writeFileSync(
    file,
    JSON.stringify({
      merchants: [
        {
          merchant_id: "m-fine",
          secret: "a-long-enough-secret-0123",
          platform_url: "https://platform.invalid",
          frontends: [{ name: "f", base_currency: "USD" }],
        },
        {
          merchant_id: "m-local",
          secret: "a-long-enough-secret-0123",
          validation_url: "http://localhost:8080/validate",
          frontends: [{ name: "f", base_currency: "USD" }],
        },
      ],
    }),
  );
  const r = await start({ CASHIER_MERCHANTS_FILE: file, CASHIER_DATA_DIR: join(dir, "data") });
  t.equal(r.code, 1);
  t.match(r.stderr, `cashier failed to start: CASHIER_MERCHANTS_FILE ${file}: merchants[1].validation_url ${guardSays("localhost")}`);
  t.notMatch(r.stdout, /embedded postgres started/, "stopped before Postgres started");
});
