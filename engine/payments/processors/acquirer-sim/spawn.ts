/**
 * An engine's own acquirer simulator, as a child process (when ACQUIRER_SIM_URL
 * is not set): started with keys made for this run, its port taken from its
 * IPC message. It dies with the engine (it exits when the IPC channel closes),
 * and its ledger in the data dir outlives both.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { SIMULATED_ACQUIRERS } from "../../../shared/config/acquirer-sim-keys.ts";

export interface SpawnedSim {
  url: string;
  keys: Record<string, string>;
  pid: number;
  stop(): Promise<void>;
}

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

export async function spawnAcquirerSim(opts: {
  dataDir: string;
  port: number;
  testMode: boolean;
  logLevel: string;
  keys?: Record<string, string>;
  onLine?: (line: string) => void;
}): Promise<SpawnedSim> {
  const keys = opts.keys ?? Object.fromEntries(SIMULATED_ACQUIRERS.map((n) => [n, randomBytes(24).toString("base64url")]));
  const child: ChildProcess = fork(MAIN, [], {
    env: {
      LOG_LEVEL: opts.logLevel,
      ACQUIRER_SIM_HOST: "127.0.0.1",
      ACQUIRER_SIM_PORT: String(opts.port),
      ACQUIRER_SIM_DATA_DIR: opts.dataDir,
      ACQUIRER_SIM_KEYS: Object.entries(keys)
        .map(([n, k]) => `${n}=${k}`)
        .join(","),
      ACQUIRER_SIM_TEST_MODE: opts.testMode ? "1" : "0",
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    let rest = "";
    stream?.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines) if (l.trim()) opts.onLine?.(l);
    });
  }
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { listening?: number; failed?: string }) =>
      m.listening !== undefined ? resolve(m.listening) : reject(new Error(`the acquirer simulator did not start: ${m.failed}`)),
    );
    child.once("exit", (code) => reject(new Error(`the acquirer simulator exited (${code}) before listening`)));
    child.once("error", reject);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(force);
    },
  };
}
