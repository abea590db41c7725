/**
 * The edge's transport (edge/grpc-transport.ts) against answers no healthy
 * engine gives, but a proxy, a dying engine or a broken one may: a plain HTTP
 * error, a page that is not gRPC, a stream reset, a connection dropped
 * mid-call, a reply that is not one whole message, a status that never comes,
 * an engine that never answers. A bare node:http2 server on 127.0.0.1 plays
 * each one, chosen by the method called. What the edge reads is the Connect
 * code (its HTTP answer follows from it) and whether an engine answered.
 */
import http2 from "node:http2";
import net, { type AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { encodeEnvelope } from "@connectrpc/connect/protocol";
import t from "tap";
import { engineUnreachable } from "../../../edge/engine-down.ts";
import { createUnaryGrpcTransport } from "../../../edge/grpc-transport.ts";
import { until } from "../../support/until.ts";
import { loadRoundTrip, type EchoRequest, type EchoResponse } from "../../support/round-trip-proto.ts";

const rt = loadRoundTrip();
const reply = Buffer.from(toBinary(rt.EchoResponse, create(rt.EchoResponse, { method: "echo" }) as never));
/** One gRPC frame (Connect's own encoder): the flags (1: compressed), the length, the bytes. */
const framed = (bytes: Uint8Array, flags = 0) => Buffer.from(encodeEnvelope(flags, bytes));
const GRPC = { ":status": 200, "content-type": "application/grpc+proto" };

/** How the server answers, by the test's own name for it (sent as the "x-play" header). */
const plays: Record<string, (stream: http2.ServerHttp2Stream) => void> = {
  ok(s) {
    s.respond(GRPC, { waitForTrailers: true });
    s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
    s.end(framed(reply));
  },
  http503(s) {
    s.respond({ ":status": 503, "content-type": "text/plain" });
    s.end("upstream unavailable");
  },
  html(s) {
    s.respond({ ":status": 200, "content-type": "text/html" });
    s.end("<p>not gRPC</p>");
  },
  refused(s) {
    s.close(http2.constants.NGHTTP2_REFUSED_STREAM);
  },
  droppedBeforeAnswer(s) {
    s.session?.destroy();
  },
  droppedMidAnswer(s) {
    s.respond(GRPC);
    s.write(framed(reply).subarray(0, 3), () => s.session?.destroy());
  },
  resetInternal(s) {
    s.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
  },
  resetCancel(s) {
    s.close(http2.constants.NGHTTP2_CANCEL);
  },
  twoMessages(s) {
    s.respond(GRPC, { waitForTrailers: true });
    s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
    s.end(Buffer.concat([framed(reply), framed(reply)]));
  },
  compressed(s) {
    s.respond(GRPC, { waitForTrailers: true });
    s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
    s.end(framed(reply, 1));
  },
  truncated(s) {
    s.respond(GRPC, { waitForTrailers: true });
    s.on("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
    s.end(framed(reply).subarray(0, reply.length));
  },
  noStatus(s) {
    s.respond(GRPC);
    s.end(framed(reply));
  },
  trailersOnly(s) {
    s.respond({ ...GRPC, "grpc-status": String(Code.PermissionDenied), "grpc-message": encodeURIComponent("not for you") }, { endStream: true });
  },
  silent() {},
};

/** Each stream the server saw closed, with the reset code it closed with. */
const resets: number[] = [];
const server = http2.createServer();
server.on("stream", (stream: http2.ServerHttp2Stream, headers) => {
  stream.on("close", () => resets.push(stream.rstCode));
  stream.on("error", () => {});
  stream.resume();
  stream.on("end", () => plays[String(headers["x-play"])]?.(stream));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
t.teardown(() => {
  server.close();
});
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function call(play: string, timeoutMs?: number, header: Record<string, string> = {}): Promise<EchoResponse | ConnectError> {
  const transport = createUnaryGrpcTransport({ baseUrl: url, header: { "x-play": play, ...header }, defaultTimeoutMs: 5000 });
  try {
    const client = createClient(rt.service, transport) as unknown as { echo(req: Partial<EchoRequest>, o?: { timeoutMs?: number }): Promise<EchoResponse> };
    return await client.echo({}, { timeoutMs });
  } catch (err) {
    return ConnectError.from(err);
  } finally {
    transport.close();
  }
}

t.test("a whole gRPC answer is read as the reply", async (t) => {
  const got = await call("ok");
  t.notOk(got instanceof ConnectError, "a reply");
  t.equal((got as EchoResponse).method, "echo");
});

const failures: { play: string; code: Code; unreachable: boolean; why: string }[] = [
  { play: "http503", code: Code.Unavailable, unreachable: true, why: "a proxy's 503 in front of the engine: UNAVAILABLE, as the gRPC protocol maps it" },
  { play: "html", code: Code.Unknown, unreachable: false, why: "a page that is not gRPC" },
  { play: "refused", code: Code.Unavailable, unreachable: true, why: "a stream refused before the engine took it" },
  { play: "droppedBeforeAnswer", code: Code.Unavailable, unreachable: true, why: "a connection dropped before the answer began" },
  { play: "droppedMidAnswer", code: Code.Aborted, unreachable: false, why: "a connection dropped once the answer had begun (the engine had the call)" },
  { play: "resetInternal", code: Code.Internal, unreachable: false, why: "a stream the engine reset with INTERNAL_ERROR after taking the call" },
  { play: "resetCancel", code: Code.Canceled, unreachable: false, why: "a stream the engine reset with CANCEL after taking the call" },
  { play: "twoMessages", code: Code.Unimplemented, unreachable: false, why: "two messages for a unary call" },
  { play: "compressed", code: Code.Internal, unreachable: false, why: "a compressed message that was not asked for" },
  { play: "truncated", code: Code.Internal, unreachable: false, why: "a message cut short" },
  { play: "noStatus", code: Code.Internal, unreachable: false, why: "an answer without grpc-status" },
  { play: "trailersOnly", code: Code.PermissionDenied, unreachable: false, why: "a trailers-only refusal" },
];
for (const f of failures) {
  t.test(`${f.why}: ${Code[f.code]}`, async (t) => {
    const got = await call(f.play);
    t.ok(got instanceof ConnectError, "refused");
    const err = got as ConnectError;
    t.equal(Code[err.code], Code[f.code]);
    t.equal(engineUnreachable(err), f.unreachable, f.unreachable ? "another engine may take it" : "not sent elsewhere");
    t.same(err.details, [], "no engine detail");
  });
}

t.test("a trailers-only refusal keeps the engine's words", async (t) => {
  const got = await call("trailersOnly");
  t.equal((got as ConnectError).rawMessage, "not for you");
});

t.test("an engine that never answers: DEADLINE_EXCEEDED at the deadline, and the stream is reset with CANCEL", async (t) => {
  const before = resets.length;
  const started = performance.now();
  const got = await call("silent", 200);
  const took = performance.now() - started;
  t.equal(Code[(got as ConnectError).code], "DeadlineExceeded");
  t.ok(took >= 190 && took < 3000, `ended at the deadline (${Math.round(took)} ms)`);
  // The reset reaches the server after the caller has its answer: waited for, at most 2 s.
  const closed = await until(async () => resets.length > before, 2000, 10);
  t.ok(closed, "the server saw the stream close within 2 s of the deadline");
  t.same(resets.slice(before), [http2.constants.NGHTTP2_CANCEL], "the server saw the call cancelled");
});

t.test("a header Node refuses to send is our fault (INTERNAL), not an engine out of reach", async (t) => {
  const got = (await call("ok", undefined, { connection: "keep-alive" })) as ConnectError;
  t.equal(Code[got.code], "Internal");
  t.notOk(engineUnreachable(got), "not sent elsewhere");
});

t.test("a deadline past Node's longest timer is kept, not fired at once", async (t) => {
  const got = await call("ok", 2 ** 40);
  t.notOk(got instanceof ConnectError, "a reply");
});

t.test("an engine that accepts no connection: UNAVAILABLE at the connect timeout, so another engine may take the call", async (t) => {
  // A socket that is accepted but never speaks: the TLS handshake never ends, as with an address that drops packets.
  const silent = net.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const sockets = new Set<net.Socket>();
  silent.on("connection", (s) => sockets.add(s));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });
  const target = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  const transport = createUnaryGrpcTransport({ baseUrl: target, defaultTimeoutMs: 5000, connectTimeoutMs: 200 });
  const started = performance.now();
  try {
    await (createClient(rt.service, transport) as unknown as { echo(req: Partial<EchoRequest>): Promise<EchoResponse> }).echo({});
    t.fail("answered");
  } catch (err) {
    const e = ConnectError.from(err);
    const took = performance.now() - started;
    t.equal(Code[e.code], "Unavailable");
    t.ok(engineUnreachable(e), "another engine may take it");
    t.ok(took >= 190 && took < 3000, `refused at the connect timeout, not the deadline (${Math.round(took)} ms)`);
  } finally {
    transport.close();
  }
});
