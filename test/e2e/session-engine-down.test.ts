/**
 * POST /api/session when no engine answers: the edge alone replies 503 with
 * status -2 in the session reply's members, unsigned (only the engine holds
 * merchant secrets), and logs the failure; nothing internal is echoed.
 */
import { createServer as createTcpServer } from "node:net";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import t from "tap";
import { buildApp } from "../../edge/app.ts";
import { createEngineClients } from "../../edge/engine-client.ts";
import { postSession, sessionBody } from "../support/cashier-session.ts";

/** A port nothing listens on: bound, then closed. */
async function deadPort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const logged: string[] = [];
let server: Server;
let url = "";
t.before(async () => {
  const { engine, cashier } = createEngineClients(`http://127.0.0.1:${await deadPort()}`, "token");
  const app = buildApp({ engine, cashier, log: { error: (_o, msg) => logged.push(msg), info: () => {} } });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));

t.test("no engine: 503, status -2, the session reply's members, no signature", async (t) => {
  const r = await postSession(url, sessionBody());
  t.equal(r.http, 503);
  t.same(Object.keys(r.body), ["status", "description", "redirect_url", "auth_token", "expires_at", "version", "signature"]);
  t.same([r.body.status, r.body.signature, r.body.redirect_url], [-2, null, null]);
  t.equal(r.body.description, "Service temporarily unavailable, retry later");
  t.ok(logged.includes("request failed"), "the failure is logged");
});
