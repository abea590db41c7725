/**
 * What a failed engine call means to the edge, over real sockets: an engine
 * that cannot be reached (a closed port) is told from one that answered
 * UNAVAILABLE because its database is gone (the engine's own classification,
 * served by the engine's gRPC adapter) by what the error carries, never by
 * its words; both are a retryable 503, and only the first sends the call to
 * another engine.
 */
import { closedPort } from "../../support/closed-port.ts";
import * as grpc from "@grpc/grpc-js";
import t, { type Test } from "tap";
import { createUnaryGrpcTransport } from "../../../edge/grpc-transport.ts";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { EngineService, GetTransactionResponseSchema } from "../../../gen/cashier/engine/v1/engine_service_pb.js";
import { addService, type ServiceImpl } from "../../../engine/rpc/grpc-adapter.ts";
import { classifyDataError, classifyInternal, toRpcError } from "../../../engine/rpc/errors.ts";
import { mappingErrors } from "../../../engine/rpc/interceptors.ts";
import { listen } from "../../../engine/rpc/server.ts";
import { domainError } from "../../../engine/shared/errors.ts";
import { engineAnswered, engineUnreachable, retryLater } from "../../../edge/engine-down.ts";
import { createEnginePool } from "../../../edge/engine-pool.ts";
import { refusalOf } from "../../../edge/middleware/errors.ts";

/**
 * An engine whose database is gone for Process (the driver's error, classified
 * as the engine classifies it), that answers GetTransaction, and refuses
 * GetChallenge as a caller's mistake. Counts the calls it receives.
 */
async function engineWithoutDatabase(t: Test) {
  const calls = { process: 0, getTransaction: 0 };
  const impl = {
    async process() {
      calls.process++;
      throw Object.assign(new Error("Connection terminated unexpectedly"), { code: "57P01" });
    },
    async getTransaction() {
      calls.getTransaction++;
      return create(GetTransactionResponseSchema, {});
    },
    async getChallenge() {
      throw toRpcError(domainError("NOT_FOUND", "no such 3-D Secure challenge"));
    },
  } as unknown as ServiceImpl<typeof EngineService>;
  const server = new grpc.Server();
  addService(server, EngineService, impl, {
    interceptors: [mappingErrors({ onInternal: () => {}, classify: (err) => classifyDataError(err) ?? classifyInternal(err) })],
  });
  const port = await listen(server, "127.0.0.1", 0);
  t.teardown(() => server.forceShutdown());
  return { url: `http://127.0.0.1:${port}`, calls };
}

// The edge's own transport (edge/grpc-transport.ts), without a token: these engines ask for none.
const opened: { close(): void }[] = [];
const transport = (url: string) => {
  const x = createUnaryGrpcTransport({ baseUrl: url, defaultTimeoutMs: 5000 });
  opened.push(x);
  return x;
};
t.teardown(() => {
  for (const x of opened) x.close();
});

async function failure(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (err) {
    return ConnectError.from(err);
  }
  throw new Error("expected the call to fail");
}

t.test("an engine out of reach: UNAVAILABLE with no engine's answer, a 503", async (t) => {
  const client = createClient(EngineService, transport(`http://127.0.0.1:${await closedPort()}`));
  const err = await failure(client.getTransaction({ traceId: 1 }));
  t.equal(err.code, Code.Unavailable);
  t.equal(engineAnswered(err), false);
  t.equal(engineUnreachable(err), true, "another engine may take the call");
  t.equal(retryLater(err), true);
  t.same(refusalOf(err), { reason: "UNAVAILABLE", description: "Service temporarily unavailable, retry later" });
});

t.test("an engine whose database is gone answered: UNAVAILABLE with its reason, a 503, not out of reach", async (t) => {
  const engine = await engineWithoutDatabase(t);
  const client = createClient(EngineService, transport(engine.url));
  const err = await failure(client.process({}));
  t.equal(err.code, Code.Unavailable);
  t.equal(engineAnswered(err), true, "it carries the engine's ErrorDetail");
  t.equal(engineUnreachable(err), false, "the engine is up: no other engine is tried for it");
  t.same(refusalOf(err), { reason: "UNAVAILABLE", description: "Service temporarily unavailable, retry later" });
  const refused = await failure(client.getChallenge({ traceId: 1, mac: "x" }));
  t.equal(refused.code, Code.NotFound);
  t.equal(engineUnreachable(refused), false);
  t.equal(retryLater(refused), false);
  t.equal(refusalOf(refused).reason, "NOT_FOUND", "an engine's refusal keeps its reason");
});

t.test("codes that say retry later, and those that do not", async (t) => {
  const rows: [Code, boolean][] = [
    [Code.Unavailable, true],
    [Code.DeadlineExceeded, true],
    [Code.Canceled, true],
    [Code.Aborted, true],
    [Code.Internal, false],
    [Code.Unknown, false],
    [Code.InvalidArgument, false],
    // Without an engine's reason (RATE_LIMITED, PAYLOAD_TOO_LARGE keep their own): the service's load, not the request.
    [Code.ResourceExhausted, true],
  ];
  for (const [code, later] of rows) {
    const err = new ConnectError("words that mean nothing here", code);
    t.equal(retryLater(err), later, `${Code[code]}: ${later ? "503" : "not 503"}`);
    t.equal(engineUnreachable(err), code === Code.Unavailable, `${Code[code]}: out of reach only when UNAVAILABLE`);
    t.equal(refusalOf(err).reason, later ? "UNAVAILABLE" : "INTERNAL");
  }
});

t.test("the pool sends a call to another engine only when the first could not be reached", async (t) => {
  const engine = await engineWithoutDatabase(t);
  const closed = `http://127.0.0.1:${await closedPort()}`;
  const client = createClient(EngineService, createEnginePool(`${closed},${engine.url}`, (u) => transport(u)).transport);
  for (let i = 0; i < 4; i++) await client.getTransaction({ traceId: 1 });
  t.equal(engine.calls.getTransaction, 4, "every call answered, the closed port's ones by the other engine");
});

t.test("an engine's database-down answer is final: the call is not sent to another engine", async (t) => {
  const a = await engineWithoutDatabase(t);
  const b = await engineWithoutDatabase(t);
  const client = createClient(EngineService, createEnginePool(`${a.url},${b.url}`, (u) => transport(u)).transport);
  for (let i = 0; i < 4; i++) {
    const err = await failure(client.process({}));
    t.equal(err.code, Code.Unavailable);
    t.equal(engineAnswered(err), true);
  }
  t.equal(a.calls.process + b.calls.process, 4, "each call reached one engine once, none twice");
});
