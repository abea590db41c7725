/**
 * The edge's transport (edge/grpc-transport.ts) against the reference it
 * replaced, connect-node's gRPC transport: both call a real grpc-js server on
 * 127.0.0.1 that serves the fixture service (test/fixtures/round_trip.proto)
 * through the engine's own adapter and interceptors, and every outcome the
 * edge reads must be the same: the reply, the code, the message and the
 * details of each refusal, a deadline, a cancelled call, an engine that cannot
 * be reached. The expected codes are also written out, so that both agreeing
 * on something wrong fails too.
 */
import { EventEmitter, once } from "node:events";
import { create, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type CallOptions, type Interceptor as ConnectInterceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import t from "tap";
import { ErrorDetailSchema, ErrorReason } from "../../../gen/cashier/engine/v1/errors_pb.js";
import { domainError } from "../../../engine/shared/errors.ts";
import { toRpcError } from "../../../engine/rpc/errors.ts";
import { addService } from "../../../engine/rpc/grpc-adapter.ts";
import { interceptorsFor, listen } from "../../../engine/rpc/server.ts";
import { createUnaryGrpcTransport } from "../../../edge/grpc-transport.ts";
import { engineUnreachable } from "../../../edge/engine-down.ts";
import { actAsAsked } from "../../support/round-trip-behaviour.ts";
import { loadRoundTrip, type EchoRequest, type EchoResponse } from "../../support/round-trip-proto.ts";

const TOKEN = "transport-token";
const rt = loadRoundTrip();

/** Told of each call the server has taken, before it acts on it: a test waits for its call to be in flight. */
const arrivals = new EventEmitter();
const impl = {
  async echo(req: MessageShape<DescMessage>): Promise<MessageShape<DescMessage>> {
    arrivals.emit("echo");
    await actAsAsked(req as unknown as EchoRequest);
    return create(rt.EchoResponse, { echo: req, method: "echo" });
  },
};
const server = new grpc.Server();
addService(server, rt.service as never, impl as never, {
  interceptors: interceptorsFor([TOKEN], { onInternal: () => {} }),
  malformed: (description) => toRpcError(domainError("MALFORMED_BODY", description)),
});
const port = await listen(server, "127.0.0.1", 0);
t.teardown(() => server.forceShutdown());
const url = `http://127.0.0.1:${port}`;

// A port nothing listens on: taken, then released.
const closedPort = await (async () => {
  const probe = new grpc.Server();
  const p = await listen(probe, "127.0.0.1", 0);
  probe.forceShutdown();
  return p;
})();

type Echo = (req: Partial<EchoRequest>, opts?: CallOptions) => Promise<EchoResponse>;
const echoOver = (transport: Transport): Echo => (createClient(rt.service, transport) as unknown as { echo: Echo }).echo;

function connectNode(baseUrl: string, token: string): Transport {
  const auth: ConnectInterceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  return createGrpcTransport({ baseUrl, interceptors: [auth], acceptCompression: [] });
}
const opened: { close(): void }[] = [];
function edgeHop(baseUrl: string, token: string): Transport {
  const x = createUnaryGrpcTransport({ baseUrl, header: { authorization: `Bearer ${token}` }, defaultTimeoutMs: 30_000 });
  opened.push(x);
  return x;
}
t.teardown(() => {
  for (const x of opened) x.close();
});

/** What the edge reads of a refusal: code, message, and each detail's type and bytes. */
async function outcome(p: Promise<unknown>): Promise<{ code: string; message: string; details: string[] } | { reply: string }> {
  try {
    const res = (await p) as EchoResponse;
    return { reply: Buffer.from(toBinary(rt.EchoResponse, res as never)).toString("base64") };
  } catch (err) {
    const e = ConnectError.from(err);
    return {
      code: Code[e.code],
      message: e.rawMessage,
      details: e.details.map((d) => ("desc" in d ? `${d.desc.typeName}` : `${d.type}:${Buffer.from(d.value).toString("base64")}`)),
    };
  }
}

const request: Partial<EchoRequest> = {
  tags: ["a", "b"],
  counts: { x: 9007199254740993n },
  scalars: { fString: "zoë ✓", fInt64: -(2n ** 63n), fUint64: 2n ** 64n - 1n, fBool: true, fBytes: new Uint8Array([0, 255]) } as never,
};

/** `ownWords`: the transport's own failure, whose words are each library's (the edge shows a fixed sentence); the code must agree. */
const cases: { name: string; call: (echo: Echo) => Promise<unknown>; expect: string; ownWords?: true }[] = [
  { name: "a reply", call: (echo) => echo(request), expect: "reply" },
  { name: "a refusal with its details", call: (echo) => echo({ failWith: "rpc" }), expect: "InvalidArgument" },
  { name: "an engine failure, without its text", call: (echo) => echo({ failWith: "plain" }), expect: "Internal" },
  { name: "the engine's database down", call: (echo) => echo({ failWith: "pg-down" }), expect: "Unavailable" },
  { name: "a call past its deadline", call: (echo) => echo({ delayMs: 400 }, { timeoutMs: 50 }), expect: "DeadlineExceeded", ownWords: true },
  {
    name: "a call cancelled by its caller",
    call: (echo) => {
      const ac = new AbortController();
      // The scenario, not a wait for an event: the caller gives up 50 ms into a call the server holds for 400 ms.
      setTimeout(() => ac.abort(), 50);
      return echo({ delayMs: 400 }, { signal: ac.signal });
    },
    expect: "Canceled",
    ownWords: true,
  },
];

for (const c of cases) {
  t.test(`${c.name}: the edge's transport reads it as connect-node's did`, async (t) => {
    const reference = await outcome(c.call(echoOver(connectNode(url, TOKEN))));
    const got = await outcome(c.call(echoOver(edgeHop(url, TOKEN))));
    t.equal("reply" in got ? "reply" : got.code, c.expect, "the expected outcome");
    if (c.ownWords && "code" in got && "code" in reference) {
      t.equal(got.code, reference.code, "the same code");
      t.same(got.details, [], "no engine detail");
    } else {
      t.same(got, reference, "the same reply, or the same code, message and details");
    }
  });
}

t.test("a refusal's details decode to the engine's ErrorDetail", async (t) => {
  try {
    await echoOver(edgeHop(url, TOKEN))({ failWith: "rpc" });
    t.fail("refused");
  } catch (err) {
    const [detail] = ConnectError.from(err).findDetails(ErrorDetailSchema);
    t.equal(detail?.reason, ErrorReason.INVALID_FIELDS);
    t.match(detail?.violations, [{ field: "tags", description: "too many" }]);
  }
});

t.test("a wrong token is UNAUTHENTICATED, as the engine says it", async (t) => {
  const reference = await outcome(echoOver(connectNode(url, "wrong"))({}));
  const got = await outcome(echoOver(edgeHop(url, "wrong"))({}));
  t.match(got, { code: "Unauthenticated" });
  t.same(got, reference);
});

t.test("an engine that cannot be reached: UNAVAILABLE without an engine's answer, so the pool may try another", async (t) => {
  const dead = `http://127.0.0.1:${closedPort}`;
  for (const transport of [connectNode(dead, TOKEN), edgeHop(dead, TOKEN)]) {
    try {
      await echoOver(transport)({}, { timeoutMs: 5000 });
      t.fail("reached");
    } catch (err) {
      t.equal(ConnectError.from(err).code, Code.Unavailable);
      t.ok(engineUnreachable(err), "no engine detail");
    }
  }
});

t.test("response headers and trailers reach the caller's callbacks", async (t) => {
  let header: Headers | undefined;
  let trailer: Headers | undefined;
  await echoOver(edgeHop(url, TOKEN))({}, { onHeader: (h) => (header = h), onTrailer: (h) => (trailer = h) });
  t.equal(header?.get("content-type"), "application/grpc+proto");
  t.ok(trailer, "a trailer was given");
});

t.test("a closed transport refuses at once as UNAVAILABLE, and calls in flight finish", async (t) => {
  const x = createUnaryGrpcTransport({ baseUrl: url, header: { authorization: `Bearer ${TOKEN}` }, defaultTimeoutMs: 30_000 });
  const echo = echoOver(x);
  const arrived = once(arrivals, "echo", { signal: AbortSignal.timeout(5000) }).catch(() => {
    throw new Error("the server did not get the call within 5 s");
  });
  const inFlight = echo({ delayMs: 100 });
  // The server has the call (and holds it for 100 ms): it is in flight when the transport closes.
  await arrived;
  x.close();
  t.match(await outcome(inFlight), { reply: String }, "the call in flight got its reply");
  const after = await outcome(echo({}));
  t.match(after, { code: "Unavailable" });
});
