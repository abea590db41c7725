/**
 * Settings a start reads before anything runs, through `node engine/main.ts`
 * itself: a `.env` file in the working directory (the environment wins over
 * it), CASHIER_PUBLIC_URL, and the merchants file (missing, not JSON, a bad
 * entry). Each mistake stops the start at once with one line naming the
 * setting, and its JSON log line carries no stack: the operator can fix it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import t from "tap";
import { readMerchantsFile } from "../../engine/app/bootstrap-merchants.ts";
import { loadConfig } from "../../engine/config.ts";
import { StartError } from "../../engine/start-error.ts";

const repo = resolve(import.meta.dirname, "../..");
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
  const cwd = mkdtempSync(join(dir, "cwd-"));
  writeFileSync(join(cwd, ".env"), "# settings\nENGINE_PORT=70000\n");
  const fromFile = await start(cwd, {});
  t.equal(fromFile.code, 1);
  t.match(fromFile.stderr, /^cashier failed to start: ENGINE_PORT must be a port number \(0-65535\), got "70000"/, "the file's value, named by its variable");
  const fromEnv = await start(cwd, { ENGINE_PORT: "nope" });
  t.match(fromEnv.stderr, /ENGINE_PORT must be a port number \(0-65535\), got "nope"/, "the environment's value");
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
  await t.rejects(readMerchantsFile(notJson), StartError);
  await t.rejects(readMerchantsFile(notJson), /^CASHIER_MERCHANTS_FILE .*broken\.json: not JSON: /);
  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ merchants: [{ merchant_id: "m-1", secret: "secret-0123456789", frontends: [{ name: "f", base_currency: "XXY" }] }] }));
  await t.rejects(readMerchantsFile(bad), /^CASHIER_MERCHANTS_FILE .*bad\.json: merchants\[0\]\.frontends\[0\]\.base_currency must be an ISO 4217 code$/);
  await t.rejects(readMerchantsFile(dir), /is a directory$/);
});

t.test("CASHIER_PUBLIC_URL is an http(s) URL, named when it is not", async (t) => {
  for (const bad of ["notaurl", "ftp://cashier.example", "https://cashier.example/?x=1", "https://user:pw@cashier.example"]) {
    t.throws(() => loadConfig({ CASHIER_PUBLIC_URL: bad }), /^CASHIER_PUBLIC_URL must be an http\(s\) URL/, bad);
  }
  t.equal(loadConfig({ CASHIER_PUBLIC_URL: "https://pay.example/cashier/" }).publicUrl, "https://pay.example/cashier");
});
