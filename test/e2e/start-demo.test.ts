/**
 * What a new user does: start Cashier as `npm start` does, on the embedded
 * database in a fresh data dir, read the printed demo credentials, run the
 * README's signed curl example exactly as written, see that it listens on
 * loopback only but for the edge, stop it with SIGTERM; and an operator's
 * merchants file upserted at every start.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import t, { type Test } from "tap";
import { post, saleBody, sign } from "../support/wire.ts";

const run = promisify(execFile);
const repo = new URL("../..", import.meta.url).pathname;

interface Started {
  child: ChildProcess;
  edgePort: number;
  enginePort: number;
  /** The "cashier ready" line as logged. */
  ready: Record<string, unknown>;
  output: () => string;
}

/** Every Cashier this file starts; killed at the end whatever happened, so a failed check never leaves one running. */
const children = new Set<ChildProcess>();
t.teardown(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

async function startCashier(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ["engine/main.ts", "--with-edge"], {
    cwd: repo,
    env: { ...process.env, EDGE_PORT: "0", ENGINE_PORT: "0", METRICS_PORT: "0", EDGE_METRICS_PORT: "0", CASHIER_MERCHANTS_FILE: "", DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const ready = await new Promise<{ edgePort: number; enginePort: number; ready: Record<string, unknown> }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 180 s:\n${out}`)), 180_000);
    const check = () => {
      const line = out.split("\n").find((l) => l.includes('"cashier ready'));
      if (line) {
        clearTimeout(timer);
        const j = JSON.parse(line);
        resolve({ edgePort: j.edgePort, enginePort: j.enginePort, ready: j });
      }
    };
    child.stdout!.on("data", check);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}:\n${out}`));
    });
  });
  return { child, ...ready, output: () => out };
}

