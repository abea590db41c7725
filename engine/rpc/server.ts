/**
 * The engine's gRPC server (grpc-js): EngineService behind bearer-token
 * authentication. Built here, started by the caller.
 */
import * as grpc from "@grpc/grpc-js";
import { EngineService, file_cashier_engine_v1_engine_service } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { file_cashier_engine_v1_errors } from "../../gen/cashier/engine/v1/errors_pb.js";
import type { ProcessDeps } from "../app/ports.ts";
import type { Logger } from "../log.ts";
import { bearerAuth } from "./auth.ts";
import { classifyDataError, classifyInternal } from "./errors.ts";
import { addService } from "./grpc-adapter.ts";
import { engineService } from "./engine-service.ts";
import { addHealth, type HealthHandle } from "./health.ts";
import { addReflection } from "./reflection.ts";

/**
 * EngineService requires a bearer token; health and reflection are open, so
 * probes and grpcurl's discovery need none.
 */
export function buildGrpcServer(deps: ProcessDeps, tokens: string[], log: Logger, probe: () => Promise<void>): { server: grpc.Server; health: HealthHandle } {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 1024 * 1024,
    "grpc.keepalive_permit_without_calls": 1,
  });
  const onInternal = (err: unknown, method: string) => log.error({ err, method }, "rpc failed");
  addService(server, EngineService, engineService(deps), { interceptor: bearerAuth(tokens), onInternal, classify: (err) => classifyDataError(err) ?? classifyInternal(err) });
  addReflection(server, [file_cashier_engine_v1_engine_service, file_cashier_engine_v1_errors]);
  const health = addHealth(server, probe);
  return { server, health };
}

export async function listen(server: grpc.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}
