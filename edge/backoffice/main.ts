/**
 * `npm run backoffice`: the console alone, on BACKOFFICE_HOST:BACKOFFICE_PORT
 * (127.0.0.1:8081 by default), calling the engine at ENGINE_URL with
 * CASHIER_BACKOFFICE_TOKEN (which the engine must accept for its console services).
 */
// First: the .env file's settings must be in the environment before any module reads it.
import "../../engine/shared/config/env-file.ts";
import { readFileSync } from "node:fs";
import { ConfigError, loadConfig } from "../../engine/shared/config/config.ts";
import { createLogger } from "../../engine/shared/runtime/log.ts";
import { handleShutdownSignals } from "../../engine/shared/runtime/shutdown.ts";
import { reportStartFailure } from "../../engine/shared/runtime/start-error.ts";
import { loadBackofficeConfig, readBackofficeTls } from "../../engine/shared/config/backoffice-config.ts";
import { startBackoffice } from "./server.ts";

const log = createLogger(process.env.LOG_LEVEL || "info").child({ process: "backoffice" });
try {
  const config = loadConfig();
  const backoffice = loadBackofficeConfig();
  if (!backoffice.token)
    throw new ConfigError("CASHIER_BACKOFFICE_TOKEN is required when the Backoffice runs on its own (a token the engine accepts for its console services)");
  let ca: string | undefined;
  if (config.engineTlsCaFile) {
    try {
      ca = readFileSync(config.engineTlsCaFile, "utf8");
    } catch (err) {
      throw new ConfigError(`ENGINE_TLS_CA: cannot read ${config.engineTlsCaFile} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
  const handle = await startBackoffice({
    port: backoffice.port,
    host: backoffice.host,
    engineUrl: config.engineUrl,
    token: backoffice.token,
    engineTrust: { ca },
    tls: readBackofficeTls(backoffice),
    publicUrl: backoffice.publicUrl,
    trustedProxies: config.trustedProxies,
    log,
  });
  // The handler before the line that says it listens: whoever acts on that line can stop it.
  handleShutdownSignals({ log, timeoutMs: config.shutdownTimeoutMs, stop: handle.close });
  log.info({ port: handle.port, host: backoffice.host, engineUrl: config.engineUrl }, `backoffice listening on ${handle.url}`);
} catch (err) {
  reportStartFailure(log, "backoffice", err);
  process.exit(1);
}
