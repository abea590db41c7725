/**
 * The gRPC adapter on its own (engine/rpc/grpc-adapter.ts), against a real
 * grpc-js server on 127.0.0.1 serving a fixture service
 * (test/fixtures/round_trip.proto) behind the engine's own interceptors
 * (server.ts's interceptorsFor) and reflection. Clients are the ones callers
 * use: Connect's gRPC transport (as a Connect caller), raw grpc-js bytes (as a
 * hostile caller), buf curl (as an operator). It checks that what goes in
 * comes back for every kind of field, that bytes which are no message are
 * INVALID_ARGUMENT naming the cause, deadlines, metadata and the bearer token,
 * the interceptors' order, the mapping of thrown errors, and reflection.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { create, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { Code, createClient, type CallOptions, type Interceptor as ConnectInterceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import t, { type Test } from "tap";
import { ErrorReason } from "../../../../gen/cashier/engine/v1/errors_pb.js";
import { DATABASE_UNAVAILABLE, domainError } from "../../../../engine/shared/errors.ts";
import { toRpcError } from "../../../../engine/rpc/errors.ts";
import { addService, type CallContext } from "../../../../engine/rpc/grpc-adapter.ts";
import { observing, type Interceptor } from "../../../../engine/rpc/interceptors.ts";
import { addReflection } from "../../../../engine/rpc/reflection.ts";
import { interceptorsFor, listen } from "../../../../engine/rpc/server.ts";
import { rawGrpc } from "../../../support/raw-grpc.ts";
import { until } from "../../../support/until.ts";
import { actAsAsked } from "../../../support/round-trip-behaviour.ts";
import { Colour, loadRoundTrip, type EchoRequest, type EchoResponse } from "../../../support/round-trip-proto.ts";
import { refusal } from "../../../support/refusal.ts";

const run = promisify(execFile);
const repo = new URL("../../../..", import.meta.url).pathname;
const TOKEN = "round-trip-token";
const rt = loadRoundTrip();

// What the interceptors and the handler saw, for the assertions.
const trace: string[] = [];
const recorded: string[] = [];
const internal: { err: unknown; method: string }[] = [];
const tracer =
  (name: string): Interceptor =>
  (next) =>
  async (call) => {
    trace.push(`${name} in`);
    try {
      return await next(call);
    } finally {
      trace.push(`${name} out`);
    }
  };

const impl = {
  async echo(req: MessageShape<DescMessage>, ctx: CallContext): Promise<MessageShape<DescMessage>> {
    trace.push("handler");
    await actAsAsked(req as unknown as EchoRequest);
    const caller = ctx.metadata.get("x-caller")[0];
    return create(rt.EchoResponse, { echo: req, method: ctx.method, caller: typeof caller === "string" ? caller : "", hasDeadline: ctx.deadline !== Infinity });
  },
};

const server = new grpc.Server();
// The fixture's descriptors are loaded at run time, so the service's method types are not known to tsc.
addService(server, rt.service as never, impl as never, {
  interceptors: [
    tracer("outermost"),
    ...interceptorsFor([TOKEN], {
      observe: observing((method, code) => recorded.push(`${method} ${grpc.status[code]}`)),
      onInternal: (err, method) => internal.push({ err, method }),
    }),
    tracer("innermost"),
  ],
  malformed: (description) => toRpcError(domainError("MALFORMED_BODY", description)),
});
addReflection(server, [rt.file]);
const port = await listen(server, "127.0.0.1", 0);
t.teardown(() => server.forceShutdown());
const url = `http://127.0.0.1:${port}`;

type Echo = (req: Partial<EchoRequest>, opts?: CallOptions) => Promise<EchoResponse>;
function client(token: string | undefined): Echo {
  const auth: ConnectInterceptor = (next) => (req) => {
    if (token !== undefined) req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  const c = createClient(rt.service, createGrpcTransport({ baseUrl: url, interceptors: [auth] }));
  return (c as unknown as { echo: Echo }).echo;
}
const echo = client(TOKEN);
const raw = rawGrpc(url, TOKEN);
t.teardown(() => raw.close());
const ECHO = "/cashier.roundtrip.v1.RoundTripService/Echo";

const same = (t: Test, got: EchoRequest | undefined, sent: Partial<EchoRequest>, what: string) =>
  t.same(Buffer.from(toBinary(rt.EchoRequest, got as never)), Buffer.from(toBinary(rt.EchoRequest, create(rt.EchoRequest, sent as never))), what);

t.test("every scalar kind comes back as sent, extremes included", async (t) => {
  const scalars = {
    fDouble: -1.5e300,
    fFloat: 3.5,
    fInt32: -2147483648,
    fInt64: -(2n ** 63n),
    fUint32: 4294967295,
    fUint64: 2n ** 64n - 1n,
    fSint32: -123456,
    fSint64: -(2n ** 62n),
    fFixed32: 4294967295,
    fFixed64: 2n ** 64n - 1n,
    fSfixed32: -1,
    fSfixed64: -(2n ** 63n),
    fBool: true,
    fString: "héllo, 世界 🎉",
    fBytes: Uint8Array.from({ length: 256 }, (_, i) => i),
  };
  const res = await echo({ scalars });
  t.match(res.echo?.scalars, { ...scalars, fBytes: Buffer.from(scalars.fBytes) });
  t.equal(res.echo?.scalars?.fInt64, -(2n ** 63n), "int64 as bigint, no precision lost");
  t.equal(res.echo?.scalars?.fUint64, 2n ** 64n - 1n);
  same(t, res.echo, { scalars }, "the same bytes");
  const zero = await echo({});
  t.equal(zero.echo?.scalars, undefined, "an unset message stays unset");
  t.equal(zero.echo?.colour, Colour.UNSPECIFIED);
});

t.test("repeated, maps, enums and nested messages come back as sent", async (t) => {
  const sent = {
    tags: ["a", "", "ç"],
    numbers: [0n, -1n, 2n ** 63n - 1n],
    counts: { one: 1n, minus: -5n, "": 0n },
    inners: { 7: { label: "seven", values: [7, 77] }, [-1]: { label: "minus one", values: [] } },
    colour: Colour.GREEN,
    nested: { label: "n", values: [1, 2, 3] },
    nestedList: [
      { label: "x", values: [-1] },
      { label: "y", values: [] },
    ],
  };
  const res = await echo(sent);
  t.same(res.echo?.tags, sent.tags);
  t.same(res.echo?.numbers, sent.numbers);
  t.same({ ...res.echo?.counts }, sent.counts);
  t.match(res.echo?.inners[7], { label: "seven", values: [7, 77] });
  t.match(res.echo?.inners[-1], { label: "minus one", values: [] });
  t.equal(res.echo?.colour, Colour.GREEN);
  t.match(res.echo?.nested, { label: "n", values: [1, 2, 3] });
  t.match(res.echo?.nestedList, [
    { label: "x", values: [-1] },
    { label: "y", values: [] },
  ]);
  same(t, res.echo, sent, "the same bytes");
  const open = await echo({ colour: 99 });
  t.equal(open.echo?.colour, 99, "an enum value this side does not know is kept (proto3 enums are open)");
});

t.test("each case of a oneof comes back, and only that case", async (t) => {
  const text = await echo({ choice: { case: "text", value: "hi" } });
  t.same(text.echo?.choice, { case: "text", value: "hi" });
  const inner = await echo({ choice: { case: "inner", value: { label: "in", values: [4] } } });
  t.equal(inner.echo?.choice.case, "inner");
  t.match(inner.echo?.choice.value, { label: "in", values: [4] });
  const picked = await echo({ choice: { case: "picked", value: Colour.RED } });
  t.same(picked.echo?.choice, { case: "picked", value: Colour.RED });
  const none = await echo({});
  t.equal(none.echo?.choice.case, undefined);
});

t.test("bytes that are no message are INVALID_ARGUMENT naming the type and the cause, never INTERNAL", async (t) => {
  const cases: [string, number[], RegExp][] = [
    ["truncated", [0x0a, 0x05, 0x41], /^malformed cashier\.roundtrip\.v1\.EchoRequest: premature EOF$/],
    ["invalid UTF-8 in a string", [0x12, 0x02, 0xff, 0xfe], /^malformed cashier\.roundtrip\.v1\.EchoRequest: .*utf-8/i],
    ["a reserved wire type", [0x0e], /^malformed cashier\.roundtrip\.v1\.EchoRequest: illegal tag: field no 1 wire type 6$/],
    ["a varint over ten bytes", [0x60, ...Array(10).fill(0xff), 0x01], /^malformed cashier\.roundtrip\.v1\.EchoRequest: invalid varint$/],
  ];
  trace.length = 0;
  for (const [what, bytes, cause] of cases) {
    const answer = await raw.call(ECHO, Uint8Array.from(bytes));
    t.equal(answer.code, grpc.status.INVALID_ARGUMENT, `${what}: INVALID_ARGUMENT`);
    t.match(answer.details, cause, `${what}: the cause named`);
    t.equal(answer.reason, ErrorReason.MALFORMED_BODY, `${what}: the reason a malformed JSON body has`);
  }
  t.notOk(trace.includes("handler"), "no malformed request reached the handler");
  t.same(internal, [], "nothing logged as an engine failure");
});

t.test("fields this side does not know are accepted, as protobuf's compatibility rules say", async (t) => {
  const known = toBinary(rt.EchoRequest, create(rt.EchoRequest, { tags: ["kept"] } as never));
  const unknown = Buffer.concat([known, Buffer.from([0xf8, 0x06, 0x2a])]); // field 111, varint 42
  const answer = await raw.call(ECHO, unknown);
  t.equal(answer.code, grpc.status.OK);
});

t.test("metadata reaches the handler; a missing or wrong bearer token is UNAUTHENTICATED before anything else", async (t) => {
  const res = await echo({}, { headers: { "x-caller": "alice" } });
  t.equal(res.caller, "alice");
  t.equal(res.method, ECHO);
  const missing = await refusal(client(undefined)({}));
  t.equal(missing.code, Code.Unauthenticated);
  t.equal(missing.message, "authorization: Bearer <token> is required");
  const wrong = await refusal(client("not-the-token")({}));
  t.equal(wrong.code, Code.Unauthenticated);
  t.equal(wrong.message, "the bearer token is not valid");
  for (const header of ["Basic cm91bmQ=", "Bearer", "Bearer two tokens"]) {
    const odd = await refusal(client(undefined)({}, { headers: { authorization: header } }));
    t.same([odd.code, odd.message], [Code.Unauthenticated, 'authorization: must be "Bearer <token>", one token after the word Bearer'], header);
  }
  t.equal((await client(undefined)({}, { headers: { authorization: `bearer  ${TOKEN} ` } })).method, ECHO, "the scheme in any case, spaces around the token");
  const anonymous = rawGrpc(url, "not-the-token");
  t.teardown(() => anonymous.close());
  const malformed = await anonymous.call(ECHO, Uint8Array.from([0x0a, 0x05, 0x41]));
  t.equal(malformed.code, grpc.status.UNAUTHENTICATED, "who may not call learns nothing about how its bytes were judged");
});

t.test("deadlines: the handler sees one, and a call past it is DEADLINE_EXCEEDED while the server carries on", async (t) => {
  t.equal((await echo({})).hasDeadline, false, "none sent, none seen");
  t.equal((await echo({}, { timeoutMs: 5000 })).hasDeadline, true);
  const ended = recorded.length;
  const late = await refusal(echo({ delayMs: 400 }, { timeoutMs: 50 }));
  t.equal(late.code, Code.DeadlineExceeded);
  // The handler still runs to its end on the server; wait for it, so it cannot land in the next test's trace.
  t.ok(await until(async () => recorded.length > ended, 10_000, 20), "the late call ended on the server");
  t.equal((await echo({ tags: ["after"] })).echo?.tags[0], "after", "the next call is served");
});

t.test("interceptors run outermost first going in and last coming out; auth stops the chain before decoding", async (t) => {
  trace.length = 0;
  recorded.length = 0;
  await echo({});
  t.same(trace, ["outermost in", "innermost in", "handler", "innermost out", "outermost out"]);
  t.same(recorded, [`${ECHO} OK`], "metrics saw the call");

  trace.length = 0;
  recorded.length = 0;
  await refusal(client("not-the-token")({}));
  t.same(trace, ["outermost in", "outermost out"], "nothing inside auth ran");
  t.same(recorded, [`${ECHO} UNAUTHENTICATED`], "metrics, outside auth, counted the refusal");

  trace.length = 0;
  recorded.length = 0;
  await refusal(echo({ failWith: "plain" }));
  t.same(recorded, [`${ECHO} INTERNAL`], "metrics, outside the error mapping, saw the mapped code");
  internal.length = 0;
});

t.test("thrown errors leave as gRPC statuses: refusals with their details, failures without their text", async (t) => {
  internal.length = 0;
  const refused = await refusal(echo({ failWith: "rpc" }));
  t.equal(refused.code, Code.InvalidArgument);
  t.equal(refused.message, "tags: too many");
  t.equal(refused.reason, ErrorReason.INVALID_FIELDS, "google.rpc.Status details, read by a Connect client");
  t.match(refused.violations, [{ field: "tags", description: "too many" }]);
  t.same(internal, [], "a refusal is not an engine failure");

  const crashed = await refusal(echo({ failWith: "plain" }));
  t.equal(crashed.code, Code.Internal);
  t.equal(crashed.message, "internal error");
  t.notMatch(JSON.stringify(crashed), /secret internal text|srv/, "the internal message is never echoed");
  t.equal(internal.length, 1, "and is logged");
  t.match(String(internal[0]?.err), /secret internal text/);
  t.equal(internal[0]?.method, ECHO);

  const badData = await refusal(echo({ failWith: "pg-data" }));
  t.equal(badData.code, Code.InvalidArgument, "a value Postgres refused as data is the caller's");
  t.equal(badData.message, "a value is not acceptable (invalid text or out of range)");

  const down = await refusal(echo({ failWith: "pg-down" }));
  t.equal(down.code, Code.Unavailable, "a database that is down: retry");
  t.equal(down.message, DATABASE_UNAVAILABLE);
  t.notMatch(down.message, /ECONNREFUSED|5432/);
});

t.test("reflection lists the service and describes it well enough for buf curl to call it", async (t) => {
  const bin = `${repo}node_modules/.bin/buf`;
  const { stdout } = await run(bin, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", "--list-services", url]);
  t.match(stdout, /^cashier\.roundtrip\.v1\.RoundTripService$/m);
  const called = await run(bin, [
    "curl",
    "--protocol",
    "grpc",
    "--http2-prior-knowledge",
    "-H",
    `authorization: Bearer ${TOKEN}`,
    "--data",
    '{"text": "via reflection", "counts": {"a": "1"}}',
    `${url}${ECHO}`,
  ]);
  t.match(JSON.parse(called.stdout), { echo: { text: "via reflection", counts: { a: "1" } }, method: ECHO });
});