/** SIGTERM, and the exit code; a Cashier still running 30 s later is killed and reported as "did not stop". */
async function stop(s: Started): Promise<number | string | null> {
  const exited = new Promise<number | string | null>((resolve) => {
    const timer = setTimeout(() => {
      s.child.kill("SIGKILL");
      resolve("did not stop within 30 s of SIGTERM");
    }, 30_000);
    s.child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  s.child.kill("SIGTERM");
  return exited;
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "cashier-start-"));
  chmodSync(dir, 0o755);
  return dir;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * A default start listens on loopback only, but for the edge: the engine's gRPC port, both metrics ports and
 * the Backoffice accept on 127.0.0.1 and refuse on this machine's other addresses; the edge takes both; the
 * edge's public port has no /metrics.
 */
async function closedByDefault(t: Test, s: Started): Promise<void> {
  const r = s.ready as { enginePort: number; metricsPort: number; edgeMetricsPort: number; backofficePort: number; engineHost: string; metricsHost: string };
  t.equal(r.engineHost, "127.0.0.1", "the ready line names the engine's address");
  t.equal(r.metricsHost, "127.0.0.1");
  const closed = { engine: r.enginePort, metrics: r.metricsPort, "edge metrics": r.edgeMetricsPort, backoffice: r.backofficePort };
  for (const [name, port] of Object.entries(closed)) t.ok(await accepts("127.0.0.1", port), `${name} on loopback`);
  t.ok(await accepts("127.0.0.1", s.edgePort), "the edge on loopback");
  t.equal((await fetch(`http://127.0.0.1:${s.edgePort}/metrics`)).status, 404, "no /metrics on the public port");
  t.equal((await fetch(`http://127.0.0.1:${r.edgeMetricsPort}/metrics`)).status, 200, "the edge's metrics on their own port");
  const outside = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  if (!outside) {
    t.comment("no non-loopback IPv4 address on this machine: the listeners' addresses are checked on loopback only");
    return;
  }
  for (const [name, port] of Object.entries(closed)) t.notOk(await accepts(outside, port), `${name} not on ${outside}`);
  t.ok(await accepts(outside, s.edgePort), `the edge on ${outside} too`);
}

t.test("first start: demo merchant printed, README curl example works, SIGTERM stops cleanly", async (t) => {
  const dir = dataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const s = await startCashier({ CASHIER_DATA_DIR: dir });
  t.match(s.output(), /Demo merchant created/);
  t.match(s.output(), /merchant_id: m-demo/);
  const creds = JSON.parse(readFileSync(join(dir, "demo-merchant.json"), "utf8"));
  t.match(s.output(), /secret: +in .*demo-merchant\.json/, "the banner says where the secret is");
  t.notOk(s.output().includes(creds.secret), "the secret itself is in no log line and not on the console");

  const readme = readFileSync(join(repo, "README.md"), "utf8");
  const block = /<!-- demo:start -->\s*```sh\n([\s\S]*?)```\s*<!-- demo:end -->/.exec(readme);
  t.ok(block, "README has the demo block");
  const { stdout } = await run("bash", ["-c", block![1]], {
    cwd: repo,
    timeout: 30_000,
    env: { ...process.env, CASHIER_DATA_DIR: dir, EDGE_PORT: String(s.edgePort) },
  });
  const reply = JSON.parse(stdout);
  t.equal(reply.status, 0);
  t.equal(reply.transaction_status, "approved");

  await closedByDefault(t, s);

  const code = await stop(s);
  t.equal(code, 0, "exits 0 on SIGTERM");
  t.notMatch(s.output(), /4111111111111111/, "no card number in the output");

  const again = await startCashier({ CASHIER_DATA_DIR: dir });
  t.notMatch(again.output(), /Demo merchant created/, "the demo merchant is created once");
  await stop(again);
});

/**
 * The data dir the upsert test leaves initialised and cleanly stopped: the bad-file test starts on it, as an
 * operator's next start would, instead of paying for a second initdb. Removed at the end of the file.
 */
let initialisedDir: string | undefined;
t.teardown(() => {
  if (initialisedDir) rmSync(initialisedDir, { recursive: true, force: true });
});

t.test("a merchants file is upserted at every start", async (t) => {
  const dir = dataDir();
  t.teardown(() => {
    if (initialisedDir !== dir) rmSync(dir, { recursive: true, force: true });
  });
  const file = join(dir, "merchants.json");
  const write = (secret: string) =>
    writeFileSync(file, JSON.stringify({ merchants: [{ merchant_id: "m-file", secret, frontends: [{ name: "file-usd", base_currency: "USD" }] }] }));
  write("first-secret");
  const one = await startCashier({ CASHIER_DATA_DIR: dir, CASHIER_MERCHANTS_FILE: file });
  t.notMatch(one.output(), /Demo merchant created/);
  t.match(one.output(), "merchant m-file: its secret is shorter than 16 characters", "a short secret is taken, with a warning");
  t.notOk(one.output().includes('"first-secret'), "the secret itself is not in the log");
  const base = `http://127.0.0.1:${one.edgePort}`;
  const body = () => saleBody({ merchant_id: "m-file", frontend: "file-usd" });
  t.equal((await post(base, sign(body(), "first-secret"))).http, 200);
  await stop(one);

  write("second-secret");
  const two = await startCashier({ CASHIER_DATA_DIR: dir, CASHIER_MERCHANTS_FILE: file });
  const base2 = `http://127.0.0.1:${two.edgePort}`;
  t.equal((await post(base2, sign(body(), "second-secret"))).http, 200, "the new secret is in force");
  t.equal((await post(base2, sign(body(), "first-secret"))).http, 401, "the old one is not");
  const code = await stop(two);
  t.equal(code, 0, "exits 0 on SIGTERM with an idle client connected");
  if (code === 0) initialisedDir = dir;
});

t.test("a bad merchants file stops the start with a message naming the entry", async (t) => {
  const dir = initialisedDir ?? dataDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "merchants.json");
  writeFileSync(file, JSON.stringify({ merchants: [{ merchant_id: "m-bad", secret: "s", frontends: [{ name: "x", base_currency: "XXY" }] }] }));
  await t.rejects(startCashier({ CASHIER_DATA_DIR: dir, CASHIER_MERCHANTS_FILE: file }), /merchants\[0\]\.frontends\[0\]\.base_currency/);
});
