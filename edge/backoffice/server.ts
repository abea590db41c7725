/**
 * Starts the console: the Koa app on its own HTTP (or, with a certificate,
 * HTTPS) server on BACKOFFICE_HOST:BACKOFFICE_PORT, calling the engine at
 * engineUrl with the Backoffice's token, with the edge's request time limits
 * (middleware/time-limits.ts). Closing drains requests in progress.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { EngineTrust } from "../../engine/shared/runtime/worker-data.ts";
import { drainable } from "../drain.ts";
import { listenOnSidePort } from "../../engine/shared/runtime/listen.ts";
import { buildBackofficeApp, type ConsoleLogger } from "./app.ts";
import { createBackofficeClient } from "./engine-client.ts";
import { engineTransport } from "../engine-client.ts";
import { timeLimitedServerOptions } from "../middleware/time-limits.ts";
import type { SignInLimit } from "./rate-limit.ts";

export interface BackofficeHandle {
  port: number;
  /** True when the default port was taken and a free one was chosen. */
  movedFromDefault: boolean;
  /** The base URL it serves (http(s)://host:port). */
  url: string;
  server: Server;
  close(): Promise<void>;
}

export interface BackofficeStart {
  port: number;
  /** BACKOFFICE_PORT was unset: when its default is taken, listen on a free port instead. */
  portIsDefault?: boolean;
  host: string;
  engineUrl: string;
  token: string;
  engineTrust?: EngineTrust;
  /** PEM certificate and key: HTTPS only, Secure cookies, HSTS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  publicUrl?: string;
  /** CASHIER_TRUSTED_PROXIES: whose forwarding headers are believed (none when not given). */
  trustedProxies?: readonly string[];
  signInLimit?: SignInLimit;
  log: ConsoleLogger;
}

export async function startBackoffice(opts: BackofficeStart): Promise<BackofficeHandle> {
  const transport = engineTransport(opts.engineUrl, opts.token, opts.engineTrust);
  const client = createBackofficeClient(transport);
  const app = buildBackofficeApp({
    client,
    token: opts.token,
    log: opts.log,
    publicUrl: opts.publicUrl,
    trustedProxies: opts.trustedProxies,
    signInLimit: opts.signInLimit,
  });
  const limits = timeLimitedServerOptions();
  const server: Server = opts.tls
    ? createHttpsServer({ ...limits, cert: opts.tls.cert, key: opts.tls.key }, app.callback())
    : createHttpServer(limits, app.callback());
  const { movedFromDefault } = await listenOnSidePort(server, opts.port, opts.host, opts.portIsDefault ?? false);
  const port = (server.address() as AddressInfo).port;
  const host = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  const drain = drainable(server, (inProgress) => opts.log.info({ inProgress }, "backoffice stopped accepting; finishing requests in progress"));
  const close = async () => {
    await drain.close();
    transport.close();
  };
  return { port, movedFromDefault, url: `${opts.tls ? "https" : "http"}://${host}:${port}`, server, close };
}
