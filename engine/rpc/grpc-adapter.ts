/**
 * Serves protobuf-es service descriptors on @grpc/grpc-js. grpc-js was measured
 * at about 4x the calls/s of connect-node's server on this hop, so the engine
 * uses it, with this small adapter: each unary method becomes a grpc-js handler
 * that decodes with the generated schema, awaits the implementation and encodes
 * the reply; a thrown RpcError becomes a gRPC status with google.rpc.Status
 * details that Connect and grpcurl clients read. Bytes that do not decode are
 * the caller's fault: INVALID_ARGUMENT naming the cause (request-decoding.ts).
 */
import * as grpc from "@grpc/grpc-js";
import { fromBinary, toBinary, type DescMessage, type DescService, type MessageShape } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { anyPack, AnySchema } from "@bufbuild/protobuf/wkt";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { decodeRequest, MalformedRequest } from "./request-decoding.ts";

/** An error with a gRPC code and typed details, thrown by implementations. */
export class RpcError extends Error {
  readonly code: grpc.status;
  readonly details: { schema: DescMessage; message: object }[];
  constructor(code: grpc.status, message: string, details: { schema: DescMessage; message: object }[] = []) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

export interface CallContext {
  metadata: grpc.Metadata;
  method: string;
}

/** What a handler receives: the decoded request, or why its bytes did not decode. */
type Incoming = MessageShape<DescMessage> | MalformedRequest;

type UnaryImpl<I extends DescMessage, O extends DescMessage> = (req: MessageShape<I>, ctx: CallContext) => Promise<MessageShape<O>>;

export type ServiceImpl<S> = S extends GenService<infer M extends GenServiceMethods> ? { [K in keyof M]: UnaryImpl<M[K]["input"], M[K]["output"]> } : never;

/** Hooks around every call: authentication, logging, metrics. */
export interface Interceptor {
  before?(ctx: CallContext): void;
  after?(ctx: CallContext, code: grpc.status, ms: number): void;
}

/**
 * Several hooks as one, in order: a `before` that throws (authentication)
 * stops the rest and the call, and every `after` still sees the refusal, so
 * metrics count refused calls too.
 */
export function composeInterceptors(...list: (Interceptor | undefined)[]): Interceptor {
  const hooks = list.filter((i): i is Interceptor => i !== undefined);
  return {
    before(ctx) {
      for (const h of hooks) h.before?.(ctx);
    },
    after(ctx, code, ms) {
      for (const h of hooks) {
        try {
          h.after?.(ctx, code, ms);
        } catch {
          // an observer's failure must never cost the caller its reply
        }
      }
    },
  };
}

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

function toServiceError(err: unknown, onInternal: (err: unknown) => void, classify?: (err: unknown) => RpcError | undefined): Partial<grpc.ServiceError> {
  if (!(err instanceof RpcError)) {
    const classified = classify?.(err);
    if (classified) {
      onInternal(err);
      err = classified;
    }
  }
  if (err instanceof RpcError) {
    const metadata = new grpc.Metadata();
    if (err.details.length > 0) metadata.set("grpc-status-details-bin", statusDetails(err));
    return { code: err.code, details: err.message, metadata };
  }
  onInternal(err);
  // Never echo an internal message to the caller.
  return { code: grpc.status.INTERNAL, details: "internal error" };
}

export function addService<S extends DescService & GenService<GenServiceMethods>>(
  server: grpc.Server,
  service: S,
  impl: ServiceImpl<S>,
  opts: {
    interceptor?: Interceptor;
    onInternal: (err: unknown, method: string) => void;
    classify?: (err: unknown) => RpcError | undefined;
    /** The refusal of a request whose bytes do not decode; a bare INVALID_ARGUMENT when not given. */
    malformed?: (description: string) => RpcError;
  },
): void {
  const malformed = opts.malformed ?? ((description: string) => new RpcError(grpc.status.INVALID_ARGUMENT, description));
  const definition: Record<string, grpc.MethodDefinition<Incoming, MessageShape<DescMessage>>> = {};
  const handlers: grpc.UntypedServiceImplementation = {};
  for (const method of service.methods) {
    if (method.methodKind !== "unary") throw new Error(`${method.name}: only unary methods are served`);
    const path = `/${service.typeName}/${method.name}`;
    definition[method.name] = {
      path,
      originalName: method.localName,
      requestStream: false,
      responseStream: false,
      // A client's half of the definition, never used by this server.
      requestSerialize: (m: Incoming) => Buffer.from(toBinary(method.input, m as MessageShape<DescMessage>)),
      // Never throws (grpc-js would answer INTERNAL): a MalformedRequest reaches the handler instead.
      requestDeserialize: (b: Buffer) => decodeRequest(method.input, b),
      responseSerialize: (m: MessageShape<DescMessage>) => Buffer.from(toBinary(method.output, m)),
      responseDeserialize: (b: Buffer) => fromBinary(method.output, b),
    };
    const fn = (impl as Record<string, UnaryImpl<DescMessage, DescMessage>>)[method.localName];
    handlers[method.name] = (call: grpc.ServerUnaryCall<Incoming, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const ctx: CallContext = { metadata: call.metadata, method: path };
      const started = performance.now();
      const finish = (code: grpc.status) => opts.interceptor?.after?.(ctx, code, performance.now() - started);
      const refuse = (err: unknown, classify?: (err: unknown) => RpcError | undefined) => {
        const e = toServiceError(err, (x) => opts.onInternal(x, path), classify);
        finish(e.code ?? grpc.status.INTERNAL);
        callback(e);
      };
      try {
        // Authentication first: who may not call learns nothing about how its bytes were judged.
        opts.interceptor?.before?.(ctx);
      } catch (err) {
        return refuse(err);
      }
      const req = call.request;
      if (req instanceof MalformedRequest) return refuse(malformed(req.description));
      fn(req, ctx).then(
        (res) => {
          finish(grpc.status.OK);
          callback(null, res);
        },
        (err: unknown) => refuse(err, opts.classify),
      );
    };
  }
  server.addService(definition, handlers);
}
