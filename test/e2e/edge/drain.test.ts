/**
 * The edge's graceful close, deterministically: connections the kernel has
 * queued but Node has not yet accepted (the event loop was busy) when close()
 * is called are accepted and answered, not reset; after it, connections are
 * refused. A plain `server.close()` resets every one of them.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import t from "tap";
import { drainable } from "../../../edge/drain.ts";

type Outcome = { status: number; body: string } | { error: string };

function get(port: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/", agent: false }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? String(err) }));
    req.end();
  });
}

async function server(): Promise<{ srv: http.Server; port: number }> {
  // A slow handler on purpose, not a wait for an event: the queued requests are still being answered while close() runs.
  const srv = http.createServer((_req, res) => setTimeout(() => res.end("done"), 20));
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return { srv, port: (srv.address() as AddressInfo).port };
}

/** Opens `n` connections, then keeps the event loop busy while the kernel queues them. */
async function queued(port: number, n: number): Promise<Promise<Outcome>[]> {
  const pending = Array.from({ length: n }, () => get(port));
  await new Promise((r) => process.nextTick(r));
  const until = Date.now() + 100;
  while (Date.now() < until); // the loop is busy: nothing is accepted meanwhile
  return pending;
}

t.test("queued connections are accepted and answered, later ones refused", async (t) => {
  const { srv, port } = await server();
  const stopped: number[] = [];
  const drain = drainable(srv, (n) => stopped.push(n));
  const pending = await queued(port, 20);
  await drain.close();
  const outcomes = await Promise.all(pending);
  t.same(
    outcomes,
    Array.from({ length: 20 }, () => ({ status: 200, body: "done" })),
    "every queued request answered",
  );
  t.equal(stopped.length, 1, "told once when the listener closed");
  t.same(await get(port), { error: "ECONNREFUSED" }, "then refused");
});

t.test("for contrast: a plain server.close() resets them", async (t) => {
  const { srv, port } = await server();
  const pending = await queued(port, 20);
  await new Promise<void>((r) => srv.close(() => r()));
  const outcomes = await Promise.all(pending);
  t.ok(
    outcomes.some((o) => "error" in o && o.error === "ECONNRESET"),
    "some are reset",
  );
});
