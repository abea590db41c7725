/**
 * Server reflection (grpc.reflection.v1 and v1alpha) from the generated
 * descriptors, so grpcurl and `buf curl` work with no proto files at hand.
 * @grpc/reflection reads only the `fileDescriptorProtos` of a proto-loader
 * package definition; proto-loader's own FileDescriptorSet loader merges files
 * of one package and loses some, so we hand it every file (ours, their
 * imports and grpc.health.v1) serialised by protobuf-es.
 */
import { toBinary, type DescFile } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import type { PackageDefinition } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { healthFileDescriptor } from "./health-descriptor.ts";
import type * as grpc from "@grpc/grpc-js";

function collect(files: DescFile[], seen = new Map<string, DescFile>()): DescFile[] {
  for (const f of files) {
    if (seen.has(f.proto.name)) continue;
    collect(f.dependencies, seen);
    seen.set(f.proto.name, f);
  }
  return [...seen.values()];
}

export function addReflection(server: grpc.Server, files: DescFile[]): void {
  const protos = [...collect(files).map((f) => f.proto), healthFileDescriptor];
  const fileDescriptorProtos = protos.map((p) => Buffer.from(toBinary(FileDescriptorProtoSchema, p)));
  const pkg = { "cashier.descriptors": { fileDescriptorProtos } } as unknown as PackageDefinition;
  new ReflectionService(pkg).addToServer(server);
}
