/**
 * The engine's gRPC server as buildGrpcServer makes it (engine/rpc/server.ts),
 * over real sockets with a fixture service (test/fixtures/round_trip.proto):
 * refused tokens are counted by why in the engine's metrics, and past the
 * limit an address's refusals are RESOURCE_EXHAUSTED until its block ends,
 * while the right token still passes; reflection answers holders of its tokens
 * only (buf curl without one is refused, and refused calls count against the
 * same limit), or is not served at all when switched off; health stays open.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Interceptor as ConnectInterceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import t from "tap";
import { createLogger } from "../../../../engine/shared/runtime/log.ts";
import { createEngineMetrics } from "../../../../engine/runtime/metrics.ts";
import { buildGrpcServer, type GrpcServerOptions, listen, registration } from "../../../../engine/rpc/server.ts";
import { loadRoundTrip } from "../../../support/round-trip-proto.ts";

const run = promisify(execFile);
const buf = `${new URL("../../../..", import.meta.url).pathname}node_modules/.bin/buf`;
const TOKEN = "closed-server-token-0123456789abcdef";
const rt = loadRoundTrip();
const impl = { echo: async (): Promise<MessageShape<DescMessage>> => create(rt.EchoResponse, { method: "echo" }) };

/** A server with these options on a free loopback port; stopped when the test file ends. */
async function serve(opts: GrpcServerOptions): Promise<string> {
  const log = createLogger("silent");
  const { server, health } = buildGrpcServer([registration(rt.service as never, impl as never, [TOKEN])], [rt.file], log, async () => {}, opts);
  const port = await listen(server, "127.0.0.1", 0);
  t.teardown(() => {
    health.stop();
    server.forceShutdown();
  });
  return `http://127.0.0.1:${port}`;
}

function echo(url: string, token: string | undefined): Promise<unknown> {
  const auth: ConnectInterceptor = (next) => (req) => {
    if (token !== undefined) req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  const client = createClient(rt.service, createGrpcTransport({ baseUrl: url, interceptors: [auth] })) as unknown as { echo(req: object): Promise<unknown> };
  return client.echo({});
}

async function codeOf(p: Promise<unknown>): Promise<Code | "ok"> {
  try {
    await p;
    return "ok";
  } catch (err) {
    return ConnectError.from(err).code;
  }
}

/** buf curl's exit and output: reflection as an operator uses it. */
async function curl(args: string[]): Promise<{ ok: boolean; out: string }> {
  try {
    const { stdout } = await run(buf, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...args]);
    return { ok: true, out: stdout };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** The value of one series in Prometheus text. */
function series(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

t.test(
  "refused tokens are counted by why; past the limit the address's refusals are throttled (the right token still passes), then counted again",
  async (t) => {
    const metrics = createEngineMetrics(() => Promise.reject(new Error("no database here")), { defaults: false });
    const url = await serve({ onAuthRefused: metrics.authRefused, authLimit: { failures: 5, windowSeconds: 60, blockSeconds: 2 } });
    t.equal(await codeOf(echo(url, TOKEN)), "ok");
    t.equal(await codeOf(echo(url, undefined)), Code.Unauthenticated, "no token");
    t.equal(await codeOf(echo(url, "x".repeat(40))), Code.Unauthenticated, "a wrong token");
    for (let i = 0; i < 3; i++) t.equal(await codeOf(echo(url, `wrong-${i}`.padEnd(40, "y"))), Code.Unauthenticated, `refusal ${i + 3} of 5`);
    const started = performance.now();
    const codes: (Code | "ok")[] = [];
    for (let i = 0; i < 50; i++) codes.push(await codeOf(echo(url, `guess-${i}`.padEnd(40, "z"))));
    t.same(new Set(codes), new Set([Code.ResourceExhausted]), "50 more guesses: every one refused as over the limit");
    t.equal(await codeOf(echo(url, TOKEN)), "ok", "the right token still passes while the address is blocked: a guesser cannot lock the edge out");
    t.equal(await codeOf(echo(url, undefined)), Code.ResourceExhausted, "no token is throttled too");
    const text = await metrics.registry.metrics();
    t.equal(series(text, 'cashier_rpc_auth_refusals_total{reason="missing"}'), 1);
    t.equal(series(text, 'cashier_rpc_auth_refusals_total{reason="wrong"}'), 4);
    t.equal(series(text, 'cashier_rpc_auth_refusals_total{reason="throttled"}'), 51);
    // The scenario, not a wait for an event: the block lasts 2 s.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2100 - (performance.now() - started))));
    t.equal(await codeOf(echo(url, "w".repeat(40))), Code.Unauthenticated, "once the block has ended, a wrong token is refused as before");
  },
);

t.test("reflection answers its token holders only; health needs no token", async (t) => {
  const url = await serve({ reflection: [TOKEN] });
  const without = await curl(["--list-services", url]);
  t.notOk(without.ok, "no token: refused");
  t.match(without.out, /not authenticated/i, "buf reads the refusal as UNAUTHENTICATED");
  const wrong = await curl(["--reflect-header", "authorization: Bearer not-the-token-at-all-0123456789", "--list-services", url]);
  t.notOk(wrong.ok, "a wrong token: refused");
  const listed = await curl(["--reflect-header", `authorization: Bearer ${TOKEN}`, "--list-services", url]);
  t.ok(listed.ok, listed.out);
  t.match(listed.out, /^cashier\.roundtrip\.v1\.RoundTripService$/m);
  t.match(listed.out, /^grpc\.health\.v1\.Health$/m);
  const described = await curl([
    "-H",
    `authorization: Bearer ${TOKEN}`,
    "--reflect-header",
    "*",
    "--data",
    "{}",
    `${url}/cashier.roundtrip.v1.RoundTripService/Echo`,
  ]);
  t.ok(described.ok, "a call described only by reflection, with the token");
  // The token opens reflection (buf's way of learning Health's schema); the check itself carries none.
  const health = await curl(["--reflect-header", `authorization: Bearer ${TOKEN}`, "--data", "{}", `${url}/grpc.health.v1.Health/Check`]);
  t.ok(health.ok, health.out);
  t.match(JSON.parse(health.out), { status: "SERVING" });
});

t.test("reflection switched off (CASHIER_GRPC_REFLECTION=0) is not served, whatever the token", async (t) => {
  const url = await serve({});
  const listed = await curl(["--reflect-header", `authorization: Bearer ${TOKEN}`, "--list-services", url]);
  t.notOk(listed.ok);
  t.match(listed.out, /unimplemented/i);
  t.equal(await codeOf(echo(url, TOKEN)), "ok", "the services themselves are");
});
