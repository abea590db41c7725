/**
 * Malformed bytes refused as INVALID_ARGUMENT for services whose schema and
 * handlers are a library's (grpc.health.v1 from grpc-health-check, open to
 * any probe): their deserializers throw on bytes they cannot read, which
 * grpc-js answers INTERNAL. Here each deserializer hands a MalformedRequest
 * to a guard in front of the library's handler instead, as the adapter does
 * for our own services (grpc-adapter.ts). Unary and server-streaming methods
 * only: a client stream's bad message cannot be refused before the handler
 * reads it.
 */
import * as grpc from "@grpc/grpc-js";
import { MalformedRequest } from "./request-decoding.ts";

type Handler = (call: { request?: unknown; emit(event: "error", err: Partial<grpc.StatusObject>): boolean }, callback?: grpc.sendUnaryData<unknown>) => void;

/** A stand-in for `server` to hand a library's addToServer: what it adds, it adds guarded. */
export function refusingMalformed(server: grpc.Server): Pick<grpc.Server, "addService"> {
  const addService = (definition: grpc.ServiceDefinition, implementation: grpc.UntypedServiceImplementation): void => {
    const guarded: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
    const handlers: Record<string, Handler> = {};
    for (const [name, method] of Object.entries(definition)) {
      const library = (implementation[name] ?? (method.originalName ? implementation[method.originalName] : undefined)) as Handler | undefined;
      if (method.requestStream || !library) {
        guarded[name] = method;
        if (library) handlers[name] = library.bind(implementation);
        continue;
      }
      guarded[name] = {
        ...method,
        requestDeserialize: (bytes: Buffer) => {
          try {
            return method.requestDeserialize(bytes);
          } catch (err) {
            return new MalformedRequest(`request of ${method.path}`, err);
          }
        },
      };
      handlers[name] = (call, callback) => {
        if (!(call.request instanceof MalformedRequest)) return library.call(implementation, call, callback);
        const refusal = { code: grpc.status.INVALID_ARGUMENT, details: call.request.description, metadata: new grpc.Metadata() };
        if (method.responseStream) call.emit("error", refusal);
        else callback?.(refusal);
      };
    }
    server.addService(guarded, handlers as unknown as grpc.UntypedServiceImplementation);
  };
  return { addService };
}
