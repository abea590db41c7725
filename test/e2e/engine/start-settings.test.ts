/**
 * Settings a start reads before anything runs, through `node engine/main.ts`
 * itself: a `.env` file in the working directory or CASHIER_ENV_FILE (the
 * environment wins over it), CASHIER_PUBLIC_URL, and the merchants file
 * (missing, not JSON, a bad entry). Each mistake stops the start at once with
 * one line naming the setting, and its JSON log line carries no stack: the
 * operator can fix it.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import t from "tap";
import { readMerchantsFile } from "../../../engine/payments/app/bootstrap-merchants.ts";
import { callbackUrlCheck } from "../../../engine/payments/callbacks/address-guard.ts";
import { loadConfig } from "../../../engine/shared/config/config.ts";
import { loadBackofficeConfig } from "../../../engine/shared/config/backoffice-config.ts";
import type { Logger } from "../../../engine/shared/runtime/log.ts";
import { reportStartFailure, StartError } from "../../../engine/shared/runtime/start-error.ts";

const repo = resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(join(tmpdir(), "cashier-settings-"));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** Starts Cashier in `cwd` (so that its `.env` is read) and waits for it to end; a start that gets further is a failure. */
function start(cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("CASHIER_") || k.endsWith("_PORT") || k === "DATABASE_URL") delete base[k];
  // The run's coverage hook is named relative to the repository: from another directory it needs its full path.
  if (base.NODE_OPTIONS) base.NODE_OPTIONS = base.NODE_OPTIONS.replaceAll("=./", `=${repo}/`);
  const child = spawn(process.execPath, [join(repo, "engine/main.ts"), "--with-edge"], {
    cwd,
    env: { ...base, CASHIER_DATA_DIR: join(dir, "data"), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((done) =>
    child.on("exit", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

t.test("a .env file in the working directory is read, and the environment wins over it", async (t) => {
  // METRICS_PORT is checked after ENGINE_PORT: a start that ignored the file would stop on it at once, not run.
  const cwd = mkdtempSync(join(dir, "cwd-"));
  writeFileSync(join(cwd, ".env"), "# settings\nENGINE_PORT=70000\n");
  const fromFile = await start(cwd, { METRICS_PORT: "bad" });
  t.equal(fromFile.code, 1);
  t.match(fromFile.stderr, /^cashier failed to start: ENGINE_PORT must be a port number \(0-65535\), got "70000"/, "the file's value, named by its variable");
  const fromEnv = await start(cwd, { ENGINE_PORT: "nope", METRICS_PORT: "bad" });
  t.match(fromEnv.stderr, /ENGINE_PORT must be a port number \(0-65535\), got "nope"/, "the environment's value");

  // CASHIER_ENV_FILE names another file, read from any directory; one that cannot be read stops the start.
  const named = join(dir, "cashier.env");
  writeFileSync(named, "ENGINE_PORT=70001\n");
  t.match((await start(dir, { CASHIER_ENV_FILE: named, METRICS_PORT: "bad" })).stderr, /got "70001"/, "CASHIER_ENV_FILE's value");
  const missing = await start(dir, { CASHIER_ENV_FILE: join(dir, "none.env"), METRICS_PORT: "bad" });
  t.equal(missing.code, 1);
  t.match(missing.stderr, /^cashier failed to start: CASHIER_ENV_FILE .*none\.env cannot be read/);

  // A .env that is a directory (a Python virtualenv) is not a settings file: passed over.
  const venv = mkdtempSync(join(dir, "venv-"));
  mkdirSync(join(venv, ".env"));
  t.match((await start(venv, { METRICS_PORT: "bad" })).stderr, /^cashier failed to start: METRICS_PORT must be/, "the start goes on to the settings");
});

t.test("a system error the start explains by its code is one line; its stack goes to the debug log only", async (t) => {
  const lines: { level: string; obj: Record<string, unknown> }[] = [];
  const log = {
    fatal: (obj: Record<string, unknown>) => lines.push({ level: "fatal", obj }),
    debug: (obj: Record<string, unknown>) => lines.push({ level: "debug", obj }),
  } as unknown as Logger;
  const taken = Object.assign(new Error("listen EADDRINUSE: address already in use 127.0.0.1:8080"), { code: "EADDRINUSE", port: 8080, address: "127.0.0.1" });
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((s: string) => written.push(s) > 0) as typeof process.stderr.write;
  try {
    reportStartFailure(log, "cashier", taken);
  } finally {
    process.stderr.write = write;
  }
  t.same(
    lines.map((l) => [l.level, "err" in l.obj]),
    [
      ["debug", true],
      ["fatal", false],
    ],
  );
  t.match(written.join(""), /^cashier failed to start: port 8080 on 127\.0\.0\.1 is already in use\. Fix: /);
  const own = new Error("a fault of Cashier's own");
  lines.length = 0;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    reportStartFailure(log, "cashier", own);
  } finally {
    process.stderr.write = write;
  }
  t.same(
    lines.map((l) => [l.level, "err" in l.obj]),
    [["fatal", true]],
    "an unexplained error keeps its stack for whoever debugs it",
  );
});

t.test("a missing merchants file stops the start naming the setting and the file, with no stack in the log", async (t) => {
  const file = join(dir, "no-such-merchants.json");
  const r = await start(dir, { CASHIER_MERCHANTS_FILE: file, EDGE_PORT: "0", ENGINE_PORT: "0", BACKOFFICE_PORT: "0", METRICS_PORT: "0" });
  t.equal(r.code, 1);
  t.equal(r.stderr.trim().split("\n").length, 1, "one line on stderr");
  t.match(r.stderr, `cashier failed to start: CASHIER_MERCHANTS_FILE ${file} does not exist. Fix: correct the file`);
  const fatal = r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((l) => l.level === "fatal");
  t.ok(fatal, "a fatal JSON line");
  t.notOk("err" in fatal, "without the error object and its stack");
  t.notMatch(r.stdout + r.stderr, /\n\s+at /, "no stack frame anywhere");
  t.notMatch(r.stdout, /embedded postgres started/, "stopped before Postgres started");
});

t.test("a merchants file that is not JSON, or has a bad entry, names the file and the entry", async (t) => {
  const notJson = join(dir, "broken.json");
  writeFileSync(notJson, "{ merchants: [ }");
  await t.rejects(readMerchantsFile(notJson, callbackUrlCheck({ allowPrivate: false })), StartError);
  await t.rejects(readMerchantsFile(notJson, callbackUrlCheck({ allowPrivate: false })), /^CASHIER_MERCHANTS_FILE .*broken\.json: not JSON: /);
  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ merchants: [{ merchant_id: "m-1", secret: "secret-0123456789", frontends: [{ name: "f", base_currency: "XXY" }] }] }));
  await t.rejects(
    readMerchantsFile(bad, callbackUrlCheck({ allowPrivate: false })),
    /^CASHIER_MERCHANTS_FILE .*bad\.json: merchants\[0\]\.frontends\[0\]\.base_currency must be an ISO 4217 code$/,
  );
  await t.rejects(readMerchantsFile(dir, callbackUrlCheck({ allowPrivate: false })), /is a directory$/);
});

t.test("CASHIER_PUBLIC_URL is an http(s) URL, named when it is not", async (t) => {
  for (const bad of ["notaurl", "ftp://cashier.example", "https://cashier.example/?x=1", "https://user:pw@cashier.example"]) {
    t.throws(() => loadConfig({ CASHIER_PUBLIC_URL: bad }), /^CASHIER_PUBLIC_URL must be an http\(s\) URL/, bad);
  }
  t.equal(loadConfig({ CASHIER_PUBLIC_URL: "https://pay.example/cashier/" }).publicUrl, "https://pay.example/cashier");
  // The other URL settings, read by the same rule.
  t.throws(
    () => loadConfig({ ACQUIRER_SIM_URL: "ftp://sim.example", ACQUIRER_SIM_KEYS: "sim-a=k1,sim-b=k2" }),
    /^ACQUIRER_SIM_URL must be an http\(s\) URL, got "ftp/,
  );
  t.throws(() => loadBackofficeConfig({ BACKOFFICE_PUBLIC_URL: "console.example" }), /^BACKOFFICE_PUBLIC_URL must be an http\(s\) URL, got "console\.example"/);
  t.equal(loadBackofficeConfig({ BACKOFFICE_PUBLIC_URL: "https://console.example" }).publicUrl, "https://console.example");
  t.equal(loadConfig({ CASHIER_PUBLIC_URL: " HTTP://Pay.Example:8080/ " }).publicUrl, "http://pay.example:8080", "as the URL parser reads it");
  t.throws(() => loadConfig({ CASHIER_PUBLIC_URL: "https://pay.example/?" }), /^CASHIER_PUBLIC_URL/, "an empty query is a query");
});
