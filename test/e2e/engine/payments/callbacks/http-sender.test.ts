/**
 * The callback sender against real sockets on 127.0.0.1: each way a call can
 * fail is told in our own words, naming the host (a Validation that could not
 * be made is declined with this text, signed, to the platform), and the SSRF
 * guard refuses a loopback address before anything is sent.
 */
import http from "node:http";
import net from "node:net";
import t, { type Test } from "tap";
import { createSender } from "../../../../../engine/payments/callbacks/http-sender.ts";
import type { SendRequest } from "../../../../../engine/payments/ports/callbacks.ts";

const send = createSender({ allowPrivate: true });
const call = (url: string, timeoutMs = 5000): SendRequest => ({ url, body: "{}", headers: {}, timeoutMs });

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as net.AddressInfo).port;
}

t.test("a closed port: connection refused, by host and port", async (t) => {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise((r) => server.close(r));
  const r = await send(call(`http://127.0.0.1:${port}/api/validation`));
  t.equal(r.httpStatus, 0);
  t.equal(r.error, `no reply: connection refused by 127.0.0.1:${port}`);
  t.equal(r.refusedAddress, false);
});

t.test("a server that drops the connection: reset", async (t) => {
  const server = net.createServer((socket) => socket.resetAndDestroy());
  const port = await listen(server);
  t.teardown(() => server.close());
  const r = await send(call(`http://127.0.0.1:${port}/x`));
  t.equal(r.error, `no reply: connection reset by 127.0.0.1:${port}`);
});

t.test("https to a plain HTTP server: the TLS failure by its code", async (t) => {
  const server = http.createServer((_req, res) => res.end("{}"));
  const port = await listen(server);
  t.teardown(() => server.close());
  const r = await send(call(`https://127.0.0.1:${port}/x`));
  t.match(r.error, new RegExp(`^no reply: TLS with 127\\.0\\.0\\.1:${port} failed \\((ERR_SSL_|EPROTO)`));
  t.notMatch(r.error, /routines|openssl|:error:/i, "not OpenSSL's sentence");
});

t.test("a server that never answers: no reply within the call's time", async (t) => {
  const server = net.createServer(() => {});
  const port = await listen(server);
  t.teardown(() => {
    server.close();
    for (const s of sockets) s.destroy();
  });
  const sockets: net.Socket[] = [];
  server.on("connection", (s) => sockets.push(s));
  const r = await send(call(`http://127.0.0.1:${port}/x`, 200));
  t.equal(r.error, "no reply within 200 ms");
});

t.test("a loopback address with private callbacks off: refused by the guard, nothing sent", async (t) => {
  let reached = false;
  const server = http.createServer((_req, res) => {
    reached = true;
    res.end("{}");
  });
  const port = await listen(server);
  t.teardown(() => server.close());
  const r = await createSender({ allowPrivate: false })(call(`http://127.0.0.1:${port}/x`));
  t.equal(r.refusedAddress, true);
  t.equal(r.error, "address refused: 127.0.0.1 is or resolves to a loopback, private, link-local or metadata address (CASHIER_CALLBACK_ALLOW_PRIVATE is off)");
  t.equal(reached, false);
});

t.test("a name that resolves to loopback: refused in the connection's lookup, nothing sent", async (t) => {
  let reached = false;
  const server = http.createServer((_req, res) => {
    reached = true;
    res.end("{}");
  });
  const port = await listen(server);
  t.teardown(() => server.close());
  const r = await createSender({ allowPrivate: false })(call(`http://localhost:${port}/x`));
  t.equal(r.refusedAddress, true);
  t.equal(r.error, "address refused: localhost is or resolves to a loopback, private, link-local or metadata address (CASHIER_CALLBACK_ALLOW_PRIVATE is off)");
  t.equal(reached, false);
  const allowed = await send(call(`http://localhost:${port}/x`));
  t.equal(allowed.httpStatus, 200, "with private callbacks on, the same name is called");
});

t.test("a reply is read as it came", async (t) => {
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"status":0}'));
  const port = await listen(server);
  t.teardown(() => server.close());
  const r = await send(call(`http://127.0.0.1:${port}/x`));
  t.same({ status: r.httpStatus, body: r.body, error: r.error }, { status: 200, body: '{"status":0}', error: "" });
});

/**
 * A platform that answers 10 MB (issue 31: one made the engine read 27 GB):
 * served with backpressure, so what the server managed to write before the
 * engine closed the connection is what the engine read plus what loopback's
 * socket buffers hold (a few MB). The engine stops at 64 KiB and closes; one
 * that read to the end would take the whole 10 MB (or, from an endless
 * reply, read until its timeout).
 */
async function bigReply(t: Test, head: Record<string, string | number>, TEN_MB = 10 * 1024 * 1024) {
  const chunk = Buffer.alloc(16 * 1024, 0x78);
  let written = 0;
  let closedEarly: Promise<boolean> = Promise.resolve(false);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", ...head });
    closedEarly = new Promise<boolean>((resolve) => {
      res.on("close", () => resolve(written < TEN_MB));
      const pump = () => {
        while (written < TEN_MB && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.write('{"status":0,"description":"');
      pump();
    });
  });
  const port = await listen(server);
  t.teardown(() => server.close());
  const started = performance.now();
  const r = await send(call(`http://127.0.0.1:${port}/x`, 20000));
  const tookMs = performance.now() - started;
  t.equal(await closedEarly, true, "the engine closed the connection before the server wrote it all");
  t.ok(written < 8 * 1024 * 1024, `the server wrote ${written} bytes before the engine closed (loopback's buffers included)`);
  t.ok(tookMs < 5000, `answered in ${Math.round(tookMs)} ms`);
  t.equal(Buffer.byteLength(r.body), 64 * 1024, "the body kept is the bound's worth");
  t.equal(r.cut, true);
  t.equal(r.httpStatus, 200);
  t.equal(r.error, "", "a cut reply is no transport failure: it is judged on what was read");
}

t.test("a 10 MB chunked reply is read to 64 KiB and the connection closed", (t) => bigReply(t, {}));
t.test("a 10 MB reply with a content-length is read to 64 KiB and the connection closed", (t) => bigReply(t, { "content-length": 10 * 1024 * 1024 + 27 }));
t.test("an endless reply is read to 64 KiB and closed at once, not at the call's timeout", (t) => bigReply(t, {}, Number.POSITIVE_INFINITY));
