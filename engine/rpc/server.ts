/**
 * The engine's gRPC server (grpc-js): the services it is given, each behind its
 * bearer tokens (refused tokens throttled per address over all of them), with
 * health (open) and reflection (service tokens only). Built here, started by the caller.
 */
import * as grpc from "@grpc/grpc-js";
import type { DescFile, DescService } from "@bufbuild/protobuf";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import type { Logger } from "../shared/runtime/log.ts";
import { type AuthGuard, type AuthRefusal, bearerAuth, tokenCheck } from "./auth.ts";
import { type AuthFailureLimit, authThrottle } from "./auth-throttle.ts";
import { classifyDataError, classifyInternal, toRpcError } from "./errors.ts";
import { domainError } from "../shared/errors.ts";
import { addService, type ServiceImpl } from "./grpc-adapter.ts";
import { mappingErrors, type Interceptor, type RpcError } from "./interceptors.ts";
import { addHealth, type HealthHandle } from "./health.ts";
import { addReflection } from "./reflection.ts";

/** One service the server answers: its implementation and the bearer tokens it accepts. */
export interface ServiceRegistration {
  add(server: grpc.Server, opts: { interceptors: readonly Interceptor[]; malformed: (description: string, field?: string) => RpcError }): void;
  /** The bearer tokens this service accepts (empty: every call is refused). */
  tokens: string[];
}

/** A service and its implementation, typed together, as one registration. */
export function registration<S extends DescService & GenService<GenServiceMethods>>(service: S, impl: ServiceImpl<S>, tokens: string[]): ServiceRegistration {
  return { add: (server, opts) => addService(server, service, impl, opts), tokens };
}

/** What buildGrpcServer may be given besides its services. */
export interface GrpcServerOptions {
  /** The outermost interceptor of every service: the engine's metrics. */
  observe?: Interceptor;
  /** Told of every refused token, by why (the engine's refusal counter). */
  onAuthRefused?: (reason: AuthRefusal) => void;
  /** Reflection for holders of these tokens (CASHIER_GRPC_REFLECTION: the service tokens); undefined: not served. */
  reflection?: readonly string[];
  /** Refused tokens per address before it is blocked (auth-throttle.ts's default). */
  authLimit?: AuthFailureLimit;
  /** The health services a supervised process that is down takes out (health.ts). */
  notServing?: () => ReadonlySet<string>;
}

/**
 * Every registered service behind its own bearer tokens, one throttle of
 * refused tokens over all of them (a guesser cannot spread over services);
 * health is open, so probes need no token; reflection, when given tokens,
 * answers their holders only. Interceptors as interceptorsFor() lists them.
 * Which services, with which tokens, is the composition root's choice
 * (engine/grpc-services.ts).
 */
export function buildGrpcServer(
  services: readonly ServiceRegistration[],
  reflected: DescFile[],
  log: Logger,
  probe: () => Promise<void>,
  opts: GrpcServerOptions = {},
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
  const guard: AuthGuard = { throttle: authThrottle(opts.authLimit), onRefused: opts.onAuthRefused };
  for (const s of services) s.add(server, { interceptors: interceptorsFor(s.tokens, { observe: opts.observe, onInternal, guard }), malformed });
  if (opts.reflection) addReflection(server, reflected, tokenCheck(opts.reflection, guard));
  const health = addHealth(server, probe, undefined, opts.notServing);
  return { server, health };
}

/** A thrown error the engine did not mean as a refusal, recognised: bad data Postgres refused, a database that is down. */
export const classifyEngineError = (err: unknown) => classifyDataError(err) ?? classifyInternal(err);

/**
 * The interceptors of a service that takes the bearer `tokens`, outermost
 * first (the adapter adds decoding innermost): metrics, so refused calls count
 * too, with the code they ended with; errors mapped to gRPC statuses; the
 * bearer token (throttled by `guard`, when given, with the server's other services).
 */
export function interceptorsFor(
  tokens: string[],
  opts: {
    observe?: Interceptor;
    onInternal: (err: unknown, method: string) => void;
    classify?: (err: unknown) => RpcError | undefined;
    guard?: AuthGuard;
  },
): Interceptor[] {
  return [
    ...(opts.observe ? [opts.observe] : []),
    mappingErrors({ onInternal: opts.onInternal, classify: opts.classify ?? classifyEngineError }),
    bearerAuth(tokens, opts.guard),
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
