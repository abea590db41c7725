/**
 * Slow clients over real sockets (edge/middleware/time-limits.ts), against the
 * edge's and the Backoffice's own servers; none of these requests reaches the
 * engine, so both point at a closed port. A head still arriving after 5 s is
 * answered 408 by node:http; a body still arriving 5 s after a route began
 * reading it is answered 408 in the route's own form (the wire's JSON with
 * status 22 on the API, a page on the hosted pages and the console) and the
 * connection is closed; never a 5xx, and a connection is never held much
 * past its limit. A slow reply of the engine is no slow client: not limited here.
 */
import { connect } from "node:net";
import t, { type Test } from "tap";
import { startBackoffice } from "../../../edge/backoffice/server.ts";
import { startEdge } from "../../../edge/server.ts";
import { BODY_TIMEOUT_MS, HEAD_TIMEOUT_MS } from "../../../edge/middleware/time-limits.ts";

const quiet = { error: () => {}, info: () => {} };
const TOKEN = "time-limits-token-0123456789abcdef";
const edge = await startEdge({ port: 0, host: "127.0.0.1", engineUrl: "http://127.0.0.1:9", token: TOKEN, log: quiet });
const console_ = await startBackoffice({ port: 0, host: "127.0.0.1", engineUrl: "http://127.0.0.1:9", token: TOKEN, log: quiet });
t.teardown(async () => {
  await edge.close();
  await console_.close();
});

interface Slow {
  /** The reply as read until the server closed the connection. */
  reply: string;
  status: number;
  /** Milliseconds from the first byte sent to the close. */
  ms: number;
}

/** Sends `first`, then nothing more (a client that stalls); resolves when the server closes the connection. */
function stall(port: number, first: string): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1", () => socket.write(first));
    let reply = "";
    socket.setEncoding("utf8");
    socket.on("data", (d) => (reply += d));
    socket.on("error", reject);
    // A hang guard far past every limit: the server must close first.
    socket.setTimeout(30_000, () => socket.destroy(new Error("the server held the connection for 30 s")));
    socket.on("close", () => resolve({ reply, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0), ms: performance.now() - started }));
  });
}

const within = (t: Test, s: Slow, limitMs: number) => {
  t.ok(s.ms >= limitMs - 50, `not before its limit (${Math.round(s.ms)} ms)`);
  t.ok(s.ms < limitMs + 3000, `closed soon after its limit (${Math.round(s.ms)} ms)`);
};

const head = (port: number) => stall(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n");
const body = (port: number, path: string, type: string) =>
  stall(port, `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: 100\r\n\r\n{"amou`);

t.test("all at once (each waits out its limit): heads and bodies that stall are answered 408, never 5xx", async (t) => {
  const [edgeHead, apiBody, formBody, consoleHead, consoleBody] = await Promise.all([
    head(edge.port),
    body(edge.port, "/api/process", "application/json"),
    body(edge.port, "/3ds/1/abc", "application/x-www-form-urlencoded"),
    head(console_.port),
    body(console_.port, "/signin", "application/x-www-form-urlencoded"),
  ]);

  t.equal(edgeHead.status, 408, "edge: a head that stalls");
  within(t, edgeHead, HEAD_TIMEOUT_MS);
  t.equal(consoleHead.status, 408, "console: a head that stalls");
  within(t, consoleHead, HEAD_TIMEOUT_MS);

  t.equal(apiBody.status, 408, "the API: a body that stalls");
  within(t, apiBody, BODY_TIMEOUT_MS);
  t.match(apiBody.reply, /\r\nconnection: close\r\n/i, "the connection is closed after the answer");
  const json = JSON.parse(apiBody.reply.slice(apiBody.reply.indexOf("\r\n\r\n") + 4));
  t.equal(json.status, 22, "the wire's REQUEST_TIMEOUT");
  t.match(json.description, /did not arrive within 5 s/);

  t.equal(formBody.status, 408, "a hosted page: a form that stalls");
  within(t, formBody, BODY_TIMEOUT_MS);
  t.match(formBody.reply, /text\/html/);
  t.match(formBody.reply, /The form did not arrive in time/);

  t.equal(consoleBody.status, 408, "the console: a form that stalls");
  within(t, consoleBody, BODY_TIMEOUT_MS);
  t.match(consoleBody.reply, /The form did not arrive in time/);
});

t.test("a body that arrives in time is read whole, in pieces", async (t) => {
  const res = await new Promise<string>((resolve, reject) => {
    const socket = connect(edge.port, "127.0.0.1", () => {
      socket.write("POST /api/process HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[");
      setTimeout(() => socket.write("]"), 1000);
    });
    let reply = "";
    socket.setEncoding("utf8");
    socket.on("data", (d) => (reply += d));
    socket.on("error", reject);
    socket.on("close", () => resolve(reply));
  });
  t.match(res, /^HTTP\/1\.1 400 /, "read whole and judged: not an object");
  t.match(res, /body must be a JSON object/);
});
