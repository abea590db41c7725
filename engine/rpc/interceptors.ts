/**
 * The engine's gRPC interceptors in the onion form Connect uses,
 * `(next) => async (call) => reply`: each one wraps the rest of the chain, so
 * it sees the call going in and the reply or the thrown error coming out. The
 * server composes them outermost first:
 *
 *   metrics -> errors -> auth -> decoding -> the service's method
 *
 * metrics counts and times every call, refused ones included, by the code it
 * ended with; errors turns whatever was thrown into an RpcError (never an
 * internal message); auth refuses a missing or wrong bearer token before any
 * byte of the request is read; decoding turns the request bytes into the
 * method's message, or refuses them as INVALID_ARGUMENT naming the cause.
 */
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { decodeRequest, MalformedRequest } from "./request-decoding.ts";

/** An error with a gRPC code and typed details (google.rpc.Status), thrown by implementations. */
export class RpcError extends Error {
  readonly code: grpc.status;
  readonly details: { schema: DescMessage; message: object }[];
  constructor(code: grpc.status, message: string, details: { schema: DescMessage; message: object }[] = []) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** One unary call as the interceptors see it. */
export interface Call {
  /** `/package.Service/Method`. */
  readonly method: string;
  readonly metadata: grpc.Metadata;
  /** The caller's deadline (Infinity when none was sent). */
  readonly deadline: grpc.Deadline;
  /** The caller's address as grpc-js sees it (host:port), when it knows it. */
  readonly peer?: string;
  /** The method's input schema. */
  readonly input: DescMessage;
  /** The request as received, not yet decoded. */
  readonly bytes: Uint8Array;
  /** The decoded request, set by the decoding interceptor. */
  request?: MessageShape<DescMessage>;
}

export type Handler = (call: Call) => Promise<MessageShape<DescMessage>>;
export type Interceptor = (next: Handler) => Handler;

/** Interceptors around a handler, the first in the list outermost. */
export function compose(interceptors: readonly Interceptor[], handler: Handler): Handler {
  return interceptors.reduceRight<Handler>((next, interceptor) => interceptor(next), handler);
}

/** The code a call ended with: OK, the RpcError's, or INTERNAL for anything else. */
export function codeOf(err: unknown): grpc.status {
  return err instanceof RpcError ? err.code : grpc.status.INTERNAL;
}

/**
 * Reports each call's method, code and milliseconds once it has ended. An
 * observer's failure never costs the caller its reply.
 */
export function observing(record: (method: string, code: grpc.status, ms: number) => void): Interceptor {
  const report = (method: string, code: grpc.status, started: number) => {
    try {
      record(method, code, performance.now() - started);
    } catch {
      // metrics are never worth a caller's reply
    }
  };
  return (next) => async (call) => {
    const started = performance.now();
    try {
      const reply = await next(call);
      report(call.method, grpc.status.OK, started);
      return reply;
    } catch (err) {
      report(call.method, codeOf(err), started);
      throw err;
    }
  };
}

/**
 * Everything thrown below becomes an RpcError: an RpcError as it is; what
 * `classify` recognises (bad data Postgres refused, a database that is down)
 * as it says, logged; anything else logged and answered INTERNAL with no
 * internal text.
 */
export function mappingErrors(opts: { onInternal: (err: unknown, method: string) => void; classify?: (err: unknown) => RpcError | undefined }): Interceptor {
  return (next) => async (call) => {
    try {
      return await next(call);
    } catch (err) {
      if (err instanceof RpcError) throw err;
      opts.onInternal(err, call.method);
      throw opts.classify?.(err) ?? new RpcError(grpc.status.INTERNAL, "internal error");
    }
  };
}

/**
 * Decodes the request with the method's schema; bytes that are not such a
 * message are the caller's fault, refused by `malformed` with the decoder's
 * cause (request-decoding.ts), never INTERNAL.
 */
export function decoding(malformed: (description: string, field?: string) => RpcError): Interceptor {
  return (next) => async (call) => {
    const request = decodeRequest(call.input, call.bytes);
    if (request instanceof MalformedRequest) throw malformed(request.description, request.field);
    call.request = request;
    return next(call);
  };
}
