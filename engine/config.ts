/**
 * Environment -> one typed, validated settings object (CONTRACT section 1).
 * Only main.ts calls loadConfig; everything else receives the object, so tests
 * can build a Config without touching process.env.
 */
import { join, resolve } from "node:path";

export interface Config {
  /** A real Postgres; undefined means the embedded one under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  edgePort: number;
  enginePort: number;
  /** Where a separately started edge finds the engine. */
  engineUrl: string;
  merchantsFile: string | undefined;
  /** Bearer tokens accepted from direct gRPC callers. */
  serviceTokens: string[];
  /** The token the edge sends to the engine. */
  edgeToken: string | undefined;
  /** 32-byte key, hex or base64; undefined: a dev key generated into dataDir. */
  masterKey: string | undefined;
  /** Base of redirect_urls; undefined: http://127.0.0.1:<edge port>, resolved once the edge listens. */
  publicUrl: string | undefined;
  callbackAllowPrivate: boolean;
  rfdResendSeconds: number;
  logLevel: string;
}

export class ConfigError extends Error {}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${name} must be a port number (0-65535), got ${JSON.stringify(raw)}`);
  return n;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? "0").trim();
  if (raw === "1" || raw === "true") return true;
  if (raw === "0" || raw === "false" || raw === "") return false;
  throw new ConfigError(`${name} must be 0 or 1, got ${JSON.stringify(raw)}`);
}

function list(raw: string | undefined): string[] {
  return (raw ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const edgePort = port(env, "EDGE_PORT", 8080);
  const enginePort = port(env, "ENGINE_PORT", 50051);
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(cwd, env.CASHIER_DATA_DIR || ".data"),
    edgePort,
    enginePort,
    engineUrl: env.ENGINE_URL || `http://127.0.0.1:${enginePort}`,
    merchantsFile: env.CASHIER_MERCHANTS_FILE ? resolve(cwd, env.CASHIER_MERCHANTS_FILE) : undefined,
    serviceTokens: list(env.CASHIER_SERVICE_TOKENS),
    edgeToken: env.CASHIER_EDGE_TOKEN || undefined,
    masterKey: env.CASHIER_MASTER_KEY || undefined,
    publicUrl: env.CASHIER_PUBLIC_URL ? env.CASHIER_PUBLIC_URL.replace(/\/+$/, "") : undefined,
    callbackAllowPrivate: flag(env, "CASHIER_CALLBACK_ALLOW_PRIVATE"),
    rfdResendSeconds: positiveInt(env, "CASHIER_RFD_RESEND_SECONDS", 300),
    logLevel: env.LOG_LEVEL || "info",
  };
}

/** Where the embedded database lives inside the data dir. */
export function embeddedDbDir(config: Config): string {
  return join(config.dataDir, "pg");
}
