/**
 * An engine's own acquirer simulator, as a child process (when ACQUIRER_SIM_URL
 * is not set): started with keys made for this run, its port taken from its
 * IPC message. It dies with the engine (it exits when the IPC channel closes),
 * and its ledger in the data dir outlives both. A child that ends by itself
 * (kill -9, a crash) is started again by the engine's supervisor through
 * restart(): on the port the first one took, with the same keys, so the
 * engine's accounts at it (its URL and API keys) stand.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { SIMULATED_ACQUIRERS } from "../../../shared/config/acquirer-sim-keys.ts";

export interface SpawnedSim {
  url: string;
  keys: Record<string, string>;
  /** The current child's PID (a restart changes it). */
  readonly pid: number;
  /** Resolves with how the current child ended ("killed by SIGKILL", "exit code 1"). */
  exited(): Promise<string>;
  /** Starts a child again after the last one ended; rejects, saying why, when it does not listen. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface SimOptions {
  dataDir: string;
  port: number;
  testMode: boolean;
  logLevel: string;
  keys?: Record<string, string>;
  onLine?: (line: string) => void;
}

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

/** One child, listening: its process, its port and its end. */
interface Running {
  child: ChildProcess;
  port: number;
  ended: Promise<string>;
  done: boolean;
}

/** Forks one simulator child and waits until it listens (or says why it did not). */
async function forkSim(opts: SimOptions, keys: Record<string, string>, port: number): Promise<Running> {
  const child: ChildProcess = fork(MAIN, [], {
    env: {
      LOG_LEVEL: opts.logLevel,
      ACQUIRER_SIM_HOST: "127.0.0.1",
      ACQUIRER_SIM_PORT: String(port),
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
  const running: Running = { child, port: 0, done: false, ended: Promise.resolve("") };
  running.ended = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      running.done = true;
      resolve(signal ? `killed by ${signal}` : `exit code ${code}`);
    }),
  );
  running.port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { listening?: number; failed?: string }) =>
      m.listening !== undefined ? resolve(m.listening) : reject(new Error(`the acquirer simulator did not start: ${m.failed}`)),
    );
    void running.ended.then((how) => reject(new Error(`the acquirer simulator ended (${how}) before listening`)));
    child.once("error", reject);
  }).catch((err: unknown) => {
    if (!running.done) child.kill("SIGKILL");
    throw err;
  });
  return running;
}

export async function spawnAcquirerSim(opts: SimOptions): Promise<SpawnedSim> {
  const keys = opts.keys ?? Object.fromEntries(SIMULATED_ACQUIRERS.map((n) => [n, randomBytes(24).toString("base64url")]));
  let current = await forkSim(opts, keys, opts.port);
  // A restart listens where the engine's accounts point: the port the first child took (the chosen one for 0).
  const port = current.port;
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    get pid() {
      return current.child.pid ?? 0;
    },
    exited: () => current.ended,
    async restart() {
      current = await forkSim(opts, keys, port);
    },
    async stop() {
      const { child, ended } = current;
      if (current.done) return;
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 3000);
      await ended;
      clearTimeout(force);
    },
  };
}
