/**
 * Server reflection (grpc.reflection.v1 and v1alpha) from the generated
 * descriptors, so grpcurl and `buf curl` work with no proto files at hand.
 * @grpc/reflection reads only the `fileDescriptorProtos` of a proto-loader
 * package definition; proto-loader's own FileDescriptorSet loader merges files
 * of one package and loses some, so we hand it every file (ours, their
 * imports and grpc.health.v1) serialised by protobuf-es.
 *
 * It maps every service, method and message the engine has, so it is served to
 * token holders only: with `check`, a reflection stream opens only for a call
 * whose bearer token passes it (refused ones counted and throttled as any call's).
 */
import { toBinary, type DescFile } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import type { PackageDefinition } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import type * as grpc from "@grpc/grpc-js";
import type { TokenCheck } from "./auth.ts";
import { healthFileDescriptor } from "./health-descriptor.ts";

function collect(files: DescFile[], seen = new Map<string, DescFile>()): DescFile[] {
  for (const f of files) {
    if (seen.has(f.proto.name)) continue;
    collect(f.dependencies, seen);
    seen.set(f.proto.name, f);
  }
  return [...seen.values()];
}

type StreamHandler = (stream: grpc.ServerDuplexStream<unknown, unknown>) => void;

/** A stand-in for `server` to hand the library's addToServer: each stream it serves passes `check` first. */
function behind(server: grpc.Server, check: TokenCheck): Pick<grpc.Server, "addService"> {
  return {
    addService(definition, implementation) {
      const guarded: grpc.UntypedServiceImplementation = {};
      for (const [name, handler] of Object.entries(implementation)) {
        guarded[name] = ((stream: grpc.ServerDuplexStream<unknown, unknown>) => {
          let peer: string | undefined;
          try {
            peer = stream.getPeer();
          } catch {
            peer = undefined;
          }
          const refusal = check(stream.metadata, peer);
          // The stream's own error handler ends it with this status; the library never sees the call.
          if (refusal) stream.emit("error", { code: refusal.code, details: refusal.message });
          else (handler as StreamHandler)(stream);
        }) as grpc.UntypedHandleCall;
      }
      server.addService(definition, guarded);
    },
  };
}

/** Adds reflection of `files` (and their imports) to `server`; with `check`, to token holders only. */
export function addReflection(server: grpc.Server, files: DescFile[], check?: TokenCheck): void {
  const protos = [...collect(files).map((f) => f.proto), healthFileDescriptor];
  const fileDescriptorProtos = protos.map((p) => Buffer.from(toBinary(FileDescriptorProtoSchema, p)));
  const pkg = { "cashier.descriptors": { fileDescriptorProtos } } as unknown as PackageDefinition;
  new ReflectionService(pkg).addToServer((check ? behind(server, check) : server) as grpc.Server);
}
