/**
 * Paths and methods no route takes, over real HTTP against the edge's own
 * server (startEdge): 404 NO_ROUTE for an unknown path whatever the method,
 * 405 METHOD_NOT_ALLOWED with `Allow` for a known path under another method,
 * including methods the router does not implement and methods Node's parser
 * refuses (FOO), OPTIONS 200 with `Allow`; every refusal in the wire's JSON.
 * None of these reaches the engine, so the edge points at a closed port.
 */
import { connect } from "node:net";
import t from "tap";
import { startEdge } from "../../../../edge/server.ts";

const errors: object[] = [];
const edge = await startEdge({
  port: 0,
  host: "127.0.0.1",
  engineUrl: "http://127.0.0.1:9",
  token: "unused",
  log: { error: (o) => errors.push(o), info: () => {} },
});
t.teardown(() => edge.close());
const base = `http://127.0.0.1:${edge.port}`;

interface Raw {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** One request as raw bytes, for methods fetch will not send; the reply as read until the server closes. */
function raw(requestLine: string, extra = ""): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(edge.port, "127.0.0.1", () => socket.write(`${requestLine}\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`));
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (data += chunk));
    socket.on("error", reject);
    socket.setTimeout(5000, () => socket.destroy(new Error(`no reply to ${requestLine}`)));
    socket.on("close", () => {
      const [head, body = ""] = data.split("\r\n\r\n", 2);
      const [status, ...lines] = head.split("\r\n");
      const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(status.split(" ")[1]), headers, body });
    });
  });
}

const methodsOf = (allow: string | null | undefined) => (allow ?? "").split(/,\s*/).filter(Boolean).sort();

t.test("a known path under another method: 405 with Allow, in the wire's JSON", async (t) => {
  const r = await fetch(`${base}/api/process`);
  t.equal(r.status, 405);
  t.equal(r.headers.get("allow"), "POST");
  t.match(r.headers.get("content-type"), /^application\/json/);
  const body = (await r.json()) as { status: number; description: string; signature: null };
  t.equal(body.status, 14);
  t.equal(body.description, "GET is not allowed on /api/process; allowed: POST");
  t.equal(body.signature, null);

  // The session start's refusals carry its own members, this one too.
  const session = await fetch(`${base}/api/session`);
  t.equal(session.status, 405);
  t.equal(session.headers.get("allow"), "POST");
  t.same(await session.json(), {
    status: 14,
    description: "GET is not allowed on /api/session; allowed: POST",
    redirect_url: null,
    auth_token: null,
    expires_at: null,
    version: "1.0",
    signature: null,
  });
  const sessionFoo = await raw("FOO /api/session HTTP/1.1");
  t.equal(sessionFoo.status, 405);
  t.same(Object.keys(JSON.parse(sessionFoo.body)), ["status", "description", "redirect_url", "auth_token", "expires_at", "version", "signature"]);

  const d = await fetch(`${base}/healthz`, { method: "DELETE" });
  t.equal(d.status, 405);
  t.same(methodsOf(d.headers.get("allow")), ["GET", "HEAD"]);

  const p = await fetch(`${base}/3ds/1/abc`, { method: "PUT" });
  t.equal(p.status, 405, "a pattern route too");
  t.same(methodsOf(p.headers.get("allow")), ["GET", "HEAD", "POST"]);
});

t.test("a method the router does not implement (PROPFIND, TRACE) is 405 on a known path, not 501", async (t) => {
  for (const method of ["PROPFIND", "TRACE"]) {
    const r = await raw(`${method} /api/process HTTP/1.1`);
    t.equal(r.status, 405, method);
    t.equal(r.headers.get("allow"), "POST", method);
    t.equal(JSON.parse(r.body).status, 14, method);
  }
});

t.test("an unknown path is 404 NO_ROUTE whatever the method, without Allow", async (t) => {
  for (const method of ["GET", "POST", "DELETE"]) {
    const r = await fetch(`${base}/api/nothing`, { method });
    t.equal(r.status, 404, method);
    t.equal(r.headers.get("allow"), null, method);
    const body = (await r.json()) as { status: number; description: string };
    t.equal(body.status, 13, method);
    t.equal(body.description, `no route ${method} /api/nothing`);
  }
  const propfind = await raw("PROPFIND /api/nothing HTTP/1.1");
  t.equal(propfind.status, 404);
  t.equal(propfind.headers.has("allow"), false);
  t.equal(JSON.parse(propfind.body).status, 13);
  // A session's token in a path no route takes is not said back (the access log leaves it out too).
  const token = "FmJoQ2x4cGZ0dXJhbmRvbXNlc3Npb250b2tlbg";
  const session = await fetch(`${base}/cashier/s/${token}/status/73`);
  t.equal(session.status, 404);
  const said = ((await session.json()) as { description: string }).description;
  t.equal(said, "no route GET /cashier/s/[session]/status/73");
  const odd = await raw(`PROPFIND /cashier/s/${token}/x HTTP/1.1`);
  t.notMatch(odd.body, token, "nor by the raw reply to a method Node does not know");
});

t.test("OPTIONS: 200 with Allow on a known path, 404 on an unknown one", async (t) => {
  const r = await fetch(`${base}/api/process`, { method: "OPTIONS" });
  t.equal(r.status, 200);
  t.equal(r.headers.get("allow"), "POST");
  const n = await fetch(`${base}/api/nothing`, { method: "OPTIONS" });
  t.equal(n.status, 404);
  t.equal(((await n.json()) as { status: number }).status, 13);
});

t.test("a method Node's parser refuses (FOO, lower-case get) answers 405 with Allow or 404, in JSON", async (t) => {
  const foo = await raw("FOO /api/process HTTP/1.1");
  t.equal(foo.status, 405);
  t.equal(foo.headers.get("allow"), "POST");
  t.match(foo.headers.get("content-type"), /^application\/json/);
  t.equal(Number(foo.headers.get("content-length")), Buffer.byteLength(foo.body));
  t.same(JSON.parse(foo.body), {
    status: 14,
    description: "FOO is not allowed on /api/process; allowed: POST",
    redirect_url: null,
    trace_id: null,
    transaction_id: null,
    transaction_status: null,
    error_code: null,
    error_details: null,
    payment_processor: null,
    version: "1.0",
    signature: null,
  });

  const lower = await raw("get /healthz?x=1 HTTP/1.1");
  t.equal(lower.status, 405);
  t.same(methodsOf(lower.headers.get("allow")), ["GET", "HEAD"]);

  const nowhere = await raw("FOO /api/nothing HTTP/1.1");
  t.equal(nowhere.status, 404);
  t.equal(nowhere.headers.has("allow"), false);
  t.equal(JSON.parse(nowhere.body).description, "no route FOO /api/nothing");
});

t.test("CONNECT is answered (404: no route is an authority), not dropped", async (t) => {
  const r = await raw("CONNECT 127.0.0.1:443 HTTP/1.1");
  t.equal(r.status, 404);
  t.equal(JSON.parse(r.body).status, 13);
});

t.test("other malformed requests keep Node's 400, and the server keeps serving", async (t) => {
  const bad = await raw("GET /healthz HTTP/1.1", "Bad Header Name: x\r\n");
  t.equal(bad.status, 400);
  const ok = await fetch(`${base}/healthz`);
  t.equal(ok.status, 200);
  t.same(await ok.json(), { status: 0, description: "ok" });
  t.same(errors, [], "no refusal here was logged as a failure");
});
