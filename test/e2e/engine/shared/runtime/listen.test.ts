/**
 * A side port left at its default gives way to a free one when taken, so a
 * second Cashier beside the first still starts; a port the operator chose stays
 * a start error when taken. Real sockets on 127.0.0.1.
 */
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import t from "tap";
import { listenOnSidePort } from "../../../../../engine/shared/runtime/listen.ts";

async function occupied(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

t.test("a default port that is taken: a free port instead, and it says so", async (t) => {
  const taken = await occupied();
  const second = createServer();
  const r = await listenOnSidePort(second, taken.port, "127.0.0.1", true);
  const port = (second.address() as AddressInfo).port;
  t.equal(r.movedFromDefault, true, "moved from the default");
  t.not(port, taken.port, "listens on another port");
  t.ok(port > 0, `listens on ${port}`);
  await close(second);
  await close(taken.server);
});

t.test("a port the operator chose that is taken: the start fails with EADDRINUSE", async (t) => {
  const taken = await occupied();
  const second = createServer();
  await t.rejects(listenOnSidePort(second, taken.port, "127.0.0.1", false), { code: "EADDRINUSE" });
  t.equal(second.listening, false, "not listening");
  await close(taken.server);
});

t.test("a free default port is used as it is", async (t) => {
  const probe = await occupied();
  const free = probe.port;
  await close(probe.server);
  const server = createServer();
  const r = await listenOnSidePort(server, free, "127.0.0.1", true);
  t.equal(r.movedFromDefault, false);
  t.equal((server.address() as AddressInfo).port, free);
  await close(server);
});
