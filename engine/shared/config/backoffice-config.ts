/**
 * The Backoffice's settings, read from the environment by the two files that
 * start it (edge/backoffice/main.ts alone, engine/main.ts with --with-edge):
 * in the shared layer, as both processes read it.
 * The console listens on its own port, on loopback unless told otherwise: it
 * is an operators' tool, never served on the public edge port.
 */
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";
import { tokenSetting } from "./bearer-tokens.ts";
import { ConfigError, httpUrlSetting } from "./config.ts";

export interface BackofficeConfig {
  /** BACKOFFICE_PORT (8081; 0 = any free port). */
  port: number;
  /** BACKOFFICE_PORT was unset: when 8081 is taken, a free port is used instead (engine/shared/runtime/listen.ts). */
  portIsDefault: boolean;
  /** BACKOFFICE_HOST (127.0.0.1): the address the console binds to. */
  host: string;
  /** CASHIER_BACKOFFICE_TOKEN: the bearer token the console sends to the engine (required when it runs alone; at least 32 characters). */
  token: string | undefined;
  /** BACKOFFICE_PUBLIC_URL: the console's address as operators' browsers reach it (passkeys are bound to its host). */
  publicUrl: string | undefined;
  /** BACKOFFICE_TLS_CERT / BACKOFFICE_TLS_KEY: PEM files; when set the console serves HTTPS only (Secure cookies, HSTS). */
  tls: { certFile: string; keyFile: string } | undefined;
}

export function loadBackofficeConfig(env: NodeJS.ProcessEnv = process.env): BackofficeConfig {
  const rawPort = env.BACKOFFICE_PORT;
  let port = 8081;
  if (rawPort !== undefined && rawPort !== "") {
    port = Number(rawPort);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new ConfigError(`BACKOFFICE_PORT must be a port number (0-65535), got ${JSON.stringify(rawPort)}`);
    }
  }
  const host = env.BACKOFFICE_HOST || "127.0.0.1";
  if (/[\s/]/.test(host)) throw new ConfigError(`BACKOFFICE_HOST must be an address or a host name, got ${JSON.stringify(host)}`);
  const publicUrl = env.BACKOFFICE_PUBLIC_URL || undefined;
  if (publicUrl) httpUrlSetting("BACKOFFICE_PUBLIC_URL", publicUrl);
  const cert = env.BACKOFFICE_TLS_CERT || undefined;
  const key = env.BACKOFFICE_TLS_KEY || undefined;
  if ((cert && !key) || (key && !cert)) {
    throw new ConfigError("BACKOFFICE_TLS_CERT and BACKOFFICE_TLS_KEY go together (PEM file paths): set both or neither");
  }
  return {
    port,
    portIsDefault: rawPort === undefined || rawPort === "",
    host,
    token: tokenSetting(env, "CASHIER_BACKOFFICE_TOKEN"),
    publicUrl: publicUrl?.replace(/\/+$/, ""),
    tls: cert && key ? { certFile: cert, keyFile: key } : undefined,
  };
}

/** The certificate and key, read and checked at start so a wrong file stops it naming the variable. */
export function readBackofficeTls(config: BackofficeConfig): { cert: Buffer; key: Buffer } | undefined {
  if (!config.tls) return undefined;
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new ConfigError(`${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  };
  const cert = read("BACKOFFICE_TLS_CERT", config.tls.certFile);
  const key = read("BACKOFFICE_TLS_KEY", config.tls.keyFile);
  try {
    new X509Certificate(cert);
    createSecureContext({ cert, key });
  } catch (err) {
    throw new ConfigError(`BACKOFFICE_TLS_CERT / BACKOFFICE_TLS_KEY: not a certificate and its private key (${(err as Error).message})`);
  }
  return { cert, key };
}
