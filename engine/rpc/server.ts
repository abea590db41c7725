/**
 * The engine's gRPC server (grpc-js): EngineService behind bearer-token
 * authentication. Built here, started by the caller.
 */
import * as grpc from "@grpc/grpc-js";
import { EngineService } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import type { ProcessDeps } from "../app/ports.ts";
import type { Logger } from "../log.ts";
import { bearerAuth } from "./auth.ts";
import { addService } from "./grpc-adapter.ts";
import { engineService } from "./engine-service.ts";

export function buildGrpcServer(deps: ProcessDeps, tokens: string[], log: Logger): grpc.Server {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 1024 * 1024,
    "grpc.keepalive_permit_without_calls": 1,
  });
  const onInternal = (err: unknown, method: string) => log.error({ err, method }, "rpc failed");
  addService(server, EngineService, engineService(deps), { interceptor: bearerAuth(tokens), onInternal });
  return server;
}

export async function listen(server: grpc.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}
