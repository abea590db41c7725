/**
 * SIGTERM while Process requests are in flight, on `node engine/main.ts
 * --with-edge` as a supervisor runs it: every request sent gets either a
 * complete valid reply (status 0) or a connection refusal, never a 5xx or a
 * cut body; the process logs "shutting down" and "stopped", exits 0 within
 * CASHIER_SHUTDOWN_TIMEOUT_MS, and its embedded Postgres is gone (shut down
 * cleanly: no postmaster.pid left).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { until } from "../support/until.ts";
import t from "tap";
import { MERCHANTS } from "../support/merchants.ts";
import { saleBody, sign } from "../support/wire.ts";
import { alive } from "../support/cluster/files.ts";

const repo = new URL("../..", import.meta.url).pathname;
const BOUND_MS = 10_000;

interface Outcome {
  started: number;
  ended: number;
  kind: "reply" | "refused" | "error";
  http?: number;
  body?: string;
  error?: string;
}

/**
 * One POST on a fresh connection (no keep-alive: no idle-socket race to
 * blame); `connected` resolves once the TCP handshake is done, that is once
 * the connection is in the edge's accept queue.
 */
function post(port: number): { connected: Promise<void>; outcome: Promise<Outcome> } {
  const started = performance.now();
  const payload = Buffer.from(JSON.stringify(sign(saleBody())));
  let connected!: () => void;
  const isConnected = new Promise<void>((r) => (connected = r));
  const outcome = new Promise<Outcome>((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/process",
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", "content-length": payload.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ started, ended: performance.now(), kind: "reply", http: res.statusCode, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", (err) => resolve({ started, ended: performance.now(), kind: "error", http: res.statusCode, error: String(err) }));
      },
    );
    req.on("socket", (s) => s.once("connect", connected));
    req.on("error", (err: NodeJS.ErrnoException) => {
      connected();
      resolve({ started, ended: performance.now(), kind: err.code === "ECONNREFUSED" ? "refused" : "error", error: `${err.code}: ${err.message}` });
    });
    req.end(payload);
  });
  return { connected: isConnected, outcome };
}

/** Direct children of `pid` whose command is postgres (the embedded cluster's postmaster). */
function postgresChildren(pid: number): number[] {
  const found: number[] = [];
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid && comm.startsWith("postgres")) found.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function waitFor(out: () => string, re: RegExp): Promise<void> {
  if (!(await until(async () => re.test(out()), 2500, 5))) throw new Error(`no ${re} in:\n${out()}`);
}

async function start(dir: string): Promise<{ child: ChildProcess; edgePort: number; out: () => string }> {
  const merchants = join(dir, "merchants.json");
  writeFileSync(merchants, JSON.stringify(MERCHANTS));
  const child = spawn(process.execPath, ["engine/main.ts", "--with-edge"], {
    cwd: repo,
    env: {
      ...process.env,
      EDGE_PORT: "0",
      ENGINE_PORT: "0",
      METRICS_PORT: "0",
      DATABASE_URL: "",
      CASHIER_DATA_DIR: dir,
      CASHIER_MERCHANTS_FILE: merchants,
      CASHIER_SHUTDOWN_TIMEOUT_MS: String(BOUND_MS),
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const edgePort = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 60 s:\n${out}`)), 60_000);
    child.stdout!.on("data", () => {
      const line = out.split("\n").find((l) => l.includes('"cashier ready'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line).edgePort);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before ready:\n${out}`));
    });
  });
  return { child, edgePort, out: () => out };
}

t.test("SIGTERM with requests in flight: complete replies or refusals, exit 0, Postgres gone", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cashier-shutdown-"));
  chmodSync(dir, 0o755);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { child, edgePort, out } = await start(dir);
  t.teardown(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  const pg = postgresChildren(child.pid!);
  t.equal(pg.length, 1, "one embedded postmaster under the process");

  // Served before: a few requests on their own.
  const outcomes: Outcome[] = [];
  for (let i = 0; i < 4; i++) outcomes.push(await post(edgePort).outcome);
  // A burst on fresh connections; SIGTERM once all of them are connected, while they are processed.
  const burst = Array.from({ length: 24 }, () => post(edgePort));
  await Promise.all(burst.map((b) => b.connected));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once("exit", (code) => resolve({ code, at: performance.now() })));
  const killedAt = performance.now();
  child.kill("SIGTERM");
  // Once the edge says it stopped accepting, a newcomer is refused.
  await waitFor(out, /edge stopped accepting/);
  const late = await post(edgePort).outcome;
  t.equal(late.kind, "refused", `a request after the listener closed is refused (${late.error ?? late.http})`);
  outcomes.push(late, ...(await Promise.all(burst.map((b) => b.outcome))));
  const { code, at } = await exited;

  const inFlight = outcomes.filter((o) => o.started < killedAt && o.ended > killedAt);
  t.ok(inFlight.length > 0, `${inFlight.length} requests were in flight at SIGTERM`);
  t.ok(outcomes.filter((o) => o.kind === "reply").length >= 4, "requests were served before it");
  for (const o of outcomes) {
    if (o.kind === "refused") continue;
    if (o.kind === "error") {
      t.fail(`a request failed other than by refusal: ${o.error}`);
      continue;
    }
    let body: { status?: unknown; transaction_status?: unknown } = {};
    try {
      body = JSON.parse(o.body!);
    } catch {
      t.fail(`a truncated or non-JSON body (HTTP ${o.http}): ${o.body}`);
      continue;
    }
    if (o.http !== 200 || body.status !== 0 || body.transaction_status !== "approved") t.fail(`an incomplete answer: HTTP ${o.http} ${o.body}`);
  }
  t.equal(code, 0, "exits 0");
  t.ok(at - killedAt < BOUND_MS, `exited in ${Math.round(at - killedAt)} ms, within ${BOUND_MS} ms`);
  t.match(out(), /"msg":"shutting down"/);
  t.match(out(), /"msg":"stopped"/);
  t.notMatch(out(), /forcing exit|shutdown failed/);
  for (const pid of pg) t.notOk(alive(pid), `postgres ${pid} is gone`);
  t.notOk(existsSync(join(dir, "pg", "postmaster.pid")), "Postgres shut down cleanly (no postmaster.pid)");
});
