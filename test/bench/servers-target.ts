/**
 * The target process of `npm run bench -- --servers` (servers.ts): the engine
 * on a fresh database (startService), and the same two services served twice
 * on 127.0.0.1, from the same protobuf-es descriptors and implementations:
 *
 *   grpc-js       our adapter (grpc-adapter.ts) with the engine's interceptors
 *                 (errors, bearer token; decoding innermost)
 *   connect-node  @connectrpc/connect-node's gRPC handler on node:http2 with
 *                 the same two jobs as Connect interceptors
 *
 * Services: cashier.engine.v1.EngineService (the real Process path, on the
 * engine's stores and simulated processors) and the fixture
 * cashier.roundtrip.v1.RoundTripService (Echo: the trivial RPC). Metrics are
 * left out of both, so each server does the same work around a call.
 *
 * Talks over stdio: prints one JSON line with the ports when ready; answers
 * each "cpu" line on stdin with this process's CPU time in microseconds
 * (process.cpuUsage, every thread); stops on "stop" or the end of stdin.
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor as ConnectInterceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import { EngineService } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { domainError } from "../../engine/shared/errors.ts";
import { engineService } from "../../engine/payments/rpc/engine-service.ts";
import { toRpcError } from "../../engine/rpc/errors.ts";
import { addService } from "../../engine/rpc/grpc-adapter.ts";
import { RpcError } from "../../engine/rpc/interceptors.ts";
import { interceptorsFor, listen } from "../../engine/rpc/server.ts";
import { loadRoundTrip } from "../support/round-trip-proto.ts";
import { SERVICE_TOKEN, startService } from "../support/service.ts";

const svc = await startService({ LOG_LEVEL: "warn" });
const rt = loadRoundTrip();
const engine = engineService(svc.engine.deps);
const echo = {
  async echo(req: MessageShape<DescMessage>) {
    return create(rt.EchoResponse, { echo: req } as never);
  },
};
const onInternal = (err: unknown, method: string) => console.error(method, err);

// grpc-js through our adapter, as buildGrpcServer builds it.
const grpcJs = new grpc.Server({ "grpc.max_receive_message_length": 1024 * 1024, "grpc.keepalive_permit_without_calls": 1 });
const opts = { interceptors: interceptorsFor([SERVICE_TOKEN], { onInternal }), malformed: (d: string) => toRpcError(domainError("MALFORMED_BODY", d)) };
addService(grpcJs, EngineService, engine, opts);
addService(grpcJs, rt.service as never, echo as never, opts);
const grpcJsPort = await listen(grpcJs, "127.0.0.1", 0);

// connect-node, with the same two jobs as interceptors.
const auth: ConnectInterceptor = (next) => async (req) => {
  if (req.header.get("authorization") !== `Bearer ${SERVICE_TOKEN}`) throw new ConnectError("the bearer token is not valid", Code.Unauthenticated);
  return next(req);
};
const errors: ConnectInterceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (err) {
    if (err instanceof RpcError) throw new ConnectError(err.message, err.code as number as Code);
    if (!(err instanceof ConnectError)) onInternal(err, req.url);
    throw err;
  }
};
const handler = connectNodeAdapter({
  grpc: true,
  grpcWeb: false,
  connect: false,
  interceptors: [errors, auth],
  routes(router) {
    router.service(EngineService, engine as never);
    router.service(rt.service, echo as never);
  },
});
const connect = http2.createServer(handler);
await new Promise<void>((resolve) => connect.listen(0, "127.0.0.1", resolve));
const connectPort = (connect.address() as AddressInfo).port;

async function stop(): Promise<void> {
  grpcJs.forceShutdown();
  connect.close();
  await svc.stop();
  process.exit(0);
}

process.stdout.write(`${JSON.stringify({ grpcJs: grpcJsPort, connect: connectPort, token: SERVICE_TOKEN })}\n`);
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line === "cpu") {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpuMicros: user + system })}\n`);
  } else if (line === "stop") void stop();
});
lines.on("close", () => void stop());
