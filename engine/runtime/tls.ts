/**
 * The engine's TLS material (ENGINE_TLS_CERT / ENGINE_TLS_KEY), read and
 * checked once at start so a wrong path or a key that does not match its
 * certificate stops the start with the variable's name, not a handshake
 * failure on the first call.
 */
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";
import { ConfigError, type Config } from "../shared/config/config.ts";
import type { ServerTls } from "../rpc/server.ts";

function readPem(name: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new ConfigError(`${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** The PEM files of `config.engineTls`, checked; undefined when TLS is off. */
export function loadServerTls(config: Config): ServerTls | undefined {
  if (!config.engineTls) return undefined;
  const cert = readPem("ENGINE_TLS_CERT", config.engineTls.certFile);
  const key = readPem("ENGINE_TLS_KEY", config.engineTls.keyFile);
  try {
    new X509Certificate(cert);
  } catch {
    throw new ConfigError(`ENGINE_TLS_CERT: ${config.engineTls.certFile} is not a PEM certificate`);
  }
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    throw new ConfigError(`ENGINE_TLS_KEY: ${config.engineTls.keyFile} is not the private key of ENGINE_TLS_CERT (${(err as Error).message})`);
  }
  return { cert, key };
}

/**
 * How a client in this very process (the edge worker of `npm start`) trusts
 * the engine over loopback: by the exact certificate it serves (pinned by its
 * SHA-256 fingerprint), since the certificate's names rarely include 127.0.0.1.
 */
export function loopbackTrust(tls: ServerTls): { ca: string; pinSha256: string } {
  const pem = tls.cert.toString("utf8");
  return { ca: pem, pinSha256: new X509Certificate(pem).fingerprint256 };
}
