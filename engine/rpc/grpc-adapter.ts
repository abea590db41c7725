/**
 * Serves protobuf-es service descriptors on @grpc/grpc-js (decision records
 * 0001 and 0005: grpc-js measured faster than connect-node's server on this
 * hop). Each unary method becomes a grpc-js handler that hands the request's
 * bytes to the interceptors (interceptors.ts, onion form), the innermost of
 * which decodes them with the generated schema before the implementation runs;
 * the reply is encoded with the generated schema, and a thrown RpcError leaves
 * as a gRPC status with google.rpc.Status details that Connect and grpcurl
 * clients read.
 */
import * as grpc from "@grpc/grpc-js";
import { toBinary, type DescMessage, type DescService, type MessageShape } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { anyPack, AnySchema } from "@bufbuild/protobuf/wkt";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { compose, decoding, RpcError, type Call, type Interceptor } from "./interceptors.ts";

export { RpcError } from "./interceptors.ts";

/** What an implementation may read about its call besides the request. */
export interface CallContext {
  metadata: grpc.Metadata;
  method: string;
  deadline: grpc.Deadline;
  /** The caller's address as grpc-js sees it (host:port), when it knows it. */
  peer?: string;
}

type UnaryImpl<I extends DescMessage, O extends DescMessage> = (req: MessageShape<I>, ctx: CallContext) => Promise<MessageShape<O>>;

export type ServiceImpl<S> = S extends GenService<infer M extends GenServiceMethods> ? { [K in keyof M]: UnaryImpl<M[K]["input"], M[K]["output"]> } : never;

/** google.rpc.Status (code, message, details as Any), the grpc-status-details-bin trailer. */
function statusDetails(err: RpcError): Buffer {
  const w = new BinaryWriter();
  w.tag(1, WireType.Varint).int32(err.code);
  w.tag(2, WireType.LengthDelimited).string(err.message);
  for (const d of err.details) {
    const any = anyPack(d.schema, d.message as MessageShape<typeof d.schema>);
    w.tag(3, WireType.LengthDelimited).bytes(toBinary(AnySchema, any));
  }
  return Buffer.from(w.finish());
}

/** A thrown value as grpc-js's error; anything not an RpcError is INTERNAL with no internal text. */
function toServiceError(err: unknown): Partial<grpc.ServiceError> {
  if (!(err instanceof RpcError)) return { code: grpc.status.INTERNAL, details: "internal error" };
  const metadata = new grpc.Metadata();
  if (err.details.length > 0) metadata.set("grpc-status-details-bin", statusDetails(err));
  return { code: err.code, details: err.message, metadata };
}

/** grpc-js's peer text ("unknown" when the socket is gone) or undefined. */
function peerOf(call: grpc.ServerUnaryCall<Uint8Array, unknown>): string | undefined {
  try {
    const p = call.getPeer();
    return p && p !== "unknown" ? p : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Adds `service` to `server`. `interceptors` run outermost first around every
 * method; decoding is always the innermost, so no interceptor ahead of it
 * (authentication) spends a cycle on the bytes of a caller it refuses.
 */
export function addService<S extends DescService & GenService<GenServiceMethods>>(
  server: grpc.Server,
  service: S,
  impl: ServiceImpl<S>,
  opts: {
    interceptors?: readonly Interceptor[];
    /** The refusal of a request whose bytes do not decode; a bare INVALID_ARGUMENT when not given. */
    malformed?: (description: string, field?: string) => RpcError;
  } = {},
): void {
  const malformed = opts.malformed ?? ((description: string) => new RpcError(grpc.status.INVALID_ARGUMENT, description));
  const chain = [...(opts.interceptors ?? []), decoding(malformed)];
  const definition: Record<string, grpc.MethodDefinition<Uint8Array, MessageShape<DescMessage>>> = {};
  const handlers: grpc.UntypedServiceImplementation = {};
  for (const method of service.methods) {
    if (method.methodKind !== "unary") throw new Error(`${method.name}: only unary methods are served`);
    const path = `/${service.typeName}/${method.name}`;
    definition[method.name] = {
      path,
      originalName: method.localName,
      requestStream: false,
      responseStream: false,
      // The bytes go to the interceptors as they came: decoding is one of them, and it never throws
      // into grpc-js (which would answer INTERNAL for the caller's bytes).
      requestSerialize: (bytes: Uint8Array) => Buffer.from(bytes),
      requestDeserialize: (bytes: Buffer) => bytes,
      responseSerialize: (m: MessageShape<DescMessage>) => Buffer.from(toBinary(method.output, m)),
      responseDeserialize: () => {
        throw new Error("a server never reads a response");
      },
    };
    const fn = (impl as Record<string, UnaryImpl<DescMessage, DescMessage>>)[method.localName];
    const run = compose(chain, (call: Call) => fn(call.request!, { metadata: call.metadata, method: call.method, deadline: call.deadline, peer: call.peer }));
    handlers[method.name] = (call: grpc.ServerUnaryCall<Uint8Array, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      run({ method: path, metadata: call.metadata, deadline: call.getDeadline(), peer: peerOf(call), input: method.input, bytes: call.request }).then(
        (reply) => callback(null, reply),
        (err: unknown) => callback(toServiceError(err)),
      );
    };
  }
  server.addService(definition, handlers);
}
