/**
 * `npm start` as a user runs it (node engine/main.ts --with-edge, embedded
 * Postgres, its own acquirer simulator) for the tests that kill what it
 * supervises: the launch on a fresh data dir with the demo merchant, its
 * processes' PIDs, the compose healthcheck, and a signed sale whose reply
 * keeps its Retry-After.
 */
import { execFile } from "node:child_process";
import { randomInt } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { launch, type Launched, stopProcess } from "./processes.ts";
import { SERVICE_TOKEN } from "./service.ts";
import { type Body, saleBody, sign } from "./wire.ts";

const run = promisify(execFile);

export interface Started {
  launched: Launched;
  dir: string;
  edgeUrl: string;
  engineHost: string;
  demo: { merchant_id: string; secret: string; frontend: string };
}

/** Starts Cashier on a fresh data dir; stopped and removed at the test's teardown. */
export async function startCashier(t: { teardown(fn: () => unknown): void }): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), "cashier-supervised-"));
  // The embedded cluster runs as the unprivileged "postgres" user when we are root.
  chmodSync(dir, 0o755);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    CASHIER_DATA_DIR: dir,
    EDGE_PORT: "0",
    ENGINE_PORT: "0",
    METRICS_PORT: "0",
    EDGE_METRICS_PORT: "0",
    BACKOFFICE_PORT: "0",
    CASHIER_MERCHANTS_FILE: "",
    CASHIER_SERVICE_TOKENS: SERVICE_TOKEN,
  };
  const launched = await launch("engine/main.ts", env, "cashier ready", ["--with-edge"]);
  t.teardown(() => stopProcess(launched.child));
  return {
    launched,
    dir,
    edgeUrl: `http://127.0.0.1:${launched.line.edgePort}`,
    engineHost: `127.0.0.1:${launched.line.enginePort}`,
    demo: JSON.parse(readFileSync(join(dir, "demo-merchant.json"), "utf8")),
  };
}

/** The PID the embedded cluster's postmaster.pid names. */
export function postmasterPid(dir: string): number {
  return Number(readFileSync(join(dir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
}

/** The PID of the engine's acquirer simulator child (its current one), if it has one running. */
export async function simPid(enginePid: number): Promise<number | undefined> {
  const { stdout } = await run("pgrep", ["-P", String(enginePid), "-f", "acquirer-sim/main.ts"]).catch(() => ({ stdout: "" }));
  const pids = stdout.split("\n").filter(Boolean).map(Number);
  return pids.length === 1 ? pids[0] : undefined;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The compose healthcheck (engine/healthcheck.ts): the overall status, SERVING or not. */
export async function healthy(engineHost: string): Promise<boolean> {
  try {
    await run(process.execPath, ["engine/healthcheck.ts", engineHost]);
    return true;
  } catch {
    return false;
  }
}

export interface SaleReply {
  http: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
  sent: Body;
}

/**
 * An order_id of letters only: wire.ts's (its pid and time in digits, one run of about 19 with its dashes) holds a
 * Luhn-valid window now and then, which Process refuses as a card number in order_id (400), whatever the test is about.
 */
function letterOrderId(): string {
  return `sup-${Array.from({ length: 16 }, () => String.fromCharCode(97 + randomInt(26))).join("")}`;
}

/** A signed sale of the demo merchant (or `body` again, newly timed); never throws on a reply. */
export async function sale(s: Started, again?: Body): Promise<SaleReply> {
  const sent = again
    ? { ...again, timestamp: Math.floor(Date.now() / 1000) }
    : saleBody({ merchant_id: s.demo.merchant_id, frontend: s.demo.frontend, order_id: letterOrderId() });
  const res = await fetch(`${s.edgeUrl}/api/process`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(sign(sent, s.demo.secret)),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {}
  return { http: res.status, retryAfter: res.headers.get("retry-after"), body, sent };
}
