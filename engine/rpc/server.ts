/**
 * The engine's gRPC server (grpc-js): EngineService, CashierService and AdminService behind
 * bearer-token authentication. Built here, started by the caller.
 */
import * as grpc from "@grpc/grpc-js";
import { EngineService, file_cashier_engine_v1_engine_service } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { file_cashier_engine_v1_errors } from "../../gen/cashier/engine/v1/errors_pb.js";
import { CashierService, file_cashier_engine_v1_cashier_service } from "../../gen/cashier/engine/v1/cashier_service_pb.js";
import { AdminService, file_cashier_admin_v1_admin_service } from "../../gen/cashier/admin/v1/admin_service_pb.js";
import { auditedAdminService } from "./admin-audit.ts";
import { BackofficeService, file_cashier_admin_v1_backoffice_service } from "../../gen/cashier/admin/v1/backoffice_service_pb.js";
import { backofficeService, type BackofficeServiceDeps } from "./backoffice-service.ts";
import type { MerchantAdminDeps } from "./merchant-admin.ts";
import type { CashierDeps } from "../app/cashier-ports.ts";
import { cashierService } from "./cashier-service.ts";
import type { Logger } from "../log.ts";
import { bearerAuth } from "./auth.ts";
import { classifyDataError, classifyInternal, toRpcError } from "./errors.ts";
import { domainError } from "../domain/errors.ts";
import { addService } from "./grpc-adapter.ts";
import { mappingErrors, type Interceptor, type RpcError } from "./interceptors.ts";
import { engineService } from "./engine-service.ts";
import { addHealth, type HealthHandle } from "./health.ts";
import { addReflection } from "./reflection.ts";

/**
 * EngineService requires a bearer token (a service token or the edge's);
 * AdminService a service token; BackofficeService a service token or the
 * Backoffice's; health and reflection are open, so probes and
 * grpcurl's discovery need none. Interceptors as interceptorsFor() lists them.
 */
export function buildGrpcServer(
  deps: CashierDeps & MerchantAdminDeps & BackofficeServiceDeps,
  tokens: { engine: string[]; admin: string[]; backoffice: string[] },
  log: Logger,
  probe: () => Promise<void>,
  opts: { observe?: Interceptor } = {},
): { server: grpc.Server; health: HealthHandle } {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 1024 * 1024,
    "grpc.keepalive_permit_without_calls": 1,
  });
  const onInternal = (err: unknown, method: string) => log.error({ err, method }, "rpc failed");
  // Bytes that are no message are the caller's fault, with the reason a malformed JSON body has at the edge.
  // A field whose text is not UTF-8 is named, as every other bad field is.
  const malformed = (description: string, field?: string) =>
    toRpcError(
      domainError(
        "MALFORMED_BODY",
        description,
        field ? [{ field, description: "must be UTF-8 text (it holds half of a surrogate pair alone, or bytes that are no text)" }] : [],
      ),
    );
  const chain = (accepted: string[]) => interceptorsFor(accepted, { observe: opts.observe, onInternal });
  addService(server, EngineService, engineService(deps), { interceptors: chain(tokens.engine), malformed });
  // The hosted Cashier: the same tokens as EngineService (the edge's, for its pages and session start).
  addService(server, CashierService, cashierService(deps), { interceptors: chain(tokens.engine), malformed });
  // Operators only: the edge's token, on the machine that faces the internet, opens no admin call.
  addService(server, AdminService, auditedAdminService(deps), { interceptors: chain(tokens.admin), malformed });
  // The Backoffice's token or a service token; the person is checked by each call's console session.
  addService(server, BackofficeService, backofficeService(deps), { interceptors: chain(tokens.backoffice), malformed });
  addReflection(server, [
    file_cashier_engine_v1_engine_service,
    file_cashier_engine_v1_cashier_service,
    file_cashier_admin_v1_admin_service,
    file_cashier_admin_v1_backoffice_service,
    file_cashier_engine_v1_errors,
  ]);
  const health = addHealth(server, probe);
  return { server, health };
}

/** A thrown error the engine did not mean as a refusal, recognised: bad data Postgres refused, a database that is down. */
export const classifyEngineError = (err: unknown) => classifyDataError(err) ?? classifyInternal(err);

/**
 * The interceptors of a service that takes the bearer `tokens`, outermost
 * first (the adapter adds decoding innermost): metrics, so refused calls count
 * too, with the code they ended with; errors mapped to gRPC statuses; the
 * bearer token.
 */
export function interceptorsFor(
  tokens: string[],
  opts: { observe?: Interceptor; onInternal: (err: unknown, method: string) => void; classify?: (err: unknown) => RpcError | undefined },
): Interceptor[] {
  return [
    ...(opts.observe ? [opts.observe] : []),
    mappingErrors({ onInternal: opts.onInternal, classify: opts.classify ?? classifyEngineError }),
    bearerAuth(tokens),
  ];
}

/** TLS material as PEM text; undefined serves plaintext HTTP/2 (h2c). */
export interface ServerTls {
  cert: Buffer;
  key: Buffer;
}

/** Binds and resolves to the bound port; with `tls`, only TLS connections are accepted on it. */
export async function listen(server: grpc.Server, host: string, port: number, tls?: ServerTls): Promise<number> {
  const credentials = tls
    ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: tls.cert, private_key: tls.key }], false)
    : grpc.ServerCredentials.createInsecure();
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, credentials, (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}
