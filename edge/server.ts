/** Starts the edge: a Koa app on an HTTP server, talking to the engine at engineUrl. */
import type { EngineTrust } from "../engine/shared/runtime/worker-data.ts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { buildApp } from "./app.ts";
import type { EdgeLogger } from "./logger.ts";
import { createEngineClients } from "./engine-client.ts";
import { drainable } from "./drain.ts";
import { csrfKeyFrom } from "./pages/kit/csrf.ts";
import { answerUnknownMethods } from "./unknown-method.ts";

export interface EdgeHandle {
  port: number;
  server: Server;
  close(): Promise<void>;
}

export async function startEdge(opts: {
  port: number;
  host?: string;
  engineUrl: string;
  token: string;
  engineTrust?: EngineTrust;
  log: EdgeLogger;
}): Promise<EdgeHandle> {
  const { engine, cashier, close: closeClients } = createEngineClients(opts.engineUrl, opts.token, opts.engineTrust);
  const app = buildApp({ engine, cashier, log: opts.log, csrfKey: csrfKeyFrom(opts.token) });
  const server = createServer(app.callback());
  answerUnknownMethods(server, app.allowedOn);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host ?? "0.0.0.0", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // Stop accepting, finish the requests in progress, then close the engine connections and resolve.
  const drain = drainable(server, (inProgress) => opts.log.info({ inProgress }, "edge stopped accepting; finishing requests in progress"));
  const close = async () => {
    await drain.close();
    closeClients();
  };
  return { port, server, close };
}
