/**
 * Cashier's processes as a user runs them (`node engine/main.ts`, `node
 * edge/main.ts`), spawned for tests that stop, kill or multiply them, and a
 * database they can share (test-database.ts), which a killed engine leaves running.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireDatabase } from "./test-database.ts";
import { startPlatformStub, type PlatformStub } from "./platform-stub.ts";
import { PLATFORM_SECRETS, platformMerchants } from "./platform-merchants.ts";

const repo = new URL("../..", import.meta.url).pathname;

export interface Launched {
  child: ChildProcess;
  /** The first log line that contained the ready message, parsed. */
  line: Record<string, unknown>;
  out: () => string;
}

export function launch(script: string, env: Record<string, string>, readyMsg: string, args: string[] = []): Promise<Launched> {
  const child = spawn(process.execPath, [script, ...args], { cwd: repo, env: { ...process.env, DATABASE_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} not ready in 180 s:\n${out}`)), 180_000);
    const onData = (d: Buffer) => {
      out += d;
      const line = out.split("\n").find((l) => l.includes(readyMsg));
      if (line) {
        clearTimeout(timer);
        resolve({ child, line: JSON.parse(line), out: () => out });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited ${code}:\n${out}`));
    });
  });
}

/** How long a stopped process may take before it is killed: a hang guard, not a speed check. */
const STOP_GRACE_MS = 30_000;

/**
 * SIGTERM (or the given signal) and wait for the exit. A process still alive
 * after STOP_GRACE_MS is killed (SIGKILL) and said so on stderr, so that one
 * stuck shutdown cannot hold a test file until tap's per-file timeout (once
 * seen under load: an engine left running for five minutes after SIGTERM).
 * The graceful-shutdown test asserts the clean stop itself.
 */
export function stopProcess(c: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  return new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    const guard = setTimeout(() => {
      process.stderr.write(`stopProcess: pid ${c.pid} still running ${STOP_GRACE_MS} ms after ${signal}; killing it\n`);
      c.kill("SIGKILL");
    }, STOP_GRACE_MS);
    c.on("exit", () => {
      clearTimeout(guard);
      resolve();
    });
    c.kill(signal);
  });
}

export interface TestDatabase {
  url: string;
  dir: string;
  stop(): Promise<void>;
}

/**
 * A database for processes the test starts (test-database.ts: cloned from the
 * run's template, or its own cluster when the file runs alone; either way it
 * outlives any engine the test kills), and a temp dir for their data.
 */
export async function testDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "cashier-procs-"));
  chmodSync(dir, 0o755);
  const db = await acquireDatabase();
  return {
    url: db.url,
    dir,
    async stop() {
      await db.release();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What a multi-process test of callbacks needs: a platform stub, a database
 * the processes share, and a merchants file whose URLs point at the stub.
 * Everything is stopped at the test's teardown.
 */
export async function platformWorld(t: {
  teardown(fn: () => unknown): void;
}): Promise<{ stub: PlatformStub; db: TestDatabase; merchantsFile: string; env: Record<string, string> }> {
  const stub = await startPlatformStub({ secrets: PLATFORM_SECRETS });
  t.teardown(() => stub.close());
  const db = await testDatabase();
  t.teardown(() => db.stop());
  const merchantsFile = join(db.dir, "merchants.json");
  writeFileSync(merchantsFile, JSON.stringify(platformMerchants(stub.url)));
  // What an engine of this world runs with: its database, merchants, free ports, callbacks to the stub.
  const env = {
    DATABASE_URL: db.url,
    CASHIER_DATA_DIR: db.dir,
    CASHIER_MERCHANTS_FILE: merchantsFile,
    ENGINE_PORT: "0",
    EDGE_PORT: "0",
    METRICS_PORT: "0",
    CASHIER_CALLBACK_ALLOW_PRIVATE: "1",
    CASHIER_WORKER_POLL_MS: "100",
  };
  return { stub, db, merchantsFile, env };
}
